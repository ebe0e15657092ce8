/**
 * Benchmarks the real Node server (`startServer`, configured from the environment as in
 * `npm run server`), each variant in its own process, with the load (autocannon) in another
 * process: server processes pinned to CPU 0 and the load to CPU 1 with `taskset` when it exists
 * and there are two CPUs (the output says whether pinning was applied). All traffic goes to
 * 127.0.0.1; logging is off; a device id is sent, so telemetry counts.
 *
 * Default mode: the update check against a hello-world route of the same app (same
 * middleware), with the answer cache (performance mode, in-process LRU) and without it, the
 * cost of telemetry counting, the cached check of a client below a version on a ramp (the demo
 * seed's, with health reports stored; target: within 10 % of the plain cached check), and a version listing (`GET /v1/apps/{app}/versions` with a
 * token), on the demo data; the cached electron-updater feed (`latest.yml`) against Debian's nginx
 * serving the same bytes as a static file, the cached check on a server whose team has a webhook
 * subscription, the cached check of a cohort on an app with rules (target: within 10 % of the
 * plain cached check), the cached check with the answer cache in Redis (FERRY_REDIS_URL, Redis from
 * `services/redis-server.ts`) and with node:http reading every request (FERRY_LEAN_HTTP=off), and a 64 MiB artifact download from the disk store against nginx's sendfile of the
 * same file (`--clients` parallel curl processes, MiB/s), and through the same nginx in front of a
 * server with FERRY_ACCEL_REDIRECT_PREFIX (Ferry authorises, nginx sends the file). Prints req/s,
 * p99 and the ratios, and the load average before and after (the ratios are same-run).
 *
 * `--catalogue`: the uncached update check with 100, 10,000 and 100,000 published versions in
 * one app/channel/platform/arch (`--sizes`), seeded directly with Kysely: p50/p99 for a client
 * one release behind and for one on the oldest version, and p99(largest)/p99(smallest). Per size
 * also a version's adoption (`GET …/adoption`'s queries, timed in process) and each query's plan.
 *
 * "checks while publishing": the cached update check of the public demo app while three uploaders
 * publish new versions of that app (every upload drops its answers), against the same check on
 * the same server with nobody publishing; on PostgreSQL the artifacts go to S3 (radosgw started
 * for the run, or FERRY_TEST_S3_*). With `--backend both`, its PostgreSQL + S3 / SQLite p99 ratio
 * (target <= 3x); with `--baseline DIR`, also on a server from DIR in the same rounds.
 *
 * `--backend sqlite|postgres|both`: PostgreSQL at FERRY_DATABASE_URL (its user must be allowed
 * to CREATE DATABASE: each run gets a fresh database, dropped at the end), else a throwaway
 * cluster from `services/postgres-server.ts`. `both` also prints postgres/sqlite ratios.
 *
 * `--rounds N`: N alternating rounds of duration/2 seconds per route instead of 2 (more of them
 * average out a busy machine). `--routes feed,nginx`: only the routes whose names contain one of
 * these words (the download runs when `download` is one of them); words are separated by a comma
 * without a space after it, so `--routes 'update check, cache on,nginx'` picks that route whole. `--baseline DIR`: the cached
 * update check and feed (and the cached check with Redis, on a Redis of its own) also from the
 * checkout at DIR (e.g. main's), its servers started from DIR on copies of the same data, measured in the same rounds, with this checkout / DIR ratios.
 * `--cpu-prof DIR`: the server of the cached routes (hello world, cached check, feed) writes a V8
 * CPU profile into DIR when it stops.
 *
 * Usage: npm run bench:server [-- --duration 10 --connections 50 --clients 4 --backend both]
 *        npm run bench:server -- --routes feed,nginx,hello --baseline /path/to/main
 *        npm run bench:server -- --catalogue [--sizes 100,10000,100000 --connections 10]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cp, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir, userInfo } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { randomSecret } from '../server/core/crypto.ts'
import { DEMO_LOGIN, seedDemo } from '../server/demo/seed.ts'
import { openNodeDb } from '../server/storage/drivers/sqlite-node.ts'
import type { Db } from '../server/core/storage.ts'
import { databases, startPostgres, type TestPostgres } from '../services/postgres-server.ts'
import { CATALOGUE_APP, catalogueVersion, seedCatalogue } from './bench-server/catalogue.ts'
import { measureAdoption, seedAdoption } from './bench-server/adoption.ts'
import type { LoadOptions, LoadResult } from './bench-server/load.ts'
import type { DownloadLoadOptions, DownloadLoadResult } from './bench-server/download-load.ts'
import { freePort, startNginx } from '../services/nginx-server.ts'
import { startS3, type S3TestServer } from '../services/s3-server.ts'
import { startRedis } from '../services/redis-server.ts'
import { startPublishing } from './bench-server/publishing.ts'

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string' },
    backend: { type: 'string', default: 'sqlite' },
    catalogue: { type: 'boolean', default: false },
    sizes: { type: 'string', default: '100,10000,100000' },
    clients: { type: 'string', default: '4' },
    routes: { type: 'string' },
    baseline: { type: 'string' },
    'cpu-prof': { type: 'string' },
    rounds: { type: 'string', default: '2' },
  },
})
const duration = Math.min(60, Math.max(1, Number(values.duration)))
const connections = Math.min(200, Math.max(1, Number(values.connections ?? (values.catalogue ? 10 : 50))))
const BACKENDS = ['sqlite', 'postgres'] as const
type BackendName = (typeof BACKENDS)[number]
const backends: BackendName[] = values.backend === 'both' ? [...BACKENDS] : BACKENDS.filter((b) => b === values.backend)
if (backends.length === 0) throw new Error(`--backend must be sqlite, postgres or both, got ${values.backend}`)
/** Alternating rounds per route (`--rounds`, default 2): more of them average out a busy machine. */
const rounds = Math.min(20, Math.max(1, Math.round(Number(values.rounds))))
const downloadClients = Math.min(32, Math.max(1, Number(values.clients)))
const sizes = values.sizes.split(',').map(Number)
/** A comma followed by a space belongs to a route's name ("update check, cache on"). */
const routeWords = values.routes?.split(/,(?! )/).filter(Boolean)
/** Whether the route (or the download, `download`) named `name` is measured (`--routes`). */
const measured = (name: string) => !routeWords || routeWords.some((word) => name.includes(word))
const baseline = values.baseline ? resolve(values.baseline) : undefined
if (sizes.some((n) => !Number.isInteger(n) || n < 2))
  throw new Error(`--sizes must list whole numbers of at least 2, got ${values.sizes}`)

