/**
 * The load generator of `npm run bench:server`, run as its own process so that it does not
 * share the server's event loop: one autocannon run, options as JSON in argv[2], the summary as
 * JSON on stdout.
 */
import autocannon from 'autocannon'

export interface LoadOptions {
  url: string
  connections: number
  duration: number
  headers: Record<string, string>
}

export interface LoadResult {
  rps: number
  p50: number
  p99: number
  total: number
  non2xx: number
  errors: number
}

const options: LoadOptions = JSON.parse(process.argv[2] ?? '{}')
const result = await autocannon({ ...options, timeout: 120 })
const summary: LoadResult = {
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  total: result.requests.total,
  non2xx: result.non2xx,
  errors: result.errors,
}
process.stdout.write(`${JSON.stringify(summary)}\n`)
