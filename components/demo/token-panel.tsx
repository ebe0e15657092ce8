import { useId, useState, type FormEvent } from 'react'
import { CopyButton } from './copy-button'
import { ProblemView } from './problem-view'
import { asProblem } from './use-ferry-data'
import { loadedOr, useLoad } from './use-load'
import type { Problem, SandboxApi } from './sandbox-api'

type Run = (done: string, action: (api: SandboxApi) => Promise<unknown>) => Promise<boolean>

/** What a token made here may do: release the selected app (the usual CI token), or only read. */
const SCOPES = {
  release: {
    label: 'Upload, edit and download versions of the selected app',
    grants: ['upload', 'edit', 'download'] as const,
  },
  download: { label: 'Download the selected app only', grants: ['download'] as const },
}
type Scope = keyof typeof SCOPES

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : 'never')

/**
 * API tokens for CI: the team's tokens (never their secrets), a form that creates one for the
 * selected app and shows its secret once, and revocation. The same operations as
 * `/v1/team/tokens` on a real server.
 */
export function TokenPanel({
  api,
  app,
  run,
  generation,
}: {
  api?: SandboxApi
  app?: string
  run: Run
  generation: number
}) {
  const id = useId()
  const tokens = loadedOr(useLoad(api && (() => api.listTokens()), [api, generation]), []) ?? []
  const [name, setName] = useState('ci-release')
  const [scope, setScope] = useState<Scope>('release')
  const [secret, setSecret] = useState<{ name: string; token: string }>()
  // The API's refusal, shown at the form (a duplicate name), so it never looks as if it worked.
  const [problem, setProblem] = useState<Problem>()

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!app) return
    const grant = { enabled: true, allowed: [app] }
    const apps = Object.fromEntries(SCOPES[scope].grants.map((g) => [g, grant]))
    let created: { name: string; token: string } | undefined
    setProblem(undefined)
    const ok = await run(`Created token ${name}.`, async (a) => {
      try {
        const t = await a.createToken({ name, permissions: { apps } })
        created = { name: t.name, token: t.token }
      } catch (error) {
        setProblem(asProblem(error))
        throw error
      }
    })
    setSecret(ok ? created : undefined)
  }

  return (
    <section className="ferry-form ferry-tokens" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>API tokens</h3>
      <p>
        For release pipelines: a token acts with the grants it lists, never more than its creator holds, until revoked.
      </p>
      {tokens.length ? (
        <table className="ferry-token-table">
          <caption className="ferry-sr-only">API tokens of the team</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="ferry-sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td>
                <td>{day(t.createdAt)}</td>
                <td>{day(t.lastUsedAt)}</td>
                <td>{t.expiresAt ? day(t.expiresAt) : 'when revoked'}</td>
                <td>
                  <button
                    type="button"
                    className="ferry-btn ferry-btn-danger"
                    onClick={() => run(`Revoked token ${t.name}.`, (a) => a.revokeToken(t.id))}
                  >
                    Revoke <span className="ferry-sr-only">{t.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>No tokens yet.</p>
      )}
      {secret ? (
        <div className="ferry-token-secret" role="status">
          <p>
            Token <strong>{secret.name}</strong>; copy it now, it is not shown again:
          </p>
          <code>{secret.token}</code>
          <CopyButton text={secret.token} label={`the token ${secret.name}`} />
        </div>
      ) : null}
      {app ? (
        <form onSubmit={submit} aria-labelledby={`${id}-create`}>
          <h4 id={`${id}-create`}>Create a token for {app}</h4>
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="off"
            aria-invalid={problem?.status === 409 ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
          />
          <fieldset>
            <legend>It may</legend>
            {(Object.keys(SCOPES) as Scope[]).map((key) => (
              <label key={key} className="ferry-check">
                <input type="radio" name={`${id}-scope`} checked={scope === key} onChange={() => setScope(key)} />{' '}
                {SCOPES[key].label}
              </label>
            ))}
          </fieldset>
          <button type="submit" className="ferry-btn ferry-btn-primary">
            Create token
          </button>
          {problem ? (
            <div id={`${id}-problem`}>
              <ProblemView problem={problem} />
            </div>
          ) : null}
        </form>
      ) : null}
    </section>
  )
}
