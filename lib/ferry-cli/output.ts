/** @module How the CLI writes: results to stdout, progress and diagnostics to stderr, sizes for people. */

export interface Io {
  out(line: string): void
  err(line: string): void
  env: NodeJS.ProcessEnv
  /** Milliseconds, injectable so progress throttling can be tested. */
  now(): number
}

export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`
  const units = ['kB', 'MB', 'GB', 'TB']
  let value = n
  let unit = -1
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  return `${value.toFixed(1)} ${units[unit]}`
}

/** A progress callback that writes `label: sent of total` to stderr at most once per second. */
export function progressReporter(io: Io, label: string, total: number): (sent: number) => void {
  let last = io.now()
  return (sent) => {
    const now = io.now()
    if (now - last < 1000) return
    last = now
    io.err(`${label}: ${formatBytes(Math.min(sent, total))} of ${formatBytes(total)} sent`)
  }
}

/** Left-aligned columns, two spaces apart; the last column is not padded. */
export function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? []
  return rows.map((r) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  )
}