const pinned = availableParallelism() >= 2 && spawnSync('sh', ['-c', 'command -v taskset']).status === 0
/** The command line of a node process running `script`, pinned to `cpu` when pinning applies. */
const nodeCommand = (cpu: number, script: string, args: string[] = []) => {
  const node = ['--import', 'tsx', script, ...args]
  return pinned
    ? { command: 'taskset', args: ['-c', String(cpu), process.execPath, ...node] }
    : { command: process.execPath, args: node }
}

const signupKey = randomSecret(16)
const jwtSecret = randomSecret(32)
const DEVICE = { 'x-ferry-device-id': 'bench-device-0001' }

interface Database {
  /** Environment of a server process on this database. */
  env: Record<string, string>
  /**
   * The same data for one more server process, taken while none runs: SQLite allows one server
   * per data directory, so its directory is copied; PostgreSQL servers share the database and
   * the blob folder.
   */
  share(): Promise<Database>
  open(): Promise<Db>
  drop(): Promise<void>
}

let postgres: TestPostgres | undefined
async function freshDatabase(backend: BackendName): Promise<Database> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ferry-bench-'))
  if (backend === 'sqlite') {
    const sqlite = (dir: string): Database => ({
      env: { FERRY_DATA_DIR: dir },
      async share() {
        const copy = await mkdtemp(join(tmpdir(), 'ferry-bench-'))
        await cp(dir, copy, { recursive: true, filter: (source) => !source.endsWith('server.pid') })
        return sqlite(copy)
      },
      open: () => openNodeDb(join(dir, 'ferry.db')),
      drop: () => rm(dir, { recursive: true, force: true }),
    })
    return sqlite(dataDir)
  }
  const given = process.env.FERRY_DATABASE_URL
  postgres ??= given
    ? { url: given, createDatabase: databases(given), stop: async () => undefined }
    : await startPostgres()
  const admin = postgres.url
  const url = await postgres.createDatabase()
  const { openPostgresDb } = await import('../server/storage/drivers/postgres-node.ts')
  const database: Database = {
    env: { FERRY_DATA_DIR: dataDir, FERRY_DATABASE_URL: url },
    share: async () => ({ ...database, drop: async () => undefined }),
    open: () => openPostgresDb(url, { poolSize: 2 }),
    async drop() {
      await rm(dataDir, { recursive: true, force: true })
      if (!given) return
      const client = new pg.Client({ connectionString: admin })
      await client.connect()
      try {
        await client.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)}`)
      } finally {
        await client.end()
      }
    },
  }
  return database
}

interface Server {
  base: string
  process: ChildProcess
}

/**
 * Starts `scripts/bench-server/serve.ts` on `database`, `settings` as FERRY_* variables; from the
 * checkout `checkout` (default: this one), with a CPU profile written into `cpuProf` when set.
 */
async function startServerProcess(
  database: Database,
  settings: Record<string, string>,
  { checkout, cpuProf }: { checkout?: string; cpuProf?: string } = {},
): Promise<Server> {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of Object.keys(env)) if (name.startsWith('FERRY_')) delete env[name]
  Object.assign(
    env,
    database.env,
    { FERRY_SIGNUP_KEY: signupKey, FERRY_JWT_SECRET: jwtSecret, FERRY_LOG_LEVEL: 'silent' },
    settings,
  )
  const { command, args } = nodeCommand(0, 'scripts/bench-server/serve.ts')
  // node's own options go before `--import tsx`.
  if (cpuProf) args.splice(args.indexOf('--import'), 0, '--cpu-prof', '--cpu-prof-dir', resolve(cpuProf))
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
    ...(checkout ? { cwd: checkout } : {}),
  })
  const lines = createInterface({ input: child.stdout })
  const base = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server process exited with ${code} before listening`)))
    lines.once('line', (line) => resolve((JSON.parse(line) as { url: string }).url))
  })
  return { base, process: child }
}

