import { useId, useState, type FormEvent } from 'react'
import { loadedOr, useLoad } from '../demo/use-load'
import type { FerryApi, Permissions, TeamUser } from '../demo/sandbox-api'
import { APP_ACTIONS, CATALOG_ACTIONS, grantText } from './permissions'

type Run = (done: string, action: (api: FerryApi) => Promise<unknown>) => Promise<boolean>

const AREAS = [
  ['channels', 'Channels'],
  ['platforms', 'Platforms'],
  ['archs', 'Architectures'],
] as const

/** The team's users and what each may do, as a table; an admin changes a user's app grants. */
export function TeamPanel({ api, run, generation }: { api: FerryApi; run: Run; generation: number }) {
  const id = useId()
  const users = loadedOr(
    useLoad(() => api.listTeamUsers(), [api, generation]),
    [],
  )
  const [editing, setEditing] = useState<string>()
  return (
    <section aria-labelledby={`${id}-title`} className="ferry-console-team">
      <h3 id={`${id}-title`}>Team users</h3>
      {!users ? (
        <p role="status">Loading the team…</p>
      ) : (
        <div
          className="ferry-console-scroll"
          role="region"
          aria-label="Team permissions, scrolls sideways"
          tabIndex={0}
        >
          <table className="ferry-console-table">
            <caption className="ferry-sr-only">Each team user&apos;s permissions</caption>
            <thead>
              <tr>
                <th scope="col">User</th>
                {APP_ACTIONS.map((a) => (
                  <th scope="col" key={a}>
                    Apps: {a}
                  </th>
                ))}
                {AREAS.map(([, label]) => (
                  <th scope="col" key={label}>
                    {label}: create/edit/delete
                  </th>
                ))}
                <th scope="col">
                  <span className="ferry-sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id}>
                  <th scope="row">
                    {u.email}
                    {u.role === 'admin' ? ' (admin: everything)' : ''}
                  </th>
                  {APP_ACTIONS.map((a) => (
                    <td key={a}>{u.role === 'admin' ? 'all apps' : grantText(u.permissions, 'apps', a)}</td>
                  ))}
                  {AREAS.map(([area, label]) => (
                    <td key={label}>
                      {u.role === 'admin'
                        ? 'all'
                        : CATALOG_ACTIONS.map((a) => grantText(u.permissions, area, a)).join(' / ')}
                    </td>
                  ))}
                  <td>
                    {u.role === 'admin' ? null : (
                      <button
                        type="button"
                        className="ferry-btn"
                        onClick={() => setEditing(editing === u.id ? undefined : u.id)}
                        aria-expanded={editing === u.id}
                      >
                        Edit grants<span className="ferry-sr-only"> of {u.email}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {users
        ?.filter((u) => u.id === editing)
        .map((u) => (
          <GrantsForm key={u.id} user={u} run={run} onDone={() => setEditing(undefined)} />
        ))}
    </section>
  )
}

/** One user's app grants: each action on, for all apps or the listed slugs. */
function GrantsForm({ user, run, onDone }: { user: TeamUser; run: Run; onDone: () => void }) {
  const id = useId()
  const initial = Object.fromEntries(
    APP_ACTIONS.map((a) => {
      const g = user.permissions.apps?.[a]
      return [a, { enabled: g?.enabled ?? false, allowed: g?.allowed?.join(', ') ?? '' }]
    }),
  )
  const [grants, setGrants] = useState(initial)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const apps: NonNullable<Permissions['apps']> = {}
    for (const a of APP_ACTIONS) {
      const g = grants[a] ?? { enabled: false, allowed: '' }
      const allowed = g.allowed
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
      apps[a] = { enabled: g.enabled, ...(allowed.length ? { allowed } : {}) }
    }
    if (
      await run(`Changed the grants of ${user.email}.`, (api) =>
        api.updateTeamUser(user.id, { permissions: { ...user.permissions, apps } }),
      )
    )
      onDone()
  }
  return (
    <form className="ferry-form" onSubmit={submit} aria-label={`Grants of ${user.email}`}>
      <h4>Grants of {user.email}</h4>
      {APP_ACTIONS.map((a) => {
        const g = grants[a] ?? { enabled: false, allowed: '' }
        const set = (next: Partial<typeof g>) => setGrants((all) => ({ ...all, [a]: { ...g, ...next } }))
        return (
          <div key={a} className="ferry-form-row">
            <label className="ferry-check">
              <input type="checkbox" checked={g.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> May {a}{' '}
              apps
            </label>
            <div>
              <label htmlFor={`${id}-${a}`}>Only these apps ({a}; comma-separated slugs, empty: all)</label>
              <input
                id={`${id}-${a}`}
                value={g.allowed}
                onChange={(e) => set({ allowed: e.target.value })}
                autoComplete="off"
              />
            </div>
          </div>
        )
      })}
      <button type="submit" className="ferry-btn ferry-btn-primary">
        Save grants
      </button>
    </form>
  )
}
