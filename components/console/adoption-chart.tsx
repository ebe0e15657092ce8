import { useEffect, useId, useState } from 'react'
import type { FerryApi, Problem } from '../demo/sandbox-api'
import { byDay, byVersionOrder, COLORS, DevicesPerDayTable, lastDays, type DayTotals } from '../demo/telemetry-chart'
import { asProblem } from '../demo/use-ferry-data'
import { DayChart } from '../demo/day-chart'

type State = { state: 'loading' } | { state: 'failed'; problem: Problem } | { state: 'ready'; totals: DayTotals[] }

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
  const last = totals[totals.length - 1]!
  const summary = `${last.day}: ${last.devices} device${last.devices === 1 ? '' : 's'}${
    last.devices ? ` (${versions.map((v) => `${last.byVersion.get(v) ?? 0} on ${v}`).join(', ')})` : ''
  }; at most ${max} on one day.`
  return (
    <section aria-labelledby={`${id}-title`} className="ferry-adoption-chart">
      {title}
      <DayChart
        days={totals.map((t) => t.day)}
        series={versions.map((v, k) => ({
          name: v,
          values: totals.map((t) => t.byVersion.get(v) ?? 0),
          color: COLORS[k % COLORS.length]!,
        }))}
        labelledBy={`${id}-title`}
        summary={summary}
        legend="Versions"
      />
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