async function stopServers(servers: Server[]): Promise<void> {
  await Promise.all(
    servers.map(
      (s) =>
        new Promise<void>((done) => {
          if (s.process.exitCode !== null) return done()
          s.process.once('exit', () => done())
          s.process.kill('SIGTERM')
        }),
    ),
  )
}

/** One autocannon run in its own process (pinned to CPU 1); failed responses throw unless `tolerate`. */
async function load(
  url: string,
  seconds: number,
  headers: Record<string, string> = DEVICE,
  tolerate = false,
): Promise<LoadResult> {
  const options: LoadOptions = { url, connections, duration: seconds, headers }
  const { command, args } = nodeCommand(1, 'scripts/bench-server/load.ts', [JSON.stringify(options)])
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
  })
  const code = await new Promise<number | null>((done) => child.once('close', done))
  if (code !== 0) throw new Error(`load process exited with ${code}`)
  const result = JSON.parse(out) as LoadResult
  if (!tolerate && (result.non2xx > 0 || result.errors > 0))
    throw new Error(`${url}: ${result.non2xx} non-2xx responses, ${result.errors} errors`)
  return result
}

async function probe(url: string, headers: Record<string, string> = DEVICE): Promise<void> {
  const res = await fetch(url, { headers })
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`)
}

/** One download run: `downloadClients` parallel curl processes (pinned to CPU 1). */
async function downloads(url: string, seconds: number, size: number): Promise<DownloadLoadResult> {
  const options: DownloadLoadOptions = { url, clients: downloadClients, duration: seconds, size }
  const { command, args } = nodeCommand(1, 'scripts/bench-server/download-load.ts', [JSON.stringify(options)])
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
  })
  const code = await new Promise<number | null>((done) => child.once('close', done))
  if (code !== 0) throw new Error(`download load process exited with ${code}`)
  return JSON.parse(out) as DownloadLoadResult
}

const ARTIFACT_BYTES = 64 * 1024 * 1024
/** FERRY_ACCEL_REDIRECT_PREFIX of the server behind nginx, as production-deploy.mdx sets it. */
const ACCEL_PREFIX = '/_ferry_blobs/'

/** Uploads a published 64 MiB artifact (channel `beta`, so the stable feeds measured stay as seeded); returns its download path. */
async function uploadArtifact(base: string, token: string): Promise<string> {
  const form = new FormData()
  for (const [k, v] of Object.entries({
    version: '9.0.0',
    channel: 'beta',
    platform: 'windows',
    arch: 'x64',
    published: 'true',
  }))
    form.set(k, v)
  form.append('files', new File([randomBytes(ARTIFACT_BYTES)], 'HarborNotes-Setup-9.0.0.exe'))
  const res = await fetch(`${base}/v1/apps/harbor-notes/versions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`)
  const { artifacts } = (await res.json()) as { artifacts: Array<{ downloadUrl: string }> }
  if (!artifacts[0]) throw new Error('the upload answered no artifact')
  return new URL(artifacts[0].downloadUrl).pathname
}

/** The file of `size` bytes in the data dir's blob folder (nginx serves it too). */
async function blobOfSize(dataDir: string, size: number): Promise<string> {
  const blobDir = join(dataDir, 'blobs')
  const sizes = await Promise.all(
    (await readdir(blobDir)).map(async (name) => [name, (await stat(join(blobDir, name))).size] as const),
  )
  const blob = sizes.find(([, bytes]) => bytes === size)
  if (!blob) throw new Error(`no ${size}-byte blob in ${blobDir}`)
  return join(blobDir, blob[0])
}

/** Subscribes the demo team to every app's events (a receiver that is never called: nothing is published meanwhile). */
async function subscribeWebhook(base: string, token: string): Promise<void> {
  const res = await fetch(`${base}/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      url: 'http://127.0.0.1:9/ferry-bench',
      events: ['version.published', 'version.paused', 'version.pulled'],
    }),
  })
  if (res.status !== 201) throw new Error(`webhook subscription answered ${res.status}: ${await res.text()}`)
}

/** A pin, a hold and a targeting rule on the demo app (already seeded in this server's database). */
async function addRules(base: string): Promise<void> {
  const login = await fetch(`${base}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_LOGIN),
  })
  const { token } = (await login.json()) as { token: string }
  for (const rule of [
    { kind: 'pin', cohort: 'globex', range: '<1.2.0' },
    { kind: 'hold', cohort: 'initech', reason: 'bench' },
    {
      kind: 'target',
      version: '1.2.1',
      cohorts: ['acme-corp', 'beta'],
      conditions: [{ attribute: 'edition', oneOf: ['pro'] }],
    },
  ]) {
    const res = await fetch(`${base}/v1/apps/harbor-notes/rules`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(rule),
    })
    if (res.status !== 201) throw new Error(`a rule answered ${res.status}: ${await res.text()}`)
  }
}

async function demoToken(base: string): Promise<string> {
  await seedDemo((path, init) => fetch(base + path, init), signupKey)
  const login = await fetch(`${base}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_LOGIN),
  })
  return ((await login.json()) as { token: string }).token
}

