import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import type { App, Catalogs, SandboxApi } from './sandbox-api'

type Run = (done: string, action: (api: SandboxApi) => Promise<unknown>) => Promise<boolean>

/** A select over one catalog (channels, platforms or archs), labelled. */
export function CatalogSelect({
  id,
  label,
  names,
  value,
  onChange,
}: {
  id: string
  label: string
  names: string[]
  value: string
  onChange: (v: string) => void
}) {
  useEffect(() => {
    if (names.length && !names.includes(value)) onChange(names[0] ?? '')
  }, [names, value, onChange])
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {names.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </>
  )
}

/** Uploads a version with files from the user's disk, as multipart/form-data (like any client). */
export function UploadForm({ app, catalogs, run }: { app: App; catalogs: Catalogs; run: Run }) {
  const id = useId()
  const files = useRef<HTMLInputElement>(null)
  const [version, setVersion] = useState('')
  const [channel, setChannel] = useState('stable')
  const [platform, setPlatform] = useState('windows')
  const [arch, setArch] = useState('x64')
  const [changelog, setChangelog] = useState('')
  const [published, setPublished] = useState(false)
  const [critical, setCritical] = useState(false)
  const [intermediate, setIntermediate] = useState(false)
  const [rollout, setRollout] = useState('100')
  const [sending, setSending] = useState<{ sent: number; total: number; started: number; cancel: AbortController }>()
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const form = new FormData()
    const fields = {
      version,
      channel,
      platform,
      arch,
      changelog,
      published: String(published),
      critical: String(critical),
      intermediate: String(intermediate),
      rolloutPercentage: rollout,
    }
    for (const [k, v] of Object.entries(fields)) form.set(k, v)
    for (const file of files.current?.files ?? []) form.append('files', file)
    const cancel = new AbortController()
    const started = Date.now()
    setSending({ sent: 0, total: 0, started, cancel })
    const onProgress = (sent: number, total: number) => setSending({ sent, total, started, cancel })
    const ok = await run(`Uploaded ${version} (${channel}, ${platform}/${arch}) to ${app.slug}.`, (api) =>
      api.uploadVersionWithProgress(app.slug, form, onProgress, cancel.signal),
    )
    setSending(undefined)
    if (ok) {
      setVersion('')
      setChangelog('')
      if (files.current) files.current.value = ''
    }
  }
  return (
    <form className="ferry-form ferry-upload" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`}>Upload a version of {app.name}</h4>
      <div className="ferry-form-row">
        <div>
          <label htmlFor={`${id}-version`}>Version</label>
          <input
            id={`${id}-version`}
            value={version}
            onChange={(e) => setVersion(e.target.value)}
            placeholder="1.4.0"
            autoComplete="off"
          />
        </div>
        <div>
          <CatalogSelect
            id={`${id}-channel`}
            label="Channel"
            names={catalogs.channels}
            value={channel}
            onChange={setChannel}
          />
        </div>
        <div>
          <CatalogSelect
            id={`${id}-platform`}
            label="Platform"
            names={catalogs.platforms}
            value={platform}
            onChange={setPlatform}
          />
        </div>
        <div>
          <CatalogSelect
            id={`${id}-arch`}
            label="Architecture"
            names={catalogs.archs}
            value={arch}
            onChange={setArch}
          />
        </div>
      </div>
      <label htmlFor={`${id}-files`}>Files (the package type comes from each file&apos;s extension)</label>
      <input id={`${id}-files`} ref={files} type="file" multiple />
      <label htmlFor={`${id}-changelog`}>Changelog (Markdown)</label>
      <textarea id={`${id}-changelog`} value={changelog} onChange={(e) => setChangelog(e.target.value)} rows={2} />
      <div className="ferry-form-row">
        <label className="ferry-check">
          <input type="checkbox" checked={published} onChange={(e) => setPublished(e.target.checked)} /> Publish now
        </label>
        <label className="ferry-check">
          <input type="checkbox" checked={critical} onChange={(e) => setCritical(e.target.checked)} /> Critical
        </label>
        <label className="ferry-check">
          <input type="checkbox" checked={intermediate} onChange={(e) => setIntermediate(e.target.checked)} />{' '}
          Intermediate
        </label>
        <div>
          <label htmlFor={`${id}-rollout`}>Rollout %</label>
          <input
            id={`${id}-rollout`}
            type="number"
            min={0}
            max={100}
            value={rollout}
            onChange={(e) => setRollout(e.target.value)}
          />
        </div>
      </div>
      <button type="submit" className="ferry-btn ferry-btn-primary" disabled={sending !== undefined}>
        Upload version
      </button>
      {sending ? <UploadStatus {...sending} /> : null}
    </form>
  )
}

const size = (bytes: number) =>
  bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(0)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`

/** The upload's progress bar: bytes sent, time left at the rate so far, and a way to cancel. */
function UploadStatus({
  sent,
  total,
  started,
  cancel,
}: {
  sent: number
  total: number
  started: number
  cancel: AbortController
}) {
  const elapsed = (Date.now() - started) / 1000
  const left = sent > 0 && total > sent ? Math.ceil(((total - sent) / sent) * elapsed) : undefined
  const text = !total
    ? 'Uploading…'
    : sent >= total
      ? `Sent ${size(total)}; the server is checking the files…`
      : `${size(sent)} of ${size(total)} sent${left !== undefined ? `, about ${left} s left` : ''}`
  return (
    <div className="ferry-upload-progress">
      <progress max={total || undefined} value={total ? sent : undefined} aria-label="Upload progress" />
      <span role="status">{text}</span>
      <button type="button" className="ferry-btn" onClick={() => cancel.abort()}>
        Cancel upload
      </button>
    </div>
  )
}
