import { MarkdownPreview } from './markdown-preview'
import type { App, SandboxApi, Version } from './sandbox-api'

type Run = (done: string, action: (api: SandboxApi) => Promise<unknown>) => Promise<boolean>

const formatSize = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`

/** Saves a sandbox artifact to the user's disk (its URL exists only inside this page). */
async function saveArtifact(api: SandboxApi, url: string, fileName: string) {
  const blob = await api.download(url)
  const href = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = href
  a.download = fileName
  a.click()
  setTimeout(() => URL.revokeObjectURL(href), 10_000)
}

const DEMO_RAMP = [
  { percentage: 1, afterMinutes: 0 },
  { percentage: 10, afterMinutes: 60 },
  { percentage: 50, afterMinutes: 60 },
  { percentage: 100, afterMinutes: 60 },
]

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/** Where the version's ramp stands, why it is paused or pulled, and its health reports. */
function RolloutStatus({ version: v }: { version: Version }) {
  const { ramp, paused, pulled, health } = v.rollout
  if (!ramp && !paused && !pulled && health.reports === 0) return null
  return (
    <ul className="ferry-rollout" aria-label={`Rollout of ${v.version}`}>
      {ramp ? (
        <li>
          Ramp {ramp.steps.map((s) => `${s.percentage} %`).join(' → ')}:{' '}
          {ramp.currentStep === null
            ? 'not started'
            : `step ${ramp.currentStep + 1} of ${ramp.steps.length} (${v.rolloutPercentage} %)`}
          {ramp.gate?.holding
            ? `, holds before step ${ramp.gate.holding.step + 1}: ${ramp.gate.holding.reason}`
            : ramp.nextStepAt
              ? `, next step ${when(ramp.nextStepAt)}`
              : paused
                ? ', stopped while paused'
                : ', complete'}
          .
        </li>
      ) : null}
      {paused ? (
        <li>
          Paused{paused.automatic ? ' by its health reports' : ''} on {when(paused.at)}: {paused.reason}
        </li>
      ) : null}
      {pulled ? (
        <li>
          Pulled on {when(pulled.at)}: {pulled.reason}. Devices on it are offered the previous good version.
        </li>
      ) : null}
      {health.reports > 0 ? (
        <li>
          Health: {health.failed} of {health.reports} devices failed, from {health.failedAddresses} of the{' '}
          {health.policy.minAddresses} addresses needed (pauses above {Math.round(health.policy.maxFailureRatio * 100)}{' '}
          % once {health.policy.minReports} reports count).
        </li>
      ) : null}
    </ul>
  )
}

/** `canEdit: false` leaves out the changes the API would refuse this user (the console reads /v1/whoami). */
export function VersionList({
  app,
  versions,
  run,
  api,
  canEdit = true,
}: {
  app: App
  versions: Version[] | undefined
  run: Run
  api?: SandboxApi
  canEdit?: boolean
}) {
  return (
    <div className="ferry-versions">
      <h3>
        Versions of {app.name} {app.private ? <span className="ferry-tag">private</span> : null}
      </h3>
      {versions === undefined ? (
        <p role="status" className="ferry-demo-loading">
          Loading versions…
        </p>
      ) : versions.length === 0 ? (
        <p>No versions yet: upload one below.</p>
      ) : null}
      <ul className="ferry-version-list">
        {(versions ?? []).map((v) => {
          const what = `${v.version} (${v.channel}, ${v.platform}/${v.arch})`
          const edit = (done: string, patch: Parameters<SandboxApi['updateVersion']>[2]) =>
            run(done, (a) => a.updateVersion(app.slug, v.id, patch))
          return (
            <li key={v.id} className="ferry-version" aria-label={`Version ${what}`}>
              <div className="ferry-version-head">
                <strong>{v.version}</strong>
                <span>
                  {v.channel} · {v.platform}/{v.arch}
                </span>
                <span className={v.published ? 'ferry-tag ferry-tag-ok' : 'ferry-tag'}>
                  {v.published ? 'published' : 'draft'}
                </span>
                {v.critical ? <span className="ferry-tag ferry-tag-warn">critical</span> : null}
                {v.intermediate ? <span className="ferry-tag">intermediate</span> : null}
                {v.rolloutPercentage < 100 || v.rollout.ramp ? (
                  <span className="ferry-tag">rollout {v.rolloutPercentage} %</span>
                ) : null}
                {v.rollout.paused ? <span className="ferry-tag ferry-tag-warn">paused</span> : null}
                {v.rollout.pulled ? <span className="ferry-tag ferry-tag-warn">pulled</span> : null}
              </div>
              <RolloutStatus version={v} />
              {v.changelog ? (
                <div className="ferry-version-changelog">
                  <MarkdownPreview source={v.changelog} />
                </div>
              ) : null}
              <ul className="ferry-artifacts">
                {v.artifacts.map((f) => (
                  <li key={f.id}>
                    <code>{f.fileName}</code> <span>{f.packageType}</span> <span>{formatSize(f.size)}</span>{' '}
                    <button
                      type="button"
                      className="ferry-link-btn"
                      disabled={!api}
                      onClick={() => api && void saveArtifact(api, f.downloadUrl, f.fileName)}
                    >
                      Download<span className="ferry-sr-only"> {f.fileName}</span>
                    </button>
                  </li>
                ))}
              </ul>
              {canEdit ? (
                <div className="ferry-version-actions">
                  <button
                    type="button"
                    className="ferry-btn"
                    onClick={() =>
                      edit(`${v.published ? 'Unpublished' : 'Published'} ${what}.`, { published: !v.published })
                    }
                  >
                    {v.published ? 'Unpublish' : 'Publish'}
                    <span className="ferry-sr-only"> {what}</span>
                  </button>
                  <button
                    type="button"
                    className="ferry-btn"
                    onClick={() =>
                      edit(`${v.critical ? 'Unmarked' : 'Marked'} ${what} as critical.`, { critical: !v.critical })
                    }
                  >
                    {v.critical ? 'Unmark critical' : 'Mark critical'}
                    <span className="ferry-sr-only"> {what}</span>
                  </button>
                  <button
                    type="button"
                    className="ferry-btn"
                    onClick={() =>
                      edit(`${v.intermediate ? 'Unmarked' : 'Marked'} ${what} as intermediate.`, {
                        intermediate: !v.intermediate,
                      })
                    }
                  >
                    {v.intermediate ? 'Unmark intermediate' : 'Mark intermediate'}
                    <span className="ferry-sr-only"> {what}</span>
                  </button>
                  {v.rollout.paused || v.rollout.pulled ? (
                    <button
                      type="button"
                      className="ferry-btn"
                      onClick={() => run(`Resumed ${what}.`, (a) => a.resumeVersion(app.slug, v.id))}
                    >
                      Resume<span className="ferry-sr-only"> {what}</span>
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="ferry-btn"
                      onClick={() => run(`Paused ${what}.`, (a) => a.pauseVersion(app.slug, v.id))}
                    >
                      Pause<span className="ferry-sr-only"> {what}</span>
                    </button>
                  )}
                  {!v.rollout.ramp && v.published ? (
                    <button
                      type="button"
                      className="ferry-btn"
                      onClick={() =>
                        edit(`Started a ramp for ${what}: 1 % now, then 10 %, 50 % and 100 % an hour apart.`, {
                          ramp: { steps: DEMO_RAMP },
                        })
                      }
                    >
                      Start ramp<span className="ferry-sr-only"> {what}</span>
                    </button>
                  ) : null}
                  {v.rollout.pulled ? null : (
                    <button
                      type="button"
                      className="ferry-btn ferry-btn-danger"
                      onClick={() =>
                        run(`Pulled ${what}: its devices are offered the previous good version.`, (a) =>
                          a.pullVersion(app.slug, v.id),
                        )
                      }
                    >
                      Pull<span className="ferry-sr-only"> {what}</span>
                    </button>
                  )}
                  <button
                    type="button"
                    className="ferry-btn ferry-btn-danger"
                    onClick={() => run(`Deleted ${what}.`, (a) => a.deleteVersion(app.slug, v.id))}
                  >
                    Delete<span className="ferry-sr-only"> {what}</span>
                  </button>
                </div>
              ) : null}
            </li>
          )
        })}
      </ul>
    </div>
  )
}
