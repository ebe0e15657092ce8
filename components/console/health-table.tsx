import { useEffect, useId, useState } from 'react'
import { RampTrack } from '../demo/ramp-track'
import { releaseName, releaseStatus, when } from '../demo/release-status'
import type { App, FerryApi, Version } from '../demo/sandbox-api'
import type { Run } from '../demo/use-ferry-data'
import { StatusPill } from '../demo/version-list'
import styles from '../demo/releases.module.css'
import { HealthChart } from './health-chart'
import { RolloutEditor } from './rollout-editor'

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
 * Every published version's rollout at a glance, one card each: its status, its ramp as a track
 * with "now" and the next step (or, paused or pulled, why), the gate's evidence against the pause
 * threshold, and, for those who may change it, the rollout's editor opened on the card.
 */
export function HealthTable({
  api,
  app,
  versions,
  run,
  canEdit,
}: {
  api: FerryApi
  app: App
  versions: Version[]
  run: Run
  canEdit: boolean
}) {
  const now = useMinute()
  const shown = versions.filter((v) => v.published || v.rollout.paused || v.rollout.pulled)
  return (
    <section aria-label={`Rollouts of ${app.name}`} className="ferry-console-view">
      {shown.length === 0 ? <p>No published version yet: publish one under Releases, then ramp it here.</p> : null}
      <ul className={styles.board}>
        {shown.map((v) => (
          <RolloutCard key={v.id} api={api} app={app} version={v} now={now} run={run} canEdit={canEdit} />
        ))}
      </ul>
    </section>
  )
}

function RolloutCard({
  api,
  app,
  version: v,
  now,
  run,
  canEdit,
}: {
  api: FerryApi
  app: App
  version: Version
  now: number
  run: Run
  canEdit: boolean
}) {
  const id = useId()
  const [editing, setEditing] = useState(false)
  const [charted, setCharted] = useState(false)
  const { paused, pulled } = v.rollout
  const hold = pulled ?? paused
  return (
    <li className={styles.card} aria-label={`Rollout card ${releaseName(v)}`}>
      <div className={styles.cardHead}>
        <strong>{v.version}</strong>
        <span className={styles.target}>
          {v.channel} · {v.platform} · {v.arch}
        </span>
        <StatusPill status={releaseStatus(v)} />
        {canEdit ? (
          <div className={styles.cardActions}>
            <button
              type="button"
              className="ferry-btn"
              aria-expanded={editing}
              aria-controls={`${id}-editor`}
              onClick={() => setEditing(!editing)}
            >
              {editing ? 'Close' : 'Edit rollout'}
              <span className="ferry-sr-only"> of {releaseName(v)}</span>
            </button>
          </div>
        ) : null}
      </div>
      {hold ? (
        // Offered to no new device: a track would be empty, so the card says why instead.
        <p className={styles.holdText}>
          {/* The server's own reason ("Pulled by Admin") already says what happened. */}
          {hold.reason && /^(pulled|paused)\b/i.test(hold.reason) ? (
            <strong>{hold.reason}</strong>
          ) : (
            <>
              <strong>{pulled ? 'Pulled' : paused?.automatic ? 'Paused by health' : 'Paused'}</strong>
              {hold.reason ? `: ${hold.reason}` : ''}
            </>
          )}
          <span className={styles.target}>
            {' '}
            · {when(hold.at)} · {pulled ? 'offered to nobody' : 'no new device is offered it'}
          </span>
        </p>
      ) : (
        <RampTrack version={v} now={now} />
      )}
      <Evidence version={v} />
      <details className={styles.cardChart} onToggle={(e) => setCharted(e.currentTarget.open)}>
        <summary>
          Health over time<span className="ferry-sr-only"> of {releaseName(v)}</span>
        </summary>
        {charted ? <HealthChart api={api} app={app.slug} version={v} /> : null}
      </details>
      {canEdit && editing ? (
        <div id={`${id}-editor`} className={styles.cardEditor}>
          <RolloutEditor app={app} version={v} run={run} />
        </div>
      ) : null}
    </li>
  )
}

/** The gate's evidence and the failure share against the pause threshold, a short line each. */
function Evidence({ version: v }: { version: Version }) {
  const { health } = v.rollout
  const gate = v.rollout.ramp?.gate
  const limit = health.policy.maxFailureRatio
  const share = health.reports ? health.failed / health.reports : 0
  const scale = Math.max(limit * 2, share, 0.01)
  return (
    <div className={styles.gate}>
      <dl>
        <div>
          <dt>Gate</dt>
          <dd>
            {gate
              ? `${gate.met ? 'met' : gate.holding ? 'holding' : 'waiting'}: ${gate.installs} of ${gate.minInstalls} installs, ${health.failed} failure${health.failed === 1 ? '' : 's'} (≤ ${percent(gate.maxFailureRatio)})`
              : 'none, steps follow the clock'}
          </dd>
        </div>
        <div>
          <dt>Health</dt>
          <dd>
            {health.reports ? `${percent(share)} failed of ${health.reports}` : 'no reports yet'}; pauses above{' '}
            {percent(limit)}
          </dd>
        </div>
      </dl>
      <div className={styles.meter} aria-hidden="true">
        <span
          className={`${styles.meterFill} ${share > limit ? styles.meterBad : ''}`}
          style={{ width: `${(share / scale) * 100}%` }}
        />
        <span className={styles.meterLimit} style={{ left: `${(limit / scale) * 100}%` }} />
      </div>
    </div>
  )
}
