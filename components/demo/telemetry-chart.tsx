import { useCallback, useEffect, useId, useState } from 'react'
import { DayChart } from './day-chart'
import type { SandboxApi } from './sandbox-api'

export const DAYS = 14
const DAY_MS = 86_400_000
/** Distinguishable in light and dark mode, with text contrast ≥ 3:1 against both backgrounds. */
export const COLORS = ['#2563eb', '#15803d', '#c2410c', '#9333ea', '#0e7490', '#b91c1c']

export interface DayTotals {
  day: string
  byVersion: Map<string, number>
  devices: number
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10)

/** The last `count` UTC days, oldest first, ending today. */
export const lastDays = (count = DAYS, today = new Date()) =>
  Array.from({ length: count }, (_, i) => isoDay(new Date(today.getTime() - (count - 1 - i) * DAY_MS)))

/** Versions oldest first (numeric order, so 1.10.0 follows 1.9.0). */
export const byVersionOrder = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true })

/** Devices per day and installed version, from the telemetry report's rows (summed over channel, platform, arch). */
export function byDay(rows: Array<{ day: string; version: string; devices: number }>, days: string[]): DayTotals[] {
  return days.map((day) => {
    const byVersion = new Map<string, number>()
    for (const row of rows)
      if (row.day === day) byVersion.set(row.version, (byVersion.get(row.version) ?? 0) + row.devices)
    return { day, byVersion, devices: [...byVersion.values()].reduce((a, b) => a + b, 0) }
  })
}

/** The sandbox's telemetry report for one app, charted: which versions installed copies ran, day by day. */
/** The numbers behind a devices-per-version chart: a day per row, a version per column. */
export function DevicesPerDayTable({
  versions,
  totals,
  total,
  className,
  caption,
}: {
  versions: string[]
  totals: DayTotals[]
  /** The last column's heading. */
  total: string
  className: string
  caption?: string
}) {
  return (
    <table className={className}>
      {caption ? <caption>{caption}</caption> : null}
      <thead>
        <tr>
          <th scope="col">Day</th>
          {versions.map((v) => (
            <th key={v} scope="col">
              {v}
            </th>
          ))}
          <th scope="col">{total}</th>
        </tr>
      </thead>
      <tbody>
        {totals.map((t) => (
          <tr key={t.day}>
            <th scope="row">{t.day}</th>
            {versions.map((v) => (
              <td key={v}>{t.byVersion.get(v) ?? 0}</td>
            ))}
            <td>{t.devices}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

export function TelemetryChart({ api, app }: { api: SandboxApi | undefined; app: string | undefined }) {
  const id = useId()
  const [totals, setTotals] = useState<DayTotals[]>()
  const [failed, setFailed] = useState<string>()
  const [tick, setTick] = useState(0)
  const refresh = useCallback(() => setTick((t) => t + 1), [])

  useEffect(() => {
    if (!api || !app) return
    let live = true
    const days = lastDays()
    api.telemetry({ from: days[0]!, to: days[DAYS - 1]!, app }).then(
      (report) => {
        if (live) {
          setTotals(byDay(report.items, days))
          setFailed(undefined)
        }
      },
      (e: unknown) => {
        if (live) setFailed(e instanceof Error ? e.message : String(e))
      },
    )
    return () => {
      live = false
    }
  }, [api, app, tick])

  const versions = [...new Set(totals?.flatMap((t) => [...t.byVersion.keys()]) ?? [])].sort(byVersionOrder)
  const last = totals?.[totals.length - 1]
  const summary = last
    ? `On ${last.day}, ${last.devices} device(s) checked for updates: ${[...last.byVersion].map(([v, n]) => `${n} on ${v}`).join(', ') || 'none'}.`
    : ''
  return (
    <section className="ferry-telemetry" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Telemetry: installed versions by day</h3>
      <p>
        Devices that checked <code>{app ?? '…'}</code> for updates with a device id, per day and running version, from{' '}
        <code>GET /v1/telemetry</code>. The seed replays two weeks of checks from twelve simulated installs; checks you
        send from the simulator with a device id count too.
      </p>
      <button type="button" className="ferry-btn" onClick={refresh} disabled={!api || !app}>
        Refresh telemetry
      </button>
      {failed ? <p role="alert">The telemetry report failed: {failed}</p> : null}
      {totals ? (
        <div className="ferry-telemetry-figure">
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
            <DevicesPerDayTable className="ferry-telemetry-table" versions={versions} totals={totals} total="Devices" />
          </details>
        </div>
      ) : !failed ? (
        <p role="status">Loading telemetry…</p>
      ) : null}
    </section>
  )
}
