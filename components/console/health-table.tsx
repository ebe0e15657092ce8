import { useEffect, useId, useState } from 'react'
import { RampTrack } from '../demo/ramp-track'
import { releaseStatus } from '../demo/release-status'
import type { Version } from '../demo/sandbox-api'
import { StatusPill } from '../demo/version-list'
import styles from '../demo/releases.module.css'

const percent = (ratio: number) => `${Math.round(ratio * 1000) / 10} %`

/** The clock the tracks are drawn against, ticking each minute so "now" and "in 42 min" move. */
function useMinute() {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 60_000)
    return () => clearInterval(t)
  }, [])
  return now
}

/**
 * Every published version's rollout at a glance: its status, its ramp as a track with "now" and
 * the next step, the gate's evidence, and its failure share against the pause threshold.
 */
export function HealthTable({ versions }: { versions: Version[] }) {
  const id = useId()
  const now = useMinute()
  const shown = versions.filter((v) => v.published || v.rollout.paused || v.rollout.pulled)
  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Rollouts and health</h3>
      {shown.length === 0 ? <p>No published version yet: publish one under Releases, then ramp it here.</p> : null}
      <ul className={styles.board}>
        {shown.map((v) => (
          <li
            key={v.id}
            className={styles.card}
            aria-label={`Rollout card ${v.version} (${v.channel}, ${v.platform}/${v.arch})`}
          >
            <div className={styles.cardHead}>
              <strong>{v.version}</strong>
              <span className={styles.target}>
                {v.channel} · {v.platform} · {v.arch}
              </span>
              <StatusPill status={releaseStatus(v)} />
            </div>
            <RampTrack version={v} now={now} />
            <Evidence version={v} />
          </li>
        ))}
      </ul>
    </section>
  )
}

/** The gate's evidence ("2 of 3 installs, 0 failures") and the failure share against the pause threshold. */
function Evidence({ version: v }: { version: Version }) {
  const { health, paused, pulled } = v.rollout
  const gate = v.rollout.ramp?.gate
  const limit = health.policy.maxFailureRatio
  const share = health.reports ? health.failed / health.reports : 0
  const scale = Math.max(limit * 2, share, 0.01)
  const hold = pulled ?? paused
  return (
    <div className={styles.gate}>
      {gate ? (
        <span>
          Gate {gate.met ? 'met' : gate.holding ? 'holding' : 'waiting'}: {gate.installs} of {gate.minInstalls}{' '}
          installs, {health.failed} failure{health.failed === 1 ? '' : 's'} (≤ {percent(gate.maxFailureRatio)})
        </span>
      ) : (
        <span>No gate: steps follow the clock</span>
      )}
      <div className={styles.meter} aria-hidden="true">
        <span
          className={`${styles.meterFill} ${share > limit ? styles.meterBad : ''}`}
          style={{ width: `${(share / scale) * 100}%` }}
        />
        <span className={styles.meterLimit} style={{ left: `${(limit / scale) * 100}%` }} />
      </div>
      <span>
        {health.reports ? `${percent(share)} failed of ${health.reports} reports` : 'No health reports yet'}; pauses
        above {percent(limit)} of ≥ {health.policy.minReports}
        {health.defaultPolicy ? ' (server default)' : ''}
      </span>
      {hold ? (
        <span>
          {pulled ? 'Pulled' : paused?.automatic ? 'Paused itself' : 'Paused'}: {hold.reason}
        </span>
      ) : null}
    </div>
  )
}
