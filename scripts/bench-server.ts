/**
 * Benchmarks the update check against a hello-world route of the same app (same middleware),
 * both served in-process on 127.0.0.1 with seeded data. Prints req/s, p99 and the ratio.
 * Usage: npm run bench:server [-- --duration 10 --connections 50]
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { serve, type ServerType } from '@hono/node-server'
import { createApp } from '../server/app.ts'
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
const signupKey = randomSecret(16)
const app = createApp({
  db,
  blobs: await openFsBlobs(join(dataDir, 'blobs')),
  config: { signupKey, jwtSecret: randomSecret(32), maxUploadBytes: 64 * 1024 * 1024 },
  ...nodeRequestHooks,
})
app.get('/hello', (c) => c.text('Hello, world'))

const server = await new Promise<ServerType>((done) => {
  const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => done(s))
})
const address = server.address()
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
await seedDemo((path, init) => fetch(base + path, init), signupKey)

const updatePath = '/v1/apps/harbor-notes/update?version=1.0.0&platform=windows&arch=x64'
const probe = await fetch(base + updatePath, { headers: { 'x-ferry-device-id': 'bench-device-0001' } })
if (probe.status !== 200) throw new Error(`update check answered ${probe.status}: ${await probe.text()}`)

async function run(name: string, path: string, seconds: number) {
  const result = await autocannon({
    url: base + path, connections, duration: seconds, headers: { 'x-ferry-device-id': 'bench-device-0001' },
  })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx responses, ${result.errors} errors`)
  return { rps: result.requests.average, p99: result.latency.p99, total: result.requests.total }
}

const routes = [['hello world', '/hello'], ['update check', updatePath]] as const
console.log(`Ferry server benchmark: ${duration} s per route (2 alternating rounds after a 2 s warm-up each),`)
console.log(`${connections} connections, 127.0.0.1, logging off, autocannon in the same process\n`)
for (const [name, path] of routes) await run(name, path, 2)
const rounds: Record<string, Array<Awaited<ReturnType<typeof run>>>> = { 'hello world': [], 'update check': [] }
for (let round = 0; round < 2; round++) {
  for (const [name, path] of round === 0 ? routes : [...routes].reverse()) rounds[name]?.push(await run(name, path, duration / 2))
}
const summary = Object.entries(rounds).map(([name, rs]) => ({
  name,
  rps: rs.reduce((n, r) => n + r.rps, 0) / rs.length,
  p99: Math.max(...rs.map((r) => r.p99)),
  total: rs.reduce((n, r) => n + r.total, 0),
}))
for (const r of summary) {
  console.log(`${r.name.padEnd(14)} ${r.rps.toFixed(0).padStart(8)} req/s   p99 ${String(r.p99).padStart(4)} ms   (${r.total} requests)`)
}
const [hello, update] = summary
const ratio = (update?.rps ?? 0) / (hello?.rps ?? 1)
console.log(`\nupdate check / hello world: ${(ratio * 100).toFixed(1)} % (target >= 70 %)`)

await new Promise<void>((done) => server.close(() => done()))
await db.destroy()
await rm(dataDir, { recursive: true, force: true })
