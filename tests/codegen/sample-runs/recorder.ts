/**
 * A recording proxy in front of a test server: a sample's URL starts with `/<run>/`, the proxy
 * strips that prefix, forwards the request as it came, and keeps the server's first answer per
 * run, so any language's sample is checked on the answer it really got, whatever it prints.
 */
import { createServer, request, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'

export interface RecordedAnswer {
  method: string
  /** The path and query the server saw. */
  path: string
  status: number
  /** Media type without parameters, '' when absent. */
  contentType: string
  body: Buffer
}

export interface Recorder {
  /** The base URL of a run: samples for it are generated with this server URL. */
  base(run: string): string
  /** What the server answered the run's requests, in order. */
  answers(run: string): RecordedAnswer[]
  close(): Promise<void>
}

const read = (stream: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    stream.on('end', () => resolve(Buffer.concat(chunks)))
    stream.on('error', reject)
  })

function decoded(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'gzip') return gunzipSync(body)
  if (encoding === 'deflate') return inflateSync(body)
  if (encoding === 'br') return brotliDecompressSync(body)
  return body
}

export async function startRecorder(target: string): Promise<Recorder> {
  const upstream = new URL(target)
  const runs = new Map<string, RecordedAnswer[]>()
  const server = createServer((req, res) => {
    const match = /^\/([\w.-]+)(\/.*)$/.exec(req.url ?? '')
    const run = match?.[1]
    const path = match?.[2]
    if (run === undefined || path === undefined) {
      res.writeHead(404).end('no run prefix')
      return
    }
    const headers = { ...req.headers, host: upstream.host }
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path, headers },
      (up) => {
        void read(up).then((body) => {
          const answers = runs.get(run) ?? []
          answers.push({
            method: req.method ?? 'GET',
            path,
            status: up.statusCode ?? 0,
            contentType: (up.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '',
            body: decoded(body, up.headers['content-encoding']),
          })
          runs.set(run, answers)
          res.writeHead(up.statusCode ?? 502, up.rawHeaders)
          res.end(body)
        })
      },
    )
    forward.on('error', (error) => res.writeHead(502).end(String(error)))
    req.pipe(forward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    base: (run) => `http://127.0.0.1:${port}/${run}`,
    answers: (run) => runs.get(run) ?? [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
