import { useEffect, useId, useRef, useState } from 'react'
import { ConfirmDialog } from './confirm-dialog'
import { MarkdownPreview } from './markdown-preview'
import { formatSize, releaseName, releaseStatus, when, type ReleaseStatus } from './release-status'
import type { App, AuditEntry, SandboxApi, Version } from './sandbox-api'
import styles from './releases.module.css'

import type { Run } from './use-ferry-data'

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

/** The status pill; its tone is a colour and a word, never the colour alone. */
export function StatusPill({ status }: { status: ReleaseStatus }) {
  return <span className={`ferry-pill ${styles.pill} ${styles[status.tone] ?? ''}`}>{status.label}</span>
}

/** Where the version's ramp stands, why it is paused or pulled, and its health reports. */
function RolloutStatus({ version: v }: { version: Version }) {
  const { ramp, paused, pulled, health } = v.rollout
  if (!ramp && !paused && !pulled && health.reports === 0) return null
  return (
    <ul className={styles.facts} aria-label={`Rollout of ${v.version}`}>
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

interface Publisher {
  who: string
  at: string
}

const actorName = (a: AuditEntry['actor']) =>
  a.type === 'system' ? 'Ferry' : a.type === 'token' ? `token ${a.name}` : (a.email ?? a.name)

/**
 * Who published each version, from the audit log (the newest `version.publish`, or an upload
 * that published at once). A server without the log, or a user it refuses, shows only when.
 */
function usePublishers(api: SandboxApi | undefined, app: string, versions: Version[] | undefined) {
  const [by, setBy] = useState<Map<string, Publisher>>(new Map())
  const key = versions?.map((v) => `${v.id}:${v.publishedAt ?? ''}`).join() ?? ''
  useEffect(() => {
    if (!api || !key) return
    let live = true
    api.audit({ app, action: 'version.', limit: 100 }).then(
      (items) => {
        if (!live) return
        const found = new Map<string, Publisher>()
        for (const e of items) {
          const id = e.target.id
          const published =
            e.action === 'version.publish' ||
            (e.action === 'version.upload' && (e.changes.published?.to === true || e.changes.published?.to === 'true'))
          if (id && published && !found.has(id)) found.set(id, { who: actorName(e.actor), at: e.at })
        }
        setBy(found)
      },
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [api, app, key])
  return by
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
  const publishers = usePublishers(api, app.slug, versions)
  const [confirm, setConfirm] = useState<Confirmation>()
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
      <ul className={styles.releases}>
        {(versions ?? []).map((v) => (
          <ReleaseRow
            key={v.id}
            app={app}
            version={v}
            newest={isNewestPublished(v, versions ?? [])}
            publisher={publishers.get(v.id)}
            run={run}
            api={api}
            canEdit={canEdit}
            onConfirm={setConfirm}
          />
        ))}
      </ul>
      {confirm ? (
        <DestructiveConfirm
          app={app}
          confirmation={confirm}
          run={run}
          api={api}
          onClose={() => setConfirm(undefined)}
        />
      ) : null}
    </div>
  )
}

/** The newest published version of its target: unpublishing it changes what every device is offered. */
const isNewestPublished = (v: Version, all: Version[]) =>
  v.published &&
  !all.some(
    (o) =>
      o.id !== v.id &&
      o.published &&
      o.channel === v.channel &&
      o.platform === v.platform &&
      o.arch === v.arch &&
      (o.publishedAt ?? '') > (v.publishedAt ?? ''),
  )

/** `reason`: the pull's reason as typed so far (the rollout editor's). */
export type Confirmation = { kind: 'pull' | 'delete' | 'unpublish'; version: Version; reason?: string | undefined }

interface Action {
  label: string
  run: () => void
  danger?: boolean
}

function ReleaseRow({
  app,
  version: v,
  newest,
  publisher,
  run,
  api,
  canEdit,
  onConfirm,
}: {
  app: App
  version: Version
  newest: boolean
  publisher: Publisher | undefined
  run: Run
  api: SandboxApi | undefined
  canEdit: boolean
  onConfirm: (c: Confirmation) => void
}) {
  const what = releaseName(v)
  const status = releaseStatus(v)
  const edit = (done: string, patch: Parameters<SandboxApi['updateVersion']>[2]) =>
    void run(done, (a) => a.updateVersion(app.slug, v.id, patch))
  const actions: Record<string, Action> = {
    publish: { label: 'Publish', run: () => edit(`Published ${what}.`, { published: true }) },
    unpublish: {
      label: 'Unpublish',
      run: () =>
        newest ? onConfirm({ kind: 'unpublish', version: v }) : edit(`Unpublished ${what}.`, { published: false }),
    },
    pause: {
      label: 'Pause',
      run: () =>
        void run(`Paused ${what}.`, (a) => a.pauseVersion(app.slug, v.id), {
          done: `Resumed ${what}.`,
          action: (a) => a.resumeVersion(app.slug, v.id),
        }),
    },
    resume: { label: 'Resume', run: () => void run(`Resumed ${what}.`, (a) => a.resumeVersion(app.slug, v.id)) },
    ramp: {
      label: 'Start ramp',
      run: () =>
        edit(`Started a ramp for ${what}: 1 % now, then 10 %, 50 % and 100 % an hour apart.`, {
          ramp: { steps: DEMO_RAMP },
        }),
    },
    critical: {
      label: v.critical ? 'Unmark critical' : 'Mark critical',
      run: () => edit(`${v.critical ? 'Unmarked' : 'Marked'} ${what} as critical.`, { critical: !v.critical }),
    },
    intermediate: {
      label: v.intermediate ? 'Unmark intermediate' : 'Mark intermediate',
      run: () =>
        edit(`${v.intermediate ? 'Unmarked' : 'Marked'} ${what} as intermediate.`, { intermediate: !v.intermediate }),
    },
    pull: { label: 'Pull…', run: () => onConfirm({ kind: 'pull', version: v }), danger: true },
    delete: { label: 'Delete…', run: () => onConfirm({ kind: 'delete', version: v }), danger: true },
  }
  // One primary action per state: what a release manager does next with a release in it.
  const primary = {
    draft: 'publish',
    published: 'pause',
    ramping: 'pause',
    holding: 'pause',
    paused: 'resume',
    pulled: 'resume',
  }[status.state]
  const rest = [
    v.published ? 'unpublish' : 'publish',
    v.rollout.paused || v.rollout.pulled ? 'resume' : 'pause',
    ...(v.published && !v.rollout.ramp && !v.rollout.pulled ? ['ramp'] : []),
    'critical',
    'intermediate',
    ...(v.rollout.pulled ? [] : ['pull']),
    'delete',
  ].filter((k) => k !== primary)
  const size = v.artifacts.reduce((sum, f) => sum + f.size, 0)
  const shownAt = publisher?.at ?? v.publishedAt
  const main = actions[primary]
  return (
    <li className={styles.release} aria-label={`Version ${what}`}>
      <div className={styles.releaseRow}>
        <div className={styles.releaseName}>
          <strong>{v.version}</strong>
          <span className={styles.target}>
            {v.channel} · {v.platform} · {v.arch}
          </span>
        </div>
        <div className={styles.pills}>
          <StatusPill status={status} />
          {v.critical ? <span className="ferry-tag ferry-tag-warn">critical</span> : null}
          {v.intermediate ? <span className="ferry-tag">intermediate</span> : null}
        </div>
        <span className={styles.size}>{formatSize(size)}</span>
        <span className={styles.published}>
          {shownAt ? (
            <>
              {publisher ? `${publisher.who}, ` : 'published '}
              <time dateTime={shownAt}>{when(shownAt)}</time>
            </>
          ) : (
            <>
              uploaded <time dateTime={v.createdAt}>{when(v.createdAt)}</time>
            </>
          )}
        </span>
        {canEdit && main ? (
          <div className={styles.rowActions}>
            <button type="button" className="ferry-btn ferry-btn-primary" onClick={main.run}>
              {main.label}
              <span className="ferry-sr-only"> {what}</span>
            </button>
            <ActionsMenu what={what} actions={rest.map((k) => actions[k]).filter((a): a is Action => !!a)} />
          </div>
        ) : null}
      </div>
      <RolloutStatus version={v} />
      <details className={styles.details}>
        <summary>
          Notes and {v.artifacts.length} file{v.artifacts.length === 1 ? '' : 's'}
          <span className="ferry-sr-only"> of {what}</span>
        </summary>
        {v.changelog ? (
          <div className="ferry-version-changelog">
            <MarkdownPreview source={v.changelog} />
          </div>
        ) : (
          <p className="ferry-muted">No release notes.</p>
        )}
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
      </details>
    </li>
  )
}

/** The release's other actions behind one button (a disclosure: Escape or a click elsewhere closes it). */
function ActionsMenu({ what, actions }: { what: string; actions: Action[] }) {
  const id = useId()
  const [open, setOpen] = useState(false)
  const box = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (!open) return
    const away = (e: PointerEvent) => {
      if (e.target instanceof Node && !box.current?.contains(e.target)) setOpen(false)
    }
    document.addEventListener('pointerdown', away)
    return () => document.removeEventListener('pointerdown', away)
  }, [open])
  return (
    <div
      ref={box}
      className={styles.menu}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          setOpen(false)
          button.current?.focus()
        }
      }}
    >
      <button
        ref={button}
        type="button"
        className="ferry-btn"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        More<span className="ferry-sr-only"> actions for {what}</span>
        <span aria-hidden="true"> ▾</span>
      </button>
      {open ? (
        <ul id={id} className={styles.menuList} aria-label={`Actions for ${what}`}>
          {actions.map((a) => (
            <li key={a.label}>
              <button
                type="button"
                className={a.danger ? styles.menuDanger : undefined}
                onClick={() => {
                  setOpen(false)
                  a.run()
                }}
              >
                {a.label}
                <span className="ferry-sr-only"> {what}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

/** Devices that ran the version on its latest day with activity, where the server counts them. */
function useDevicesOn(api: SandboxApi | undefined, app: string, version: string) {
  const [devices, setDevices] = useState<{ day: string; running: number }>()
  useEffect(() => {
    if (!api) return
    let live = true
    api.adoption(app, version).then(
      (a) => {
        const last = a.days[a.days.length - 1]
        if (live && last) setDevices({ day: last.day, running: last.running })
      },
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [api, app, version])
  return devices
}

/** Pull, delete, or unpublish the newest: the version typed to confirm, and what it does to devices. */
export function DestructiveConfirm({
  app,
  confirmation: { kind, version: v, reason },
  run,
  api,
  onClose,
}: {
  app: App
  confirmation: Confirmation
  run: Run
  api: SandboxApi | undefined
  onClose: () => void
}) {
  const what = releaseName(v)
  const devices = useDevicesOn(api, app.slug, v.id)
  const reach = devices
    ? `${devices.running} device${devices.running === 1 ? '' : 's'} ran ${v.version} on ${devices.day}.`
    : ''
  const files = `${v.artifacts.length} file${v.artifacts.length === 1 ? '' : 's'}`
  if (kind === 'pull')
    return (
      <ConfirmDialog
        title={`Pull ${what}?`}
        damage={
          <p>
            No device is offered {v.version} any more, and devices on it are offered the previous good version. {reach}{' '}
            Resume undoes it.
          </p>
        }
        typed={v.version}
        action="Pull version"
        reason={reason ?? ''}
        onConfirm={(reason) =>
          run(`Pulled ${what}: its devices are offered the previous good version.`, (a) =>
            a.pullVersion(app.slug, v.id, reason),
          )
        }
        onClose={onClose}
      />
    )
  if (kind === 'unpublish')
    return (
      <ConfirmDialog
        title={`Unpublish ${what}?`}
        damage={
          <p>
            It is the newest published version of {v.channel} · {v.platform} · {v.arch}: devices are offered the one
            before it instead. {reach}
          </p>
        }
        typed={v.version}
        action="Unpublish version"
        onConfirm={() => run(`Unpublished ${what}.`, (a) => a.updateVersion(app.slug, v.id, { published: false }))}
        onClose={onClose}
      />
    )
  return (
    <ConfirmDialog
      title={`Delete ${what}?`}
      damage={
        <p>
          Deletes the version and its {files} for good; it cannot be undone. {reach}
        </p>
      }
      typed={v.version}
      action="Delete version"
      onConfirm={() => run(`Deleted ${what}.`, (a) => a.deleteVersion(app.slug, v.id))}
      onClose={onClose}
    />
  )
}
