import { useEffect, useId, useState } from 'react'
import { asProblem } from '../demo/use-ferry-data'
import { AdoptionChart } from './adoption-chart'
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
 * The app's devices per version over two weeks (a stacked area chart), then how far one version
 * spread, per day (GET …/versions/{version}/adoption): offered, downloaded, installed or failed.
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
  if (!v)
    return (
      <section aria-labelledby={`${id}-title`} className="ferry-console-view">
        <h2 id={`${id}-title`}>Adoption of {app.name}</h2>
        <AdoptionChart api={api} app={app.slug} />
        <p>No versions of {app.name} yet: upload one under Releases.</p>
      </section>
    )
  const days = state.state === 'ready' ? state.adoption.days : []
  const totals = SERIES.map(([key]) => days.reduce((sum, d) => sum + d[key], 0))
  return (
    <section aria-labelledby={`${id}-title`} className="ferry-console-view">
      <h2 id={`${id}-title`}>Adoption of {app.name}</h2>
      <AdoptionChart api={api} app={app.slug} />
      <h3>One version, day by day</h3>
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
              : `no activity yet: nobody was offered ${v.version} in these days`}
            .
          </p>
          {days.length ? (
            <>
              <Funnel series={SERIES.slice(0, 4).map(([, name], i) => [name, totals[i] ?? 0])} />
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

/** Offered → downloads → installs and failures over the period, as bars against the largest. */
function Funnel({ series }: { series: Array<[string, number]> }) {
  const most = Math.max(1, ...series.map(([, n]) => n))
  return (
    <dl className="ferry-adoption-funnel">
      {series.map(([name, n]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>
            <span className="ferry-adoption-funnel-bar" style={{ width: `${(n / most) * 100}%` }} aria-hidden="true" />
            <span>{n}</span>
          </dd>
        </div>
      ))}
    </dl>
  )
}