const fixed = (n: number, digits = 0) => n.toFixed(digits)
const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)} %`

/**
 * `cpu`: the Ferry server's CPU time (user + system, from /proc) per request, in µs; `undefined`
 * for nginx or without /proc. Unlike req/s it hardly moves when other processes take CPU time.
 */
type Summary = Map<string, RouteSummary>
interface RouteSummary {
  rps: number
  p50: number
  p99: number
  total: number
  cpu: number | undefined
}

/** A route's rounds: mean req/s, the worst p50 and p99; `used`: the server's CPU seconds over them. */
function summaryOf(rs: LoadResult[], used?: number): RouteSummary {
  const total = rs.reduce((n, r) => n + r.total, 0)
  return {
    rps: rs.reduce((n, r) => n + r.rps, 0) / rs.length,
    p50: Math.max(...rs.map((r) => r.p50)),
    p99: Math.max(...rs.map((r) => r.p99)),
    total,
    cpu: used === undefined ? undefined : (used * 1e6) / total,
  }
}

/** The CPU seconds (user + system) process `pid` has used (Linux /proc; clock ticks of 1/100 s). */
async function cpuSeconds(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
    // The fields after the command name in parentheses, from the state (field 3) on.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return undefined
  }
}

/**
 * The default mode on one backend: every route warmed 2 s, then `rounds` alternating rounds; then the
 * 64 MiB download from Ferry and from nginx, alternating likewise. nginx (Debian's, one worker,
 * pinned like the servers, sendfile on) serves the cached feed's bytes as a static file and the
 * artifact's file from Ferry's blob folder.
 */
async function standard(backend: BackendName): Promise<{ summary: Summary; download: Map<string, number> }> {
  const database = await freshDatabase(backend)
  // Seeded by a first server, stopped before the others share (SQLite: copy) its data.
  const seeder = await startServerProcess(database, {})
  const token = await demoToken(seeder.base)
  const uploaded = await uploadArtifact(seeder.base, token)
  await stopServers([seeder])
  const [uncachedDb, quietDb, accelDb] = [await database.share(), await database.share(), await database.share()]
  const [redisDb, nodeOnlyDb, ruledDb] = [await database.share(), await database.share(), await database.share()]
  const baselineDb = baseline ? await database.share() : undefined
  const baselineRedisDb = baseline ? await database.share() : undefined
  // Another database with the same demo data and a webhook subscription (#26).
  const hookedDatabase = await freshDatabase(backend)
  const cached = await startServerProcess(database, {}, values['cpu-prof'] ? { cpuProf: values['cpu-prof'] } : {})
  const base = baselineDb && (await startServerProcess(baselineDb, {}, { checkout: baseline }))
  const uncached = await startServerProcess(uncachedDb, { FERRY_CACHE: 'off' })
  const quiet = await startServerProcess(quietDb, { FERRY_TELEMETRY: 'off' })
  const hooked = await startServerProcess(hookedDatabase, { FERRY_WEBHOOK_ALLOW_PRIVATE: 'true' })
  // The demo app with a pin, a hold and a targeting rule, asked with a cohort (#43).
  const ruled = await startServerProcess(ruledDb, {})
  // Behind nginx: Ferry authorises each download, nginx sends the file (X-Accel-Redirect).
  const accel = await startServerProcess(accelDb, { FERRY_ACCEL_REDIRECT_PREFIX: ACCEL_PREFIX })
  // The answer cache in Redis (every hit read and parsed again), and node:http reading every request.
  const redis = await startRedis()
  const redisServer = await startServerProcess(redisDb, { FERRY_REDIS_URL: redis.url })
  const nodeOnly = await startServerProcess(nodeOnlyDb, { FERRY_LEAN_HTTP: 'off' })
  const baseRedis = baselineRedisDb && (await startRedis())
  const baseRedisServer =
    baselineRedisDb &&
    baseRedis &&
    (await startServerProcess(baselineRedisDb, { FERRY_REDIS_URL: baseRedis.url }, { checkout: baseline }))
  const nginxRoot = await mkdtemp(join(tmpdir(), 'ferry-bench-nginx-'))
  let nginx: { stop(): Promise<void> } | undefined
  try {
    await subscribeWebhook(hooked.base, await demoToken(hooked.base))
    await addRules(ruled.base)
    const artifact = { path: uploaded, file: await blobOfSize(database.env.FERRY_DATA_DIR ?? '', ARTIFACT_BYTES) }
    const feedPath = '/v1/apps/harbor-notes/electron-updater/stable/windows/x64/1.0.0/latest.yml'
    const feed = await fetch(cached.base + feedPath)
    if (feed.status !== 200) throw new Error(`${feedPath} answered ${feed.status}`)
    await writeFile(join(nginxRoot, 'latest.yml'), new Uint8Array(await feed.arrayBuffer()))
    const nginxPort = await freePort()
    nginx = await startNginx(
      [
        {
          port: nginxPort,
          body: [
            `    location = /latest.yml { root ${nginxRoot}; default_type text/yaml; }`,
            `    location = /artifact { alias ${artifact.file}; default_type application/octet-stream; }`,
            // production-deploy.mdx's internal location, and Ferry behind it.
            `    location ${ACCEL_PREFIX} { internal; alias ${join(accelDb.env.FERRY_DATA_DIR ?? '', 'blobs')}/; etag off; }`,
            `    location /v1/ { proxy_pass ${accel.base}; proxy_set_header Host $host; }`,
          ].join('\n'),
        },
      ],
      [`user ${userInfo().username};`],
      {
        ...(pinned ? { cpu: 0 } : {}),
        workerConnections: 1024,
        http: ['sendfile on;', 'tcp_nopush on;', 'keepalive_requests 1000000;'],
      },
    )
    const nginxBase = `http://127.0.0.1:${nginxPort}`
    const auth = { ...DEVICE, authorization: `Bearer ${token}` }
    const updatePath = UPDATE_PATH
    // A client on 1.1.0: 1.2.1 above it is on a ramp (the demo seed), so the cached answer
    // depends on the device's bucket and ends at the ramp's next step; the seed's health
    // reports paused another version.
    const rampPath = '/v1/apps/harbor-notes/update?version=1.1.0&platform=windows&arch=x64&format=ferry'
    const all: Array<[string, string, Record<string, string>]> = [
      ['hello world', cached.base + '/hello', DEVICE],
      ['update check, cache on', cached.base + updatePath, DEVICE],
      ['update check, Redis cache', redisServer.base + updatePath, DEVICE],
      ['update check, lean front off', nodeOnly.base + updatePath, DEVICE],
      ['ramp + health, cache on', cached.base + rampPath, DEVICE],
      ['update check, cache off', uncached.base + updatePath, DEVICE],
      ['cache on, telemetry off', quiet.base + updatePath, DEVICE],
      ['version listing', cached.base + '/v1/apps/harbor-notes/versions', auth],
      ['feed (latest.yml), cache on', cached.base + feedPath, {}],
      ['nginx static feed', nginxBase + '/latest.yml', {}],
      ['update check, webhook', hooked.base + updatePath, DEVICE],
      ['update check, rules + cohort', `${ruled.base + updatePath}&cohort=acme-corp`, DEVICE],
      ...(base
        ? ([
            ['update check, cache on, baseline', base.base + updatePath, DEVICE],
            ['feed (latest.yml), cache on, baseline', base.base + feedPath, {}],
          ] satisfies Array<[string, string, Record<string, string>]>)
        : []),
      ...(baseRedisServer
        ? ([['update check, Redis cache, baseline', baseRedisServer.base + updatePath, DEVICE]] satisfies Array<
            [string, string, Record<string, string>]
          >)
        : []),
    ]
    const routes = all.filter(([name]) => measured(name))
    for (const [, url, headers] of routes) await probe(url, headers)
    for (const [, url, headers] of routes) await load(url, 2, headers)
    const servers = [
      cached,
      uncached,
      quiet,
      hooked,
      ruled,
      redisServer,
      nodeOnly,
      ...(base ? [base] : []),
      ...(baseRedisServer ? [baseRedisServer] : []),
    ]
    const pidOf = (url: string) => servers.find((server) => url.startsWith(`${server.base}/`))?.process.pid
    const results = new Map<string, LoadResult[]>(routes.map(([name]) => [name, []]))
    const cpu = new Map<string, number | undefined>(routes.map(([name]) => [name, 0]))
    for (let round = 0; round < rounds; round++) {
      for (const [name, url, headers] of round % 2 === 0 ? routes : [...routes].reverse()) {
        const before = await cpuSeconds(pidOf(url))
        results.get(name)?.push(await load(url, duration / 2, headers))
        const after = await cpuSeconds(pidOf(url))
        const used = cpu.get(name)
        cpu.set(
          name,
          used === undefined || before === undefined || after === undefined ? undefined : used + after - before,
        )
      }
    }
    const summary: Summary = new Map([...results].map(([name, rs]) => [name, summaryOf(rs, cpu.get(name))]))
    const sources: Array<[string, string]> = measured('download')
      ? [
          ['ferry', cached.base + artifact.path],
          ['nginx', `${nginxBase}/artifact`],
          ['accel', nginxBase + artifact.path],
        ]
      : []
    const throughput = new Map<string, number[]>(sources.map(([name]) => [name, []]))
    for (const [, url] of sources) await downloads(url, 2, ARTIFACT_BYTES)
    for (let round = 0; round < 2; round++) {
      for (const [name, url] of round === 0 ? sources : [...sources].reverse())
        throughput.get(name)?.push((await downloads(url, duration / 2, ARTIFACT_BYTES)).mibPerSecond)
    }
    return {
      summary,
      download: new Map([...throughput].map(([name, rs]) => [name, rs.reduce((a, b) => a + b, 0) / rs.length])),
    }
  } finally {
    await nginx?.stop()
    await stopServers([cached, uncached, quiet, hooked, ruled, accel, redisServer, nodeOnly, ...(base ? [base] : [])])
    if (baseRedisServer) await stopServers([baseRedisServer])
    await redis.stop()
    await baseRedis?.stop()
    for (const db of [
      uncachedDb,
      quietDb,
      accelDb,
      redisDb,
      nodeOnlyDb,
      ruledDb,
      database,
      hookedDatabase,
      ...(baselineDb ? [baselineDb] : []),
      ...(baselineRedisDb ? [baselineRedisDb] : []),
    ])
      await db.drop()
    await rm(nginxRoot, { recursive: true, force: true })
  }
}

