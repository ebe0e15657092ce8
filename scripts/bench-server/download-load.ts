/**
 * The download load of `npm run bench:server`, run as its own process (pinned like the
 * autocannon load): `clients` parallel `curl` processes, each fetching the URL again and again
 * until `duration` seconds have passed, bytes written to /dev/null. Prints the throughput of the
 * whole transfers (MiB/s over the time until the last one ended) as JSON on stdout.
 */
import { spawn } from 'node:child_process'

export interface DownloadLoadOptions {
  url: string
  clients: number
  duration: number
  /** Bytes each answer must have (a short or failed transfer throws). */
  size: number
}

export interface DownloadLoadResult {
  mibPerSecond: number
  transfers: number
}

const options: DownloadLoadOptions = JSON.parse(process.argv[2] ?? '{}')

/** One transfer with curl; resolves with the bytes received, rejects on a failed or short one. */
const fetchOnce = (url: string) =>
  new Promise<number>((done, fail) => {
    const curl = spawn('curl', ['-sS', '-f', '-o', '/dev/null', '-w', '%{size_download}', url], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    curl.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    curl.once('close', (code) => {
      const bytes = Number(out)
      if (code !== 0 || bytes !== options.size)
        fail(new Error(`curl ${url}: exit ${code}, ${out} of ${options.size} bytes`))
      else done(bytes)
    })
  })

const start = performance.now()
const deadline = start + options.duration * 1000
let bytes = 0
let transfers = 0
await Promise.all(
  Array.from({ length: options.clients }, async () => {
    while (performance.now() < deadline) {
      bytes += await fetchOnce(options.url)
      transfers++
    }
  }),
)
const seconds = (performance.now() - start) / 1000
const result: DownloadLoadResult = { mibPerSecond: bytes / 1024 / 1024 / seconds, transfers }
process.stdout.write(`${JSON.stringify(result)}\n`)
