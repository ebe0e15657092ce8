import { fromNow, when } from './release-status'
import type { Version } from './sandbox-api'
import styles from './releases.module.css'

type Ramp = NonNullable<Version['rollout']['ramp']>

interface Point {
  at: number
  percentage: number
}

/**
 * When each step begins: the steps in force from the ramp's start, the next one at `nextStepAt`
 * (paused time does not count, so the server's figure wins), later ones after their waits.
 * A step whose time is unknown (a gate holding) starts after `now`.
 */
export function stepTimes(ramp: Ramp, now: number): Point[] {
  const out: Point[] = []
  const current = ramp.currentStep ?? -1
  let at = new Date(ramp.startedAt).getTime()
  ramp.steps.forEach((s, i) => {
    at += s.afterMinutes * 60_000
    if (i === current + 1) at = ramp.nextStepAt ? new Date(ramp.nextStepAt).getTime() : Math.max(now, at)
    out.push({ at, percentage: s.percentage })
  })
  return out
}

const W = 300
const H = 40

/** A ramp drawn as steps on a time axis: done so far filled, the plan dashed, a line at now. */
export function RampTrack({ version: v, now = Date.now() }: { version: Version; now?: number }) {
  const ramp = v.rollout.ramp
  if (!ramp) return <HandSet version={v} />
  const points = stepTimes(ramp, now)
  const start = new Date(ramp.startedAt).getTime()
  const end = Math.max(now, points[points.length - 1]?.at ?? now) + 1
  const x = (t: number) => ((t - start) / (end - start)) * W
  const y = (p: number) => H - 2 - (p / 100) * (H - 4)
  const stairs = (pts: Point[]) => {
    let d = `M0 ${y(0)}`
    for (const p of pts) d += ` H${x(p.at).toFixed(1)} V${y(p.percentage).toFixed(1)}`
    return d
  }
  const current = ramp.currentStep ?? -1
  const done = points.slice(0, current + 1)
  const doneArea = `${stairs(done)} H${x(now).toFixed(1)} V${y(0)} Z`
  const next = ramp.steps[current + 1]
  const holding = ramp.gate?.holding
  const text = v.rollout.pulled
    ? 'pulled: offered to nobody'
    : v.rollout.paused
      ? 'paused: no new device is offered it'
      : holding
        ? `holds before step ${holding.step + 1} (${next?.percentage ?? 100} %): ${holding.reason}`
        : next && ramp.nextStepAt
          ? `next ${next.percentage} % ${when(ramp.nextStepAt)} (${fromNow(ramp.nextStepAt, now)})`
          : 'complete'
  return (
    <div className={styles.track}>
      <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" aria-hidden="true">
        <path className={styles.trackPlan} d={stairs(points)} vectorEffect="non-scaling-stroke" />
        {done.length ? <path className={styles.trackArea} d={doneArea} vectorEffect="non-scaling-stroke" /> : null}
        {points.map((p, i) => (
          <line
            key={i}
            className={styles.trackTick}
            x1={x(p.at)}
            x2={x(p.at)}
            y1={H - 6}
            y2={H}
            vectorEffect="non-scaling-stroke"
          />
        ))}
        <line className={styles.trackNow} x1={x(now)} x2={x(now)} y1={0} y2={H} vectorEffect="non-scaling-stroke" />
      </svg>
      <p className={styles.trackText}>
        <strong>{v.rolloutPercentage} %</strong> now · step {current + 1} of {ramp.steps.length} (
        {ramp.steps.map((s) => `${s.percentage}`).join(' → ')} %) · {text}
      </p>
    </div>
  )
}

/** A hand-set share: a bar to it (nothing while paused or pulled). */
function HandSet({ version: v }: { version: Version }) {
  const { paused, pulled } = v.rollout
  const share = paused || pulled ? 0 : v.rolloutPercentage
  return (
    <div className={styles.track}>
      <div className={styles.meter} aria-hidden="true">
        <span className={styles.meterFill} style={{ width: `${share}%` }} />
      </div>
      <p className={styles.trackText}>
        <strong>{share} %</strong>{' '}
        {pulled
          ? 'now: pulled, offered to nobody'
          : paused
            ? 'now: paused, no new device is offered it'
            : 'of devices, set by hand'}
      </p>
    </div>
  )
}
