import { useId, useState } from 'react'
import type { App, Version } from '../demo/sandbox-api'
import { MarkdownPreview } from '../demo/markdown-preview'
import { formatSize, releaseStatus, when } from '../demo/release-status'
import { StatusPill } from '../demo/version-list'
import styles from '../demo/releases.module.css'

import type { Run } from '../demo/use-ferry-data'

const label = (v: Version) => `${v.version} (${v.channel}, ${v.platform}/${v.arch})`

/** The app's unpublished versions: their release notes in Markdown with a preview, and publishing. */
export function DraftsView({
  app,
  versions,
  run,
  canEdit,
}: {
  app: App
  versions: Version[] | undefined
  run: Run
  canEdit: boolean
}) {
  const drafts = versions?.filter((v) => !v.published)
  return (
    <section aria-label={`Drafts of ${app.name}`} className="ferry-console-view">
      <p className="ferry-muted">
        A draft is never offered to devices. Write its release notes, check the preview, then publish it.
      </p>
      {drafts === undefined ? (
        <p role="status">Loading versions…</p>
      ) : drafts.length === 0 ? (
        <p>No drafts: every version of {app.name} is published.</p>
      ) : null}
      {drafts?.length ? (
        <ul className={styles.releases}>
          {drafts.map((v) => (
            <Draft key={v.id} app={app} version={v} run={run} canEdit={canEdit} />
          ))}
        </ul>
      ) : null}
    </section>
  )
}

function Draft({ app, version: v, run, canEdit }: { app: App; version: Version; run: Run; canEdit: boolean }) {
  const id = useId()
  const [notes, setNotes] = useState(v.changelog)
  const changed = notes !== v.changelog
  return (
    <li className={styles.release} aria-label={`Draft ${label(v)}`}>
      <div className={styles.releaseRow}>
        <div className={styles.releaseName}>
          <strong>{v.version}</strong>
          <span className={styles.target}>
            {v.channel} · {v.platform} · {v.arch}
          </span>
        </div>
        <div className={styles.pills}>
          <StatusPill status={releaseStatus(v)} />
          {v.critical ? <span className="ferry-tag ferry-tag-warn">critical</span> : null}
        </div>
        <span className={styles.size}>{formatSize(v.artifacts.reduce((sum, f) => sum + f.size, 0))}</span>
        <span className={styles.published}>
          uploaded <time dateTime={v.createdAt}>{when(v.createdAt)}</time>
        </span>
      </div>
      <div className="ferry-console-notes">
        <div>
          <label htmlFor={`${id}-notes`}>Release notes of {v.version} (Markdown)</label>
          <textarea
            id={`${id}-notes`}
            rows={6}
            value={notes}
            readOnly={!canEdit}
            onChange={(e) => setNotes(e.target.value)}
          />
        </div>
        <section aria-label={`Preview of the notes of ${v.version}`} className="ferry-console-preview">
          <MarkdownPreview source={notes} />
        </section>
      </div>
      {canEdit ? (
        <div className="ferry-version-actions">
          <button
            type="button"
            className="ferry-btn"
            disabled={!changed}
            onClick={() =>
              run(`Saved the notes of ${label(v)}.`, (api) => api.updateVersion(app.slug, v.id, { changelog: notes }))
            }
          >
            Save notes<span className="ferry-sr-only"> of {v.version}</span>
          </button>
          <button
            type="button"
            className="ferry-btn ferry-btn-primary"
            onClick={() =>
              run(`Published ${label(v)}.`, (api) =>
                api.updateVersion(
                  app.slug,
                  v.id,
                  changed ? { changelog: notes, published: true } : { published: true },
                ),
              )
            }
          >
            Publish<span className="ferry-sr-only"> {label(v)}</span>
          </button>
        </div>
      ) : null}
    </li>
  )
}
