/**
 * Streams one large multipart upload into the real Node server (in-process, 127.0.0.1, temp
 * data dir) and prints throughput and how far the process's memory grew: a streamed upload
 * grows it by a few MiB whatever the file size. Also prints the portable (browser) digest speed.
 * Usage: npm run bench:upload [-- --mib 512]
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { pino } from 'pino'
import { loadConfig } from '../server/config.ts'
import { jsDigestStream } from '../server/digests.ts'
import { startServer } from '../server/runtime/node.ts'

const { values } = parseArgs({ options: { mib: { type: 'string', default: '512' } } })
const mib = Math.min(4096, Math.max(1, Number(values.mib)))
const CHUNK = 256 * 1024
const chunk = new Uint8Array(CHUNK).map((_, i) => (i * 31) % 251)

const dataDir = await mkdtemp(join(tmpdir(), 'ferry-bench-upload-'))
const signupKey = 'bench-signup-key-0123456789'
const server = await startServer({
  config: { ...loadConfig({}), host: '127.0.0.1', port: 0, dataDir, signupKey, jwtSecret: 'bench-jwt-secret-0123456789abcdef', publicUrl: undefined, maxUploadBytes: (mib + 1) * 1024 * 1024, logLevel: 'silent' },
  logger: pino({ level: 'silent' }),
  passwordIterations: 1000,
})
const call = async (path: string, init: RequestInit = {}) => fetch(server.url + path, init)
const json = (body: unknown, token?: string): RequestInit => ({
  method: 'POST', body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), 'x-ferry-signup-key': signupKey },
})
await call('/v1/auth/signup', json({ teamName: 'Bench', email: 'bench@ferry.test', password: 'bench-password-123', name: 'Bench' }))
const { token } = await (await call('/v1/auth/login', json({ email: 'bench@ferry.test', password: 'bench-password-123' }))).json() as { token: string }
for (const [path, name] of [['/v1/channels', 'stable'], ['/v1/platforms', 'windows'], ['/v1/archs', 'x64']]) await call(path!, json({ name }, token))
await call('/v1/apps', json({ slug: 'bench-app', name: 'Bench' }, token))

const boundary = 'ferry-bench-boundary'
const encoder = new TextEncoder()
const head = encoder.encode(['version', 'channel', 'platform', 'arch'].map((name, i) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${['1.0.0', 'stable', 'windows', 'x64'][i]}\r\n`).join('') +
  `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="Bench Setup.exe"\r\nContent-Type: application/octet-stream\r\n\r\n`)
const tail = encoder.encode(`\r\n--${boundary}--\r\n`)
let sent = -1
const total = (mib * 1024 * 1024) / CHUNK
const body = new ReadableStream<Uint8Array>({
  pull(controller) {
    if (sent === -1) controller.enqueue(head)
    else if (sent < total) controller.enqueue(chunk)
    else if (sent === total) controller.enqueue(tail)
    else controller.close()
    sent++
  },
})

global.gc?.()
const rssBefore = process.memoryUsage().rss
let rssPeak = rssBefore
const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, process.memoryUsage().rss) }, 20)
const started = performance.now()
const res = await fetch(`${server.url}/v1/apps/bench-app/versions`, {
  method: 'POST', body, duplex: 'half',
  headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
} as RequestInit)
const seconds = (performance.now() - started) / 1000
clearInterval(sampler)
if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`)

const hashed = new Uint8Array(64 * 1024 * 1024)
const jsStart = performance.now()
jsDigestStream().update(hashed)
const jsSeconds = (performance.now() - jsStart) / 1000

const MiB = 1024 * 1024
console.log(`upload of ${mib} MiB (one file, streamed, SHA-1/256/512 on node:crypto, fsync'd):`)
console.log(`  ${(mib / seconds).toFixed(0)} MiB/s, ${seconds.toFixed(2)} s`)
console.log(`  process RSS grew by ${((rssPeak - rssBefore) / MiB).toFixed(1)} MiB at most (${(rssBefore / MiB).toFixed(0)} → ${(rssPeak / MiB).toFixed(0)} MiB)`)
console.log(`portable digests (browser sandbox, @noble/hashes): ${(64 / jsSeconds).toFixed(0)} MiB/s for SHA-1+256+512`)
await server.close()
await rm(dataDir, { recursive: true, force: true })
