import { CopyButton } from '../demo/copy-button'
import { useId, useState, type FormEvent } from 'react'
import { loadedOr, useLoad } from '../demo/use-load'
import type { FerryApi, Webhook, WebhookCreated, WebhookEventSelector } from '../demo/sandbox-api'
import { EVERY_EVENT, WEBHOOK_EVENT_TYPES } from '../../server/webhooks/event-types'

type Run = (done: string, action: (api: FerryApi) => Promise<unknown>) => Promise<boolean>

const EVENTS = WEBHOOK_EVENT_TYPES

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }) : '—'

/** The team's webhook subscriptions (admin only): create one (its secret shown once), disable, and each one's delivery log. */
export function WebhooksView({ api, run, generation }: { api: FerryApi; run: Run; generation: number }) {
  const id = useId()
  const hooks = loadedOr(
    useLoad(() => api.listWebhooks(), [api, generation]),
    [],
  )
  const [created, setCreated] = useState<WebhookCreated>()
  const [open, setOpen] = useState<string>()
  return (
    <section aria-labelledby={`${id}-title`} className="ferry-console-view">
      <h2 id={`${id}-title`}>Webhooks</h2>
      <CreateWebhookForm run={run} onCreated={setCreated} />
      {created ? (
        <div role="status" className="ferry-console-secret">
          <p>
            Signing secret of {created.url}, shown only this once: give it to your receiver&apos;s Standard Webhooks
            library.
          </p>
          <code>{created.secret}</code>
          <CopyButton text={created.secret} label={`the signing secret of ${created.url}`} />
        </div>
      ) : null}
      <h3>Subscriptions</h3>
      {hooks === undefined ? (
        <p role="status">Loading subscriptions…</p>
      ) : hooks.length === 0 ? (
        <p>No subscriptions yet.</p>
      ) : null}
      <ul className="ferry-version-list">
        {(hooks ?? []).map((h) => (
          <li key={h.id} className="ferry-version" aria-label={`Webhook ${h.url}`}>
            <div className="ferry-version-head">
              <strong className="ferry-console-break">{h.url}</strong>
              <span className={h.enabled ? 'ferry-tag ferry-tag-ok' : 'ferry-tag ferry-tag-warn'}>
                {h.enabled ? 'enabled' : 'disabled'}
              </span>
            </div>
            {h.description ? <p>{h.description}</p> : null}
            <p>
              Events: {h.events.includes(EVERY_EVENT) ? 'every event' : h.events.join(', ')}; apps:{' '}
              {h.apps ? h.apps.join(', ') : 'every app'}.
            </p>
            {h.disabledReason ? <p>Ferry disabled it: {h.disabledReason}</p> : null}
            <div className="ferry-version-actions">
              <button
                type="button"
                className="ferry-btn"
                onClick={() =>
                  run(`${h.enabled ? 'Disabled' : 'Enabled'} the webhook ${h.url}.`, (a) =>
                    a.updateWebhook(h.id, { enabled: !h.enabled }),
                  )
                }
              >
                {h.enabled ? 'Disable' : 'Enable'}
                <span className="ferry-sr-only"> {h.url}</span>
              </button>
              <button
                type="button"
                className="ferry-btn"
                onClick={() => run(`Sent a test event to ${h.url}.`, (a) => a.testWebhook(h.id))}
              >
                Send a test event<span className="ferry-sr-only"> to {h.url}</span>
              </button>
              <button
                type="button"
                className="ferry-btn"
                aria-expanded={open === h.id}
                onClick={() => setOpen(open === h.id ? undefined : h.id)}
              >
                Deliveries<span className="ferry-sr-only"> to {h.url}</span>
              </button>
            </div>
            {open === h.id ? <Deliveries api={api} hook={h} run={run} generation={generation} /> : null}
          </li>
        ))}
      </ul>
    </section>
  )
}

function CreateWebhookForm({ run, onCreated }: { run: Run; onCreated: (w: WebhookCreated) => void }) {
  const id = useId()
  const [url, setUrl] = useState('')
  const [description, setDescription] = useState('')
  const [events, setEvents] = useState<WebhookEventSelector[]>([
    'version.published',
    'version.paused',
    'version.pulled',
  ])
  const every = events.includes(EVERY_EVENT)
  const toggle = (ev: WebhookEventSelector, on: boolean) =>
    setEvents((all) => (on ? [...all, ev] : all.filter((x) => x !== ev)))
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    let made: WebhookCreated | undefined
    const ok = await run(`Created the webhook ${url}.`, async (api) => {
      made = await api.createWebhook({ url, description, events })
    })
    if (ok && made) {
      onCreated(made)
      setUrl('')
      setDescription('')
    }
  }
  return (
    <form className="ferry-form" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Create a webhook</h3>
      <label htmlFor={`${id}-url`}>Receiver URL</label>
      <input
        id={`${id}-url`}
        type="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        placeholder="https://hooks.example.org/ferry"
        autoComplete="off"
        required
      />
      <label htmlFor={`${id}-desc`}>Description</label>
      <input
        id={`${id}-desc`}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        autoComplete="off"
        maxLength={200}
      />
      <fieldset>
        <legend>Events</legend>
        <label className="ferry-check">
          <input type="checkbox" checked={every} onChange={(e) => setEvents(e.target.checked ? [EVERY_EVENT] : [])} />{' '}
          Every event, those added later too
        </label>
        {EVENTS.map((ev) => (
          <label key={ev} className="ferry-check">
            <input
              type="checkbox"
              checked={every || events.includes(ev)}
              disabled={every}
              onChange={(e) => toggle(ev, e.target.checked)}
            />{' '}
            {ev}
          </label>
        ))}
      </fieldset>
      <button type="submit" className="ferry-btn ferry-btn-primary" disabled={!events.length}>
        Create webhook
      </button>
    </form>
  )
}

function Deliveries({ api, hook, run, generation }: { api: FerryApi; hook: Webhook; run: Run; generation: number }) {
  const deliveries = useLoad(() => api.listDeliveries(hook.id), [api, hook.id, generation])
  if (deliveries.state === 'failed') return <p role="alert">The delivery log could not be read.</p>
  if (deliveries.state === 'loading') return <p role="status">Loading deliveries…</p>
  const items = deliveries.value
  if (!items.length) return <p>No deliveries yet.</p>
  return (
    <div
      className="ferry-console-scroll"
      role="region"
      aria-label={`Deliveries to ${hook.url}, scrolls sideways`}
      tabIndex={0}
    >
      <table className="ferry-console-table">
        <caption>Deliveries to {hook.url}, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last response</th>
            <th scope="col">Last attempt</th>
            <th scope="col">Next attempt</th>
            <th scope="col">
              <span className="ferry-sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((d) => (
            <tr key={d.id}>
              <th scope="row">{d.event}</th>
              <td>{d.status}</td>
              <td>{d.attempts}</td>
              <td>{d.error ?? d.responseStatus ?? '—'}</td>
              <td>{when(d.lastAttemptAt)}</td>
              <td>{when(d.nextAttemptAt)}</td>
              <td>
                <button
                  type="button"
                  className="ferry-btn"
                  onClick={() => run(`Queued ${d.event} for ${hook.url} again.`, (a) => a.redeliver(hook.id, d.id))}
                >
                  Redeliver
                  <span className="ferry-sr-only">
                    {' '}
                    {d.event} of {when(d.createdAt)}
                  </span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
