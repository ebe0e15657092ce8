import { useEffect, useId, useState } from 'react'
import { DayChart } from '../demo/day-chart'
import type { FerryApi, Problem, Version } from '../demo/sandbox-api'
import { lastDays } from '../demo/telemetry-chart'
import { asProblem } from '../demo/use-ferry-data'

type State = { state: 'loading' } | { state: 'failed'; problem: Problem } | { state: 'ready'; days: Day[] }
interface Day {
  day: string
  installed: number
  failed: number
}

const percent = (ratio: number) => `${Math.round(ratio * 1000) / 10} %`

/**
 * A version's health over the last 14 days: installs and failures its devices reported per day
 * (GET …/versions/{version}/adoption), in words against the share that pauses it.
 */
export function HealthChart({ api, app, version: v }: { api: FerryApi; app: string; version: Version }) {
  const id = useId()
  const [state, setState] = useState<State>({ state: 'loading' })
  // Read again when a new report counts, so the chart follows the card's live figures.
  const reports = v.rollout.health.reports
  useEffect(() => {
    let live = true
    const days = lastDays()
    // Without from and to, the last 30 days: the chart shows the last 14 of them.
    api.adoption(app, v.id).then(
      (a) =>
        live &&
        setState({
          state: 'ready',
          days: days.map((day) => {
            const d = a.days.find((x) => x.day === day)
            return { day, installed: d?.installed ?? 0, failed: d?.failed ?? 0 }
          }),
        }),
      (e: unknown) => live && setState({ state: 'failed', problem: asProblem(e) }),
    )
    return () => {
      live = false
    }
  }, [api, app, v.id, reports])
  const label = <p id={`${id}-title`}>Installs and failures per day, last 14 days</p>
  if (state.state === 'loading')
    return (
      <div>
        {label}
        <p role="status">Loading health…</p>
      </div>
    )
  if (state.state === 'failed')
    return (
      <div>
        {label}
        <p role="alert">
          The health of {v.version} could not be read: {state.problem.status} {state.problem.title}
        </p>
      </div>
    )
  const installed = state.days.reduce((sum, d) => sum + d.installed, 0)
  const failed = state.days.reduce((sum, d) => sum + d.failed, 0)
  const limit = percent(v.rollout.health.policy.maxFailureRatio)
  if (installed + failed === 0)
    return (
      <div>
        {label}
        <p className="ferry-muted">
          No device has reported installing {v.version} in the last 14 days; it pauses itself above {limit} failures.
        </p>
      </div>
    )
  return (
    <div>
      {label}
      <DayChart
        days={state.days.map((d) => d.day)}
        series={[
          { name: 'Installed', values: state.days.map((d) => d.installed), color: '#15803d' },
          { name: 'Failed', values: state.days.map((d) => d.failed), color: '#b91c1c' },
        ]}
        labelledBy={`${id}-title`}
        summary={`${installed} installed, ${failed} failed (${percent(failed / (installed + failed))}); pauses itself above ${limit}.`}
        legend="Reports"
        height={140}
      />
    </div>
  )
}
