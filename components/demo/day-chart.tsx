import { useId } from 'react'
import styles from './day-chart.module.css'

export interface DaySeries {
  name: string
  /** One count per day, in the order of `days`. */
  values: number[]
  color: string
}

const W = 640
const PAD = { left: 36, right: 24, top: 10, bottom: 24 }

/**
 * Counts per day as stacked areas, the first series at the bottom: devices per version (adoption,
 * the demo's telemetry) or installs and failures (a rollout's health). A day's numbers show on
 * hover; `summary` says in words what the picture shows, and names the image with `labelledBy`.
 */
export function DayChart({
  days,
  series,
  labelledBy,
  summary,
  legend,
  height = 200,
}: {
  days: string[]
  series: DaySeries[]
  labelledBy: string
  summary: string
  /** The legend's accessible name ("Versions"). */
  legend: string
  height?: number
}) {
  const id = useId()
  const H = height
  const totals = days.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0))
  const max = Math.max(1, ...totals)
  const plotW = W - PAD.left - PAD.right
  const plotH = H - PAD.top - PAD.bottom
  const x = (i: number) => PAD.left + (days.length === 1 ? plotW / 2 : (i / (days.length - 1)) * plotW)
  const y = (n: number) => PAD.top + plotH - (n / max) * plotH
  // Each series' band: its top edge left to right, then the band below's top edge back.
  const below = days.map(() => 0)
  const bands = series.map((s) => {
    const base = [...below]
    const top = days.map((_, i) => (below[i] = base[i]! + (s.values[i] ?? 0)))
    const d =
      top.map((n, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(n).toFixed(1)}`).join(' ') +
      ' ' +
      base
        .map((n, i) => [i, n] as const)
        .reverse()
        .map(([i, n]) => `L${x(i).toFixed(1)} ${y(n).toFixed(1)}`)
        .join(' ') +
      ' Z'
    return { ...s, d }
  })
  const step = (x(1) - x(0)) / 2 || plotW / 2
  return (
    <figure className={styles.figure}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${labelledBy} ${id}-summary`} className={styles.svg}>
        <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} className={styles.axisLine} />
        <line x1={PAD.left} x2={W - PAD.right} y1={y(max)} y2={y(max)} className={styles.grid} />
        <text x={PAD.left - 6} y={y(max) + 4} textAnchor="end" className={styles.axis}>
          {max}
        </text>
        <text x={PAD.left - 6} y={y(0) + 4} textAnchor="end" className={styles.axis}>
          0
        </text>
        {bands.map((b) => (
          <path key={b.name} d={b.d} fill={b.color} fillOpacity={0.75} stroke={b.color} strokeWidth={1.5} />
        ))}
        {days.map((day, i) => (
          <g key={day}>
            {(days.length - 1 - i) % 3 === 0 ? (
              <text x={x(i)} y={H - 6} textAnchor="middle" className={styles.axis}>
                {day.slice(5)}
              </text>
            ) : null}
            <rect x={x(i) - step} y={PAD.top} width={step * 2} height={plotH} className={styles.hover}>
              <title>{`${day}: ${totals[i]}${series.map((s) => `\n${s.name}: ${s.values[i] ?? 0}`).join('')}`}</title>
            </rect>
          </g>
        ))}
      </svg>
      <figcaption id={`${id}-summary`} className={styles.caption}>
        {summary}
      </figcaption>
      <ul className={styles.legend} aria-label={legend}>
        {bands.map((b) => (
          <li key={b.name}>
            <svg width="12" height="12" aria-hidden="true">
              <rect width="12" height="12" rx="2" fill={b.color} />
            </svg>{' '}
            {b.name}
          </li>
        ))}
      </ul>
    </figure>
  )
}