const UPDATE_PATH = '/v1/apps/harbor-notes/update?version=1.0.0&platform=windows&arch=x64&format=ferry'
const PUBLISHING = 'checks while publishing'
const NOBODY_PUBLISHING = 'checks, nobody publishing'
const UPLOADERS = 3

let s3: S3TestServer | undefined
/** FERRY_BLOB_URL and the S3 settings of a fresh prefix in the run's bucket (radosgw started once). */
async function s3Settings(): Promise<Record<string, string>> {
  s3 ??= await startS3()
  const { bucket, prefix, endpoint, region, credentials, forcePathStyle } = s3.location(`bench-${Date.now()}`)
  return {
    FERRY_BLOB_URL: `s3://${bucket}/${prefix}`,
    FERRY_S3_FORCE_PATH_STYLE: forcePathStyle ? 'on' : 'off',
    ...(endpoint ? { FERRY_S3_ENDPOINT: endpoint } : {}),
    ...(region ? { FERRY_S3_REGION: region } : {}),
    ...(credentials
      ? { FERRY_S3_ACCESS_KEY_ID: credentials.accessKeyId, FERRY_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey }
      : {}),
  }
}

/**
 * "checks while publishing" on one backend (PostgreSQL with its artifacts in S3): one server with
 * the demo data and the answer cache on; the public app's cached update check measured while
 * UPLOADERS loops publish new versions of that app, and with nobody publishing, in alternating rounds.
 */
