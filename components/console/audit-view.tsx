import { useEffect, useId, useState, type FormEvent } from 'react'
import type { components } from '../../contract/generated/api.ts'
import type { Transport } from '../demo/sandbox-api'

/** One entry of GET /v1/audit, typed from the contract. */
export type AuditEntry = components['schemas']['AuditEntry']

interface Filters {
  app: string
  actor: string
  action: string
}

type State =
  | { state: 'loading' }
  | { state: 'absent' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; items: AuditEntry[]; nextCursor?: string | null }

const actorText = (a: AuditEntry['actor']) =>
  a.type === 'token'
    ? `token ${a.name}${a.createdBy ? ` (${a.createdBy.email})` : ''}`
    : a.type === 'system'
      ? 'Ferry'
      : (a.email ?? a.name)

/** "2 Dec 2026, 04:13": short enough to stay on one line on a phone. */
const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

const show = (v: unknown) => (v === undefined ? '' : JSON.stringify(v))

/** The team's audit log, filtered; hidden when the server has no /v1/audit (it answers 404). */
export function AuditView({ transport, token }: { transport: Transport; token: string }) {
  const id = useId()
  const [filters, setFilters] = useState<Filters>({ app: '', actor: '', action: '' })
  const [applied, setApplied] = useState<Filters>(filters)
  const [state, setState] = useState<State>({ state: 'loading' })
  useEffect(() => {
    let live = true
    const query = new URLSearchParams({ limit: '50' })
    for (const [k, v] of Object.entries(applied)) if (v) query.set(k, v)
    transport
      .fetch(new Request(`${transport.origin}/v1/audit?${query}`, { headers: { authorization: `Bearer ${token}` } }))
      .then(
        async (res) => {
          if (!live) return
          // Unfiltered, a 404 means the server has no audit log (an older Ferry): the view hides.
          if (res.status === 404 && !applied.app && !applied.actor && !applied.action)
            return setState({ state: 'absent' })
          const body: unknown = await res.json().catch(() => undefined)
          if (
            !res.ok ||
            typeof body !== 'object' ||
            body === null ||
            !('items' in body) ||
            !Array.isArray(body.items)
          ) {
            const title =
              typeof body === 'object' && body !== null && 'title' in body ? String(body.title) : res.statusText
            return setState({ state: 'failed', message: `${res.status} ${title}` })
          }
          const items: AuditEntry[] = body.items
          setState({
            state: 'ready',
            items,
            nextCursor: 'nextCursor' in body && typeof body.nextCursor === 'string' ? body.nextCursor : null,
          })
        },
        (e: unknown) => live && setState({ state: 'failed', message: e instanceof Error ? e.message : String(e) }),
      )
    return () => {
      live = false
    }
  }, [transport, token, applied])
  if (state.state === 'absent') return null
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setApplied(filters)
  }
  const field = (key: keyof Filters, label: string) => (
    <>
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        value={filters[key]}
        onChange={(e) => setFilters((f) => ({ ...f, [key]: e.target.value }))}
        autoComplete="off"
      />
    </>
  )
  return (
    <section aria-labelledby={`${id}-title`} className="ferry-console-audit">
      <h3 id={`${id}-title`}>Audit log</h3>
      <form className="ferry-form" onSubmit={submit} aria-label="Audit log filters">
        {field('app', 'App slug')}
        {field('actor', 'Actor id')}
        {field('action', 'Action starts with')}
        <button type="submit" className="ferry-btn">
          Filter
        </button>
      </form>
      {state.state === 'loading' ? <p role="status">Loading the audit log…</p> : null}
      {state.state === 'failed' ? <p role="alert">The audit log could not load: {state.message}</p> : null}
      {state.state === 'ready' ? (
        state.items.length ? (
          <div
            className="ferry-console-scroll"
            role="region"
            aria-label="Audit log entries, scrolls sideways"
            tabIndex={0}
          >
            <table>
              <caption className="ferry-sr-only">Audit log entries, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Changes</th>
                </tr>
              </thead>
              <tbody>
                {state.items.map((entry) => (
                  <tr key={entry.id}>
                    <td className="ferry-console-when">
                      <time dateTime={entry.at} title={new Date(entry.at).toLocaleString()}>
                        {when.format(new Date(entry.at))}
                      </time>
                    </td>
                    <td>{actorText(entry.actor)}</td>
                    <td>
                      <code>{entry.action}</code>
                    </td>
                    <td>
                      {entry.target.type} {entry.target.app ? `${entry.target.app}/` : ''}
                      {entry.target.id}
                    </td>
                    <td>
                      {Object.entries(entry.changes).map(([field, c]) => (
                        <div key={field}>
                          {field}: {show(c.from)} → {show(c.to)}
                        </div>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>No entries match.</p>
        )
      ) : null}
    </section>
  )
}
