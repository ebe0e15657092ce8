import { useEffect, useId, useState } from 'react'
import type { FerryApi, Problem } from '../demo/sandbox-api'
import { byDay, byVersionOrder, COLORS, DevicesPerDayTable, lastDays, type DayTotals } from '../demo/telemetry-chart'
import { asProblem } from '../demo/use-ferry-data'

type State = { state: 'loading' } | { state: 'failed'; problem: Problem } | { state: 'ready'; totals: DayTotals[] }

const W = 640
const H = 200
const PAD = { left: 36, right: 24, top: 10, bottom: 24 }

/**
 * Devices per version per day over two weeks (GET /v1/telemetry) as a stacked area chart: the
 * oldest version at the bottom, a day's numbers on hover, and the same numbers in a table.
 */
export function AdoptionChart({ api, app }: { api: FerryApi; app: string }) {
  const id = useId()
  const [state, setState] = useState<State>({ state: 'loading' })
  useEffect(() => {
    let live = true
    const days = lastDays()
    api.telemetry({ from: days[0]!, to: days[days.length - 1]!, app }).then(
      (report) => live && setState({ state: 'ready', totals: byDay(report.items, days) }),
      (e: unknown) => live && setState({ state: 'failed', problem: asProblem(e) }),
    )
    return () => {
      live = false
    }
  }, [api, app])
  const title = <h3 id={`${id}-title`}>Devices per version, last 14 days</h3>
  if (state.state === 'loading')
    return (
      <section aria-labelledby={`${id}-title`} className="ferry-adoption-chart">
        {title}
        <p role="status">Loading devices per version…</p>
      </section>
    )
  if (state.state === 'failed')
    return (
      <section aria-labelledby={`${id}-title`} className="ferry-adoption-chart">
        {title}
        <p role="alert">
          Devices per version could not be read: {state.problem.status} {state.problem.title}
          {state.problem.detail ? `: ${state.problem.detail}` : ''}
        </p>
      </section>
    )
  const totals = state.totals
  const versions = [...new Set(totals.flatMap((t) => [...t.byVersion.keys()]))].sort(byVersionOrder)
  if (versions.length === 0)
    return (
      <section aria-labelledby={`${id}-title`} className="ferry-adoption-chart">
        {title}
        <p className="ferry-adoption-empty">
          No device has reported in the last 14 days. Devices count here once their update checks send an{' '}
          <code>X-Ferry-Device-Id</code> header (the updaters' guide shows how).
        </p>
      </section>
    )
  const max = Math.max(1, ...totals.map((t) => t.devices))
  const plotW = W - PAD.left - PAD.right
  const plotH = H - PAD.top - PAD.bottom
  const x = (i: number) => PAD.left + (totals.length === 1 ? plotW / 2 : (i / (totals.length - 1)) * plotW)
  const y = (n: number) => PAD.top + plotH - (n / max) * plotH
  // Each version's band: its top edge left to right, then the band below's top edge back.
  const below = totals.map(() => 0)
  const bands = versions.map((v, k) => {
    const base = [...below]
    const top = totals.map((t, i) => (below[i] = base[i]! + (t.byVersion.get(v) ?? 0)))
    const d =
      top.map((n, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(n).toFixed(1)}`).join(' ') +
      ' ' +
      base
        .map((n, i) => [i, n] as const)
        .reverse()
        .map(([i, n]) => `L${x(i).toFixed(1)} ${y(n).toFixed(1)}`)
        .join(' ') +
      ' Z'
    return { v, d, color: COLORS[k % COLORS.length]! }
  })
  const last = totals[totals.length - 1]!
  const summary = `${last.day}: ${last.devices} device${last.devices === 1 ? '' : 's'}${
    last.devices ? ` (${versions.map((v) => `${last.byVersion.get(v) ?? 0} on ${v}`).join(', ')})` : ''
  }; at most ${max} on one day.`
  const step = (x(1) - x(0)) / 2 || plotW / 2
  return (
    <section aria-labelledby={`${id}-title`} className="ferry-adoption-chart">
      {title}
      <figure>
        <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title ${id}-summary`}>
          <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} className="ferry-adoption-axis-line" />
          <line x1={PAD.left} x2={W - PAD.right} y1={y(max)} y2={y(max)} className="ferry-adoption-grid" />
          <text x={PAD.left - 6} y={y(max) + 4} textAnchor="end" className="ferry-adoption-axis">
            {max}
          </text>
          <text x={PAD.left - 6} y={y(0) + 4} textAnchor="end" className="ferry-adoption-axis">
            0
          </text>
          {bands.map((b) => (
            <path key={b.v} d={b.d} fill={b.color} fillOpacity={0.75} stroke={b.color} strokeWidth={1.5} />
          ))}
          {totals.map((t, i) => (
            <g key={t.day}>
              {(totals.length - 1 - i) % 3 === 0 ? (
                <text x={x(i)} y={H - 6} textAnchor="middle" className="ferry-adoption-axis">
                  {t.day.slice(5)}
                </text>
              ) : null}
              <rect x={x(i) - step} y={PAD.top} width={step * 2} height={plotH} className="ferry-adoption-hover">
                <title>
                  {`${t.day}: ${t.devices} device${t.devices === 1 ? '' : 's'}${versions
                    .map((v) => `\n${v}: ${t.byVersion.get(v) ?? 0}`)
                    .join('')}`}
                </title>
              </rect>
            </g>
          ))}
        </svg>
        <figcaption id={`${id}-summary`}>{summary}</figcaption>
        <ul className="ferry-telemetry-legend" aria-label="Versions">
          {bands.map((b) => (
            <li key={b.v}>
              <svg width="12" height="12" aria-hidden="true">
                <rect width="12" height="12" rx="2" fill={b.color} />
              </svg>{' '}
              {b.v}
            </li>
          ))}
        </ul>
      </figure>
      <details>
        <summary>The numbers</summary>
        <div
          className="ferry-console-scroll"
          role="region"
          aria-label="Devices per version per day, scrolls sideways"
          tabIndex={0}
        >
          <DevicesPerDayTable
            className="ferry-console-table"
            caption="Devices per version per day"
            versions={versions}
            totals={totals}
            total="All"
          />
        </div>
      </details>
    </section>
  )
}