async function checksWhilePublishing(backend: BackendName): Promise<Summary> {
  const blobs = async () => (backend === 'postgres' ? await s3Settings() : {})
  const database = await freshDatabase(backend)
  const server = await startServerProcess(database, await blobs())
  const baselineDb = baseline ? await freshDatabase(backend) : undefined
  const base = baselineDb && (await startServerProcess(baselineDb, await blobs(), { checkout: baseline }))
  try {
    const targets = [
      { suffix: '', server, token: await demoToken(server.base) },
      ...(base ? [{ suffix: ', baseline', server: base, token: await demoToken(base.base) }] : []),
    ]
    const routes = targets.flatMap((t) =>
      [NOBODY_PUBLISHING, PUBLISHING].map((name) => ({ ...t, name: name + t.suffix, publishing: name === PUBLISHING })),
    )
    for (const { server } of targets) {
      await probe(server.base + UPDATE_PATH)
      await load(server.base + UPDATE_PATH, 2)
    }
    const results = new Map<string, LoadResult[]>(routes.map(({ name }) => [name, []]))
    const published = new Map<Server, number>(targets.map((t) => [t.server, 0]))
    for (let round = 0; round < rounds; round++) {
      for (const route of round % 2 === 0 ? routes : [...routes].reverse()) {
        const before = published.get(route.server) ?? 0
        const publishing = route.publishing
          ? startPublishing(route.server.base, route.token, 'harbor-notes', UPLOADERS, before)
          : undefined
        results.get(route.name)?.push(await load(route.server.base + UPDATE_PATH, duration / 2))
        published.set(route.server, before + ((await publishing?.stop()) ?? 0))
      }
    }
    const summary: Summary = new Map([...results].map(([name, rs]) => [name, summaryOf(rs)]))
    console.log(`\n${backend}${backend === 'postgres' ? ' + S3' : ''}, the public app's update check:`)
    for (const [name, r] of summary)
      console.log(
        `${name.padEnd(36)} ${fixed(r.rps).padStart(8)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   (${r.total} requests)`,
      )
    for (const t of targets) {
      const count = published.get(t.server) ?? 0
      console.log(
        `${UPLOADERS} uploaders published ${count} versions (${fixed(count / ((duration / 2) * rounds), 1)}/s)${t.suffix && ` to the baseline (${baseline ?? ''})`}`,
      )
    }
    if (base) {
      const p99 = (name: string) => summary.get(name)?.p99 ?? 0
      console.log(
        `${PUBLISHING}, p99 this checkout / baseline: ${(p99(PUBLISHING) / Math.max(1, p99(`${PUBLISHING}, baseline`))).toFixed(2)}x`,
      )
    }
    return summary
  } finally {
    await stopServers([server, ...(base ? [base] : [])])
    for (const db of [database, ...(baselineDb ? [baselineDb] : [])]) await db.drop()
  }
}

