/**
 * Benchmarks the update check against a hello-world route of the same app (same middleware),
 * with the answer cache (performance mode, in-process LRU) and without it, and the cost of
 * telemetry counting, all served in-process on 127.0.0.1 with seeded data. Prints req/s, p99 and
 * the ratios. Usage: npm run bench:server [-- --duration 10 --connections 50]
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { serve, type ServerType } from '@hono/node-server'
import { createApp } from '../server/app.ts'
import type { AppDeps } from '../server/context.ts'
import { nodeRequestHooks } from '../server/runtime/node.ts'
import { randomSecret } from '../server/crypto.ts'
import { seedDemo } from '../server/seed.ts'
import { openFsBlobs } from '../server/storage/blobs-fs.ts'
import { openNodeDb } from '../server/storage/sqlite-node.ts'

const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' } } })
const duration = Math.min(60, Math.max(1, Number(values.duration)))
const connections = Math.min(200, Math.max(1, Number(values.connections)))

const dataDir = await mkdtemp(join(tmpdir(), 'ferry-bench-'))
const db = await openNodeDb(join(dataDir, 'ferry.db'))
const blobs = await openFsBlobs(join(dataDir, 'blobs'))
const signupKey = randomSecret(16)
const jwtSecret = randomSecret(32)

/** One app per variant on the same database, each on its own port. */
async function start(variant: Partial<Pick<AppDeps, 'answerCache'>> & { telemetry?: boolean }) {
  const app = createApp({
    db, blobs, ...nodeRequestHooks,
    config: { signupKey, jwtSecret, maxUploadBytes: 64 * 1024 * 1024, telemetry: variant.telemetry ?? true },
    ...('answerCache' in variant ? { answerCache: variant.answerCache } : {}),
  })
  app.get('/hello', (c) => c.text('Hello, world'))
  const server = await new Promise<ServerType>((done) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => done(s))
  })
  const address = server.address()
  // Telemetry is flushed on the same 5 s timer as in `npm run server`.
  const timer = setInterval(() => { void app.lifecycle.flush() }, 5000)
  return { app, server, timer, base: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` }
}

const cached = await start({})
const uncached = await start({ answerCache: null })
const quiet = await start({ telemetry: false })
await seedDemo((path, init) => fetch(cached.base + path, init), signupKey)

const updatePath = '/v1/apps/harbor-notes/update?version=1.0.0&platform=windows&arch=x64&format=ferry'
for (const s of [cached, uncached, quiet]) {
  const probe = await fetch(s.base + updatePath, { headers: { 'x-ferry-device-id': 'bench-device-0001' } })
  if (probe.status !== 200) throw new Error(`update check answered ${probe.status}: ${await probe.text()}`)
}

async function run(name: string, url: string, seconds: number) {
  const result = await autocannon({ url, connections, duration: seconds, headers: { 'x-ferry-device-id': 'bench-device-0001' } })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx responses, ${result.errors} errors`)
  return { rps: result.requests.average, p99: result.latency.p99, total: result.requests.total }
}

const routes = [
  ['hello world', cached.base + '/hello'],
  ['update check, cache on', cached.base + updatePath],
  ['update check, cache off', uncached.base + updatePath],
  ['cache on, telemetry off', quiet.base + updatePath],
] as const
console.log(`Ferry server benchmark: ${duration} s per route (2 alternating rounds after a 2 s warm-up each),`)
console.log(`${connections} connections, 127.0.0.1, logging off, device id sent (telemetry counts), autocannon in the same process\n`)
for (const [name, url] of routes) await run(name, url, 2)
const rounds = new Map<string, Array<Awaited<ReturnType<typeof run>>>>(routes.map(([name]) => [name, []]))
for (let round = 0; round < 2; round++) {
  for (const [name, url] of round === 0 ? routes : [...routes].reverse()) rounds.get(name)?.push(await run(name, url, duration / 2))
}
const summary = new Map([...rounds].map(([name, rs]) => [name, {
  rps: rs.reduce((n, r) => n + r.rps, 0) / rs.length,
  p99: Math.max(...rs.map((r) => r.p99)),
  total: rs.reduce((n, r) => n + r.total, 0),
}]))
for (const [name, r] of summary) {
  console.log(`${name.padEnd(24)} ${r.rps.toFixed(0).padStart(8)} req/s   p99 ${String(r.p99).padStart(4)} ms   (${r.total} requests)`)
}
const rps = (name: string) => summary.get(name)?.rps ?? 0
const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)} %`
console.log(`\nupdate check (cache on) / hello world: ${pct(rps('update check, cache on'), rps('hello world'))} (target >= 70 %)`)
console.log(`update check (cache off) / hello world: ${pct(rps('update check, cache off'), rps('hello world'))}`)
console.log(`cache on / cache off: ${(rps('update check, cache on') / rps('update check, cache off')).toFixed(2)}x`)
console.log(`telemetry on / telemetry off (cache on): ${pct(rps('update check, cache on'), rps('cache on, telemetry off'))}`)

for (const s of [cached, uncached, quiet]) {
  clearInterval(s.timer)
  await new Promise<void>((done) => s.server.close(() => done()))
  await s.app.lifecycle.close()
}
await db.destroy()
await rm(dataDir, { recursive: true, force: true })
