import { useEffect, useId, useState } from 'react'
import { asProblem } from '../demo/use-ferry-data'
import type { App, FerryApi, Problem, Version, VersionAdoption } from '../demo/sandbox-api'

const SERIES = [
  ['offered', 'Offered'],
  ['downloads', 'Downloads'],
  ['installed', 'Installs'],
  ['failed', 'Failures'],
  ['running', 'Running'],
] as const

type State =
  { state: 'loading' } | { state: 'failed'; problem: Problem } | { state: 'ready'; adoption: VersionAdoption }

/**
 * How far a version spread, per day (GET …/versions/{version}/adoption): a table, the figures'
 * accessible form, and beside it bars of the devices running it, drawn in CSS (no chart library).
 */
export function AdoptionView({ api, app, versions }: { api: FerryApi; app: App; versions: Version[] }) {
  const id = useId()
  const [versionId, setVersionId] = useState('')
  const v = versions.find((x) => x.id === versionId) ?? versions.find((x) => x.published) ?? versions[0]
  const [state, setState] = useState<State>({ state: 'loading' })
  useEffect(() => {
    if (!v) return
    let live = true
    setState({ state: 'loading' })
    api.adoption(app.slug, v.id).then(
      (adoption) => live && setState({ state: 'ready', adoption }),
      (e: unknown) => live && setState({ state: 'failed', problem: asProblem(e) }),
    )
    return () => {
      live = false
    }
  }, [api, app.slug, v])
  if (!v) return <p>No versions of {app.name} yet.</p>
  const days = state.state === 'ready' ? state.adoption.days : []
  const most = Math.max(1, ...days.map((d) => d.running))
  const totals = SERIES.map(([key]) => days.reduce((sum, d) => sum + d[key], 0))
  return (
    <section aria-labelledby={`${id}-title`} className="ferry-console-view">
      <h2 id={`${id}-title`}>Adoption of {app.name}</h2>
      <label htmlFor={`${id}-version`}>Version</label>
      <select id={`${id}-version`} value={v.id} onChange={(e) => setVersionId(e.target.value)}>
        {versions.map((x) => (
          <option key={x.id} value={x.id}>
            {x.version} ({x.channel}, {x.platform}/{x.arch}){x.published ? '' : ' draft'}
          </option>
        ))}
      </select>
      {state.state === 'loading' ? <p role="status">Loading adoption…</p> : null}
      {state.state === 'failed' ? (
        <p role="alert">
          Adoption could not be read: {state.problem.status} {state.problem.title}
          {state.problem.detail ? `: ${state.problem.detail}` : ''}
        </p>
      ) : null}
      {state.state === 'ready' ? (
        <>
          <p>
            {state.adoption.from} to {state.adoption.to} (UTC days):{' '}
            {days.length
              ? SERIES.map(([, name], i) => `${name.toLowerCase()} ${totals[i]}`).join(', ')
              : 'no activity yet'}
            .
          </p>
          {days.length ? (
            <>
              <ol className="ferry-console-bars" aria-hidden="true">
                {days.map((d) => (
                  <li key={d.day} title={`${d.day}: ${d.running} running`}>
                    <span style={{ height: `${Math.round((d.running / most) * 100)}%` }} />
                  </li>
                ))}
              </ol>
              <div
                className="ferry-console-scroll"
                role="region"
                aria-label={`Adoption of ${v.version} per day, scrolls sideways`}
                tabIndex={0}
              >
                <table className="ferry-console-table">
                  <caption>Adoption of {v.version} per day</caption>
                  <thead>
                    <tr>
                      <th scope="col">Day</th>
                      {SERIES.map(([key, name]) => (
                        <th key={key} scope="col">
                          {name}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {days.map((d) => (
                      <tr key={d.day}>
                        <th scope="row">{d.day}</th>
                        {SERIES.map(([key]) => (
                          <td key={key}>{d[key]}</td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          ) : null}
        </>
      ) : null}
    </section>
  )
}