function printStandard(backend: BackendName, summary: Summary, download: Map<string, number>): void {
  console.log(`\n${backend}:`)
  const width = Math.max(24, ...[...summary.keys()].map((name) => name.length))
  for (const [name, r] of summary) {
    console.log(
      `${name.padEnd(width)} ${fixed(r.rps).padStart(8)} req/s   p99 ${String(r.p99).padStart(4)} ms   (${r.total} requests)${r.cpu === undefined ? '' : `   server CPU ${fixed(r.cpu, 1)} µs/request`}`,
    )
  }
  const rps = (name: string) => summary.get(name)?.rps ?? 0
  /** `line()` when every route of `names` was measured (`--routes`). */
  const when = (names: string[], line: () => string) => {
    if (names.every((name) => summary.has(name))) console.log(line())
  }
  console.log('')
  when(
    ['update check, cache on', 'hello world'],
    () =>
      `update check (cache on) / hello world: ${pct(rps('update check, cache on'), rps('hello world'))} (target >= 70 %)`,
  )
  for (const name of ['update check, Redis cache', 'update check, lean front off'])
    when(
      [name, 'hello world', 'update check, cache on'],
      () =>
        `${name} / hello world: ${pct(rps(name), rps('hello world'))}; / in-process cache with the lean front: ${pct(rps(name), rps('update check, cache on'))}`,
    )
  when(
    ['ramp + health, cache on', 'hello world', 'update check, cache on'],
    () =>
      `update check with a ramp and health reports (cache on) / hello world: ${pct(rps('ramp + health, cache on'), rps('hello world'))}, ${pct(rps('ramp + health, cache on'), rps('update check, cache on'))} of the plain cached check (target >= 90 %)`,
  )
  when(
    ['update check, rules + cohort', 'update check, cache on'],
    () =>
      `update check with a pin, a hold and a targeting rule, asked with a cohort (cache on): ${pct(rps('update check, rules + cohort'), rps('update check, cache on'))} of the plain cached check (target >= 90 %)`,
  )
  when(
    ['update check, cache off', 'hello world'],
    () => `update check (cache off) / hello world: ${pct(rps('update check, cache off'), rps('hello world'))}`,
  )
  when(
    ['update check, cache on', 'update check, cache off'],
    () => `cache on / cache off: ${(rps('update check, cache on') / rps('update check, cache off')).toFixed(2)}x`,
  )
  when(
    ['update check, cache on', 'cache on, telemetry off'],
    () =>
      `telemetry on / telemetry off (cache on): ${pct(rps('update check, cache on'), rps('cache on, telemetry off'))}`,
  )
  when(
    ['version listing', 'hello world'],
    () => `version listing / hello world: ${pct(rps('version listing'), rps('hello world'))}`,
  )
  when(
    ['update check, webhook', 'update check, cache on', 'hello world'],
    () =>
      `update check (cache on) with a webhook subscription / without: ${pct(rps('update check, webhook'), rps('update check, cache on'))} (target >= 95 %); / hello world: ${pct(rps('update check, webhook'), rps('hello world'))}`,
  )
  const cpu = (name: string) => summary.get(name)?.cpu ?? NaN
  for (const name of ['update check, cache on', 'feed (latest.yml), cache on', 'update check, Redis cache'])
    when(
      [name, `${name}, baseline`],
      () =>
        `${name}, this checkout / ${baseline ?? ''}: ${(rps(name) / rps(`${name}, baseline`)).toFixed(2)}x req/s, ${(cpu(name) / cpu(`${name}, baseline`)).toFixed(2)}x server CPU per request`,
    )
  console.log(`\nnginx-relative (nginx-light, one worker, pinned like the server, same run):`)
  when(
    ['feed (latest.yml), cache on', 'nginx static feed'],
    () =>
      `cached feed (latest.yml) / nginx static file of the same bytes: ${(rps('feed (latest.yml), cache on') / rps('nginx static feed')).toFixed(2)}x (target >= 0.7x)${summary.has('hello world') ? `; feed / hello world: ${pct(rps('feed (latest.yml), cache on'), rps('hello world'))}` : ''}`,
  )
  when(
    ['feed (latest.yml), cache on, baseline', 'nginx static feed'],
    () =>
      `the baseline's cached feed / nginx static file of the same bytes: ${(rps('feed (latest.yml), cache on, baseline') / rps('nginx static feed')).toFixed(2)}x`,
  )
  if (download.size === 0) return
  const [ferry, nginx, accel] = [download.get('ferry') ?? 0, download.get('nginx') ?? 0, download.get('accel') ?? 0]
  console.log(
    `64 MiB download, ${downloadClients} parallel curl clients: Ferry ${fixed(ferry)} MiB/s, nginx sendfile ${fixed(nginx)} MiB/s: ${(ferry / nginx).toFixed(2)}x (target >= 0.8x)`,
  )
  console.log(
    `the same download behind nginx (FERRY_ACCEL_REDIRECT_PREFIX: Ferry authorises, nginx sends): ${fixed(accel)} MiB/s: ${(accel / nginx).toFixed(2)}x nginx direct`,
  )
}

/** The catalogue mode on one backend: per size, a fresh database and one uncached server. */
async function catalogue(backend: BackendName): Promise<Summary> {
  const summary: Summary = new Map()
  for (const size of sizes) {
    const database = await freshDatabase(backend)
    const db = await database.open()
    const seeding = performance.now()
    await seedCatalogue(db, size)
    const seeded = performance.now() - seeding
    const adoption = await measureAdoption(db, await seedAdoption(db, size))
    console.log(
      `${backend} ${String(size).padStart(7)} versions, adoption of one version (30 days, 6,000 devices):   p50 ${fixed(adoption.p50, 2)} ms   p99 ${fixed(adoption.p99, 2)} ms (in process)`,
    )
    for (const plan of adoption.plans) console.log(`  plan ${plan}`)
    await db.destroy()
    const server = await startServerProcess(database, { FERRY_CACHE: 'off' })
    try {
      const url = (i: number) =>
        `${server.base}/v1/apps/${CATALOGUE_APP}/update?version=${catalogueVersion(i)}&platform=windows&arch=x64&format=ferry`
      const clients: Array<[string, string]> = [
        ['one release behind', url(size - 2)],
        ['on the oldest version', url(0)],
      ]
      for (const [name, u] of clients) {
        const failed = await probe(u).then(
          () => undefined,
          (error: unknown) => String(error),
        )
        if (failed) {
          console.log(`${backend} ${String(size).padStart(7)} versions, client ${name}: ${failed}`)
          continue
        }
        await load(u, 2, DEVICE, true)
        // Slow answers may time out (PostgreSQL's statement timeout: 503): counted, not fatal.
        const r = await load(u, duration, DEVICE, true)
        summary.set(`${size}\n${name}`, { ...r, cpu: undefined })
        const failures = r.non2xx + r.errors ? `   ${r.non2xx} non-2xx, ${r.errors} errors` : ''
        console.log(
          `${backend} ${String(size).padStart(7)} versions (seeded in ${fixed(seeded / 1000, 1)} s), client ${name.padEnd(22)} p50 ${String(r.p50).padStart(5)} ms   p99 ${String(r.p99).padStart(5)} ms   ${fixed(r.rps).padStart(6)} req/s${failures}`,
        )
      }
    } finally {
      await stopServers([server])
      await database.drop()
    }
  }
  const p99 = (size: number, client: string) => summary.get(`${size}\n${client}`)?.p99 ?? 0
  const [smallest, largest] = [Math.min(...sizes), Math.max(...sizes)]
  for (const client of ['one release behind', 'on the oldest version']) {
    const ratio =
      p99(largest, client) && p99(smallest, client)
        ? `${(p99(largest, client) / Math.max(1, p99(smallest, client))).toFixed(2)}x`
        : 'n/a (a size failed)'
    console.log(
      `${backend}: client ${client}: p99(${largest}) / p99(${smallest}) = ${ratio}${client === 'one release behind' ? ' (target <= 2x)' : ''}`,
    )
  }
  return summary
}

const loadWhere = pinned
  ? 'pinned: server processes on CPU 0, autocannon on CPU 1 (taskset); PostgreSQL itself is not pinned'
  : `not pinned (${availableParallelism() < 2 ? 'one CPU' : 'no taskset'}): server and load share the CPUs`
console.log(
  values.catalogue
    ? `Ferry catalogue benchmark: uncached update check, ${duration} s per client after a 2 s warm-up, ${connections} connections, sizes ${sizes.join(', ')}`
    : `Ferry server benchmark: ${(duration / 2) * rounds} s per route (${rounds} alternating rounds after a 2 s warm-up each), ${connections} connections`,
)
console.log(`127.0.0.1, logging off, device id sent (telemetry counts), autocannon in its own process, ${loadWhere}`)
const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')
console.log(`load average (1, 5, 15 min) at the start: ${loadAverage()}`)

const results = new Map<BackendName, Summary>()
try {
  for (const backend of backends) {
    if (values.catalogue) {
      results.set(backend, await catalogue(backend))
    } else {
      const summary: Summary = new Map()
      if (!routeWords?.every((word) => PUBLISHING.includes(word))) {
        const standardRun = await standard(backend)
        printStandard(backend, standardRun.summary, standardRun.download)
        for (const [name, r] of standardRun.summary) summary.set(name, r)
      }
      if (measured(PUBLISHING)) for (const [name, r] of await checksWhilePublishing(backend)) summary.set(name, r)
      results.set(backend, summary)
    }
  }
} finally {
  await postgres?.stop()
  await s3?.stop()
}
console.log(`\nload average (1, 5, 15 min) at the end: ${loadAverage()}`)

const [lite, post] = [results.get('sqlite'), results.get('postgres')]
for (const name of [PUBLISHING, `${PUBLISHING}, baseline`]) {
  const [l, p] = [lite?.get(name), post?.get(name)]
  if (l && p)
    console.log(
      `\n${name}: p99 PostgreSQL + S3 ${p.p99} ms, SQLite ${l.p99} ms: ${(p.p99 / Math.max(1, l.p99)).toFixed(2)}x (target <= 3x)`,
    )
}
if (lite && post) {
  console.log('\npostgres / sqlite (same run):')
  for (const [name, r] of post) {
    const base = lite.get(name)
    if (!base || name === 'hello world') continue
    console.log(
      `${name.replace('\n', ' versions, client ').padEnd(44)} req/s ${(r.rps / base.rps).toFixed(2)}x   p99 ${(r.p99 / Math.max(1, base.p99)).toFixed(2)}x`,
    )
  }
}
