/**
 * The Node runtime's fast lane of cached update answers (server/runtime/update-lane-node.ts,
 * server/routes/update-lane.ts) against the normal Hono path on the same server and the same
 * cached answer: each format's feed and the JSON check give the same status, headers and body
 * (304 and a private app's answers included), count the same (requests, cache hits, telemetry),
 * and a pull or pause is in the next answer: the lane never serves an invalidated entry. The
 * latest-build link and the App Installer file likewise; and a miss reads the answer cache once
 * (counted in a real Redis), not once in the lane and again in the handler.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { createClient } from 'redis'
import { freePort } from '../../services/nginx-server.ts'
import { startRedis } from '../../services/redis-server.ts'
import {
  bearer,
  httpFetch,
  jsonBody,
  prepareUploadTeam,
  startTestServer,
  uploadExe,
  uploadMsixFixture,
  type Fetch,
  type TestServer,
} from './helpers.ts'

const DEVICE = { 'x-ferry-device-id': 'lane-device-1' }

let server: TestServer
let f: Fetch
let token: string
/** Each app's team token (telemetry is read per team). */
const tokens = new Map<string, string>()

async function team(app: string): Promise<string> {
  token = await prepareUploadTeam(f, app)
  tokens.set(app, token)
  return token
}

before(async () => {
  server = await startTestServer(undefined, {
    edgeCaching: { cacheSeconds: 300, staleSeconds: 30 },
    metrics: { host: '127.0.0.1', port: await freePort() },
  })
  f = httpFetch(server.url)
  await team('lane-feeds')
  assert.equal((await f('/v1/platforms', jsonBody({ name: 'darwin' }, token))).status, 201)
  await upload('lane-feeds', '1.1.0')
  await uploadMsixFixture(f, token, 'lane-feeds', '1.0.5')
})
after(async () => {
  await server?.stop()
})

function upload(app: string, version: string, fields: Record<string, string> = {}): Promise<string> {
  return uploadExe(f, token, app, version, fields)
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)

/**
 * What a served check moves: the operation's requests and the cache hits and misses (metrics),
 * and the app's update checks in telemetry (read through the API, which writes the buffer first).
 */
async function counts(operation: string, path: string): Promise<Record<string, number>> {
  const text = await (await fetch(server.metricsUrl ?? '')).text()
  const out: Record<string, number> = { requests: 0, hits: 0, misses: 0, telemetry: 0 }
  const add = (name: string, value: number) => (out[name] = (out[name] ?? 0) + value)
  for (const line of text.split('\n')) {
    const value = Number(line.split(' ').pop())
    if (line.startsWith('ferry_http_requests_total{') && line.includes(`operation="${operation}"`))
      add('requests', value)
    if (line.startsWith('ferry_update_checks_total{') && line.includes('cache="hit"')) add('hits', value)
    if (line.startsWith('ferry_update_checks_total{') && line.includes('cache="miss"')) add('misses', value)
  }
  const app = path.split('/')[3] ?? ''
  const res = await f(`/v1/telemetry?from=${day(-1)}&to=${day(1)}&app=${app}`, bearer(tokens.get(app) ?? token))
  assert.equal(res.status, 200, await res.clone().text())
  for (const item of ((await res.json()) as { items: Array<{ checks: number }> }).items) add('telemetry', item.checks)
  return out
}

const delta = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(Object.keys(a).map((k) => [k, (b[k] ?? 0) - (a[k] ?? 0)]))

interface Seen {
  status: number
  headers: Array<[string, string]>
  body: string
  /** What the request moved in the metrics. */
  counted: Record<string, number>
  /** Whether the fast lane answered it. */
  byLane: boolean
}

/** One request with the lane on (`lane`) or off; every header but Date. */
async function seen(operation: string, path: string, headers: Record<string, string>, lane: boolean): Promise<Seen> {
  server.lane.enabled = lane
  try {
    const before = await counts(operation, path)
    const answered = server.lane.answered
    const res = await f(path, { headers })
    const body = await res.text()
    return {
      status: res.status,
      headers: [...res.headers].filter(([name]) => name !== 'date'),
      body,
      counted: delta(before, await counts(operation, path)),
      byLane: server.lane.answered > answered,
    }
  } finally {
    server.lane.enabled = true
  }
}

/** Asks once to fill the cache, then with the lane and without: both must be the same; returns the lane's. */
async function same(operation: string, path: string, headers: Record<string, string> = DEVICE): Promise<Seen> {
  await f(path, { headers })
  const fast = await seen(operation, path, headers, true)
  const normal = await seen(operation, path, headers, false)
  assert.equal(normal.byLane, false)
  assert.equal(fast.byLane, true, `${path}: the lane answered the cached request`)
  const { byLane: _f, ...fastSeen } = fast
  const { byLane: _n, ...normalSeen } = normal
  assert.deepEqual(fastSeen, normalSeen, `${path}: the lane's answer and count are the normal path's`)
  return fast
}

const FEEDS: Array<[string, string]> = [
  ['checkForUpdate', '/v1/apps/lane-feeds/update?version=1.0.0&platform=windows&arch=x64&format=ferry'],
  ['checkForUpdate', '/v1/apps/lane-feeds/update?version=1.1.0&platform=windows&arch=x64'],
  ['getSquirrelReleases', '/v1/apps/lane-feeds/squirrel/stable/x64/RELEASES?localVersion=1.0.0'],
  ['getSquirrelReleases', '/v1/apps/lane-feeds/squirrel/stable/x64/RELEASES'],
  ['getSquirrelMacUpdate', '/v1/apps/lane-feeds/squirrel-mac/stable/x64?version=1.0.0'],
  ['getElectronUpdaterFeed', '/v1/apps/lane-feeds/electron-updater/stable/windows/x64/1.0.0/latest.yml'],
  ['getTauriUpdate', '/v1/apps/lane-feeds/tauri/stable/windows/x86_64/1.0.0'],
  ['getVelopackFile', '/v1/apps/lane-feeds/velopack/stable/windows/x64/releases.stable.json?localVersion=1.0.0'],
  ['getSparkleAppcast', '/v1/apps/lane-feeds/sparkle/stable/windows/x64/appcast.xml?version=1.0.0'],
  ['getMsixUpdate', '/v1/apps/lane-feeds/msix/stable/x64?version=1.0.0'],
]

test("every format's cached answer: the lane gives the normal path's status, headers and body, and counts the same", async () => {
  for (const [operation, path] of FEEDS) {
    const fast = await same(operation, path)
    assert.ok([200, 204].includes(fast.status), `${path}: ${fast.status} ${fast.body}`)
    const telemetry = path.endsWith('/RELEASES') ? 0 : 1 // Squirrel.Windows without localVersion names no version
    assert.deepEqual(fast.counted, { requests: 1, hits: 1, misses: 0, telemetry }, path)
    assert.match(new Map(fast.headers).get('cache-control') ?? '', /^public, max-age=\d+/, path)
  }
})

test("the latest-build link and the App Installer file: the lane gives the normal path's answer, counted alike", async () => {
  const latest = await same('getLatestBuild', '/v1/apps/lane-feeds/latest?packageType=exe&platform=windows&arch=x64')
  assert.equal(latest.status, 302)
  assert.match(new Map(latest.headers).get('location') ?? '', /\/download/)
  assert.deepEqual(latest.counted, { requests: 1, hits: 0, misses: 0, telemetry: 0 }, 'no update check is counted')
  for (const query of ['', '?hoursBetweenUpdateChecks=8&showPrompt=true']) {
    const path = `/v1/apps/lane-feeds/msix/stable/x64/app.appinstaller${query}`
    const file = await same('getMsixAppInstaller', path)
    assert.equal(file.status, 200, file.body)
    assert.match(file.body, /<AppInstaller /)
    assert.match(new Map(file.headers).get('cache-control') ?? '', /^public, max-age=\d+/, path)
    assert.deepEqual(file.counted, { requests: 1, hits: 0, misses: 0, telemetry: 0 }, path)
    const etag = new Map(file.headers).get('etag') ?? ''
    assert.equal((await same('getMsixAppInstaller', path, { 'if-none-match': etag })).status, 304)
  }
  const bad = await seen(
    'getMsixAppInstaller',
    '/v1/apps/lane-feeds/msix/stable/x64/app.appinstaller?updateBlocksActivation=true',
    {},
    true,
  )
  assert.equal(bad.status, 400, 'settings App Installer refuses are refused, cached answer or not')
  assert.equal(bad.byLane, false)
})

test('a new release is in the next App Installer file and latest-build link: the lane never serves the older one', async () => {
  await team('lane-msix')
  const publish = (version: string) => uploadMsixFixture(f, token, 'lane-msix', version)
  await publish('1.0.0')
  const file = '/v1/apps/lane-msix/msix/stable/x64/app.appinstaller'
  const latest = '/v1/apps/lane-msix/latest?packageType=msix&platform=windows&arch=x64'
  assert.match((await same('getMsixAppInstaller', file)).body, /lane-msix-1\.0\.0\.msix/)
  assert.match(new Map((await same('getLatestBuild', latest)).headers).get('location') ?? '', /\/download/)
  const before = new Map((await f(latest)).headers).get('location')
  await publish('1.1.0')
  const answered = server.lane.answered
  assert.match(await (await f(file)).text(), /lane-msix-1\.1\.0\.msix/, 'the new release, not the cached file')
  assert.notEqual(new Map((await f(latest)).headers).get('location'), before, 'the new build, not the cached link')
  assert.equal(server.lane.answered, answered, 'neither was a lane hit')
})

test('a conditional request: the lane answers 304 exactly as the normal path', async () => {
  const path = '/v1/apps/lane-feeds/electron-updater/stable/windows/x64/1.0.0/latest.yml'
  const etag = (await f(path)).headers.get('etag') ?? ''
  assert.match(etag, /^"[0-9a-f]{32}"$/)
  const fast = await same('getElectronUpdaterFeed', path, { ...DEVICE, 'if-none-match': etag })
  assert.equal(fast.status, 304)
  assert.equal(fast.body, '')
  const other = await same('getElectronUpdaterFeed', path, { ...DEVICE, 'if-none-match': '"0000"' })
  assert.equal(other.status, 200)
})

test("a device on a partial rollout: the lane gives each device the normal path's answer for it", async () => {
  await team('lane-ramp')
  await upload('lane-ramp', '1.0.0')
  await upload('lane-ramp', '2.0.0', { rolloutPercentage: '50' })
  const path = '/v1/apps/lane-ramp/update?version=1.0.0&platform=windows&arch=x64&format=ferry'
  const versions = new Set<string>()
  for (let i = 0; i < 8; i++) {
    const fast = await same('checkForUpdate', path, { 'x-ferry-device-id': `ramp-device-${i}` })
    versions.add(fast.status === 204 ? 'none' : fast.body)
    assert.match(new Map(fast.headers).get('cache-control') ?? '', /no-store/, 'an answer per device stays private')
  }
  assert.equal(versions.size, 2, 'some devices are in the rollout and some are not')
})

test("a private app's answers (signed links, private) are the same through the lane", async () => {
  await team('lane-private')
  await upload('lane-private', '1.1.0')
  assert.equal(
    (await f('/v1/apps/lane-private', { ...jsonBody({ private: true }, token), method: 'PATCH' })).status,
    200,
  )
  const fast = await same(
    'checkForUpdate',
    '/v1/apps/lane-private/update?version=1.0.0&platform=windows&arch=x64&format=ferry',
  )
  assert.match(fast.body, /expires=\d+&signature=[0-9a-f]{64}/)
  assert.doesNotMatch(new Map(fast.headers).get('cache-control') ?? '', /public/)
})

test('a pull or a pause is in the next answer: the lane never serves the invalidated entry', async () => {
  await team('lane-pull')
  await upload('lane-pull', '1.0.0')
  const id = await upload('lane-pull', '1.1.0')
  const path = '/v1/apps/lane-pull/update?version=1.0.0&platform=windows&arch=x64&format=ferry'
  const offered = async () => {
    const res = await f(path, { headers: DEVICE })
    return res.status === 204 ? null : ((await res.json()) as { version: string }).version
  }
  assert.match((await same('checkForUpdate', path)).body, /"version":"1\.1\.0"/)
  assert.equal(
    (await f(`/v1/apps/lane-pull/versions/${id}/pause`, jsonBody({ reason: 'crash on start' }, token))).status,
    200,
  )
  assert.equal(await offered(), null, 'paused: not offered')
  assert.equal((await same('checkForUpdate', path)).status, 204, 'the paused answer is cached and laned')
  assert.equal((await f(`/v1/apps/lane-pull/versions/${id}/resume`, jsonBody({}, token))).status, 200)
  assert.equal(await offered(), '1.1.0', 'resumed')
  assert.equal(
    (await f(`/v1/apps/lane-pull/versions/${id}/pull`, jsonBody({ reason: 'corrupts data' }, token))).status,
    200,
  )
  // The write computes its app's hot answers again, so the lane may answer the very next check,
  // but only with the answer from after the pull.
  assert.equal(await offered(), null, 'pulled: the cached offer is gone')
  assert.equal(await offered(), null, 'and stays gone')
})

test('requests the lane does not answer take the normal path: unknown apps, bad parameters, an encoded path', async () => {
  const cases: Array<[string, number]> = [
    ['/v1/apps/no-such-app/update?version=1.0.0&platform=windows&arch=x64', 404],
    ['/v1/apps/lane-feeds/update?version=v1&platform=windows&arch=x64', 400],
    ['/v1/apps/lane-feeds/update?version=1.0.0&platform=windows', 400],
    ['/v1/apps/lane-feeds/update?version=1.0.0&platform=windows&arch=x64&format=nope', 400],
    ['/v1/apps/lane-%66eeds/update?version=1.0.0&platform=windows&arch=x64', 200],
    ['/v1/apps/lane-feeds/update/?version=1.0.0&platform=windows&arch=x64', 404],
  ]
  for (const [path, status] of cases) {
    await f(path, { headers: DEVICE })
    const fast = await seen('checkForUpdate', path, DEVICE, true)
    const normal = await seen('checkForUpdate', path, DEVICE, false)
    assert.equal(fast.status, status, `${path}: ${fast.body}`)
    assert.equal(fast.byLane, false, `${path}: not answered by the lane`)
    assert.deepEqual({ ...fast, byLane: false }, normal, path)
  }
  // The query is read as Hono reads it (its own function): decoded, the first of repeated names.
  for (const path of [
    '/v1/apps/lane-feeds/update?version=1.0.0&platform=windows&arch=x%36%34',
    '/v1/apps/lane-feeds/update?version=1.0.0&platform=windows&arch=x64&arch=arm64',
    '/v1/apps/lane-feeds/update?version=1.0.0&platform=windows&arch=x64&format=ferry&x=a+b%zz',
  ]) {
    await f(path, { headers: DEVICE })
    const fast = await seen('checkForUpdate', path, DEVICE, true)
    const normal = await seen('checkForUpdate', path, DEVICE, false)
    assert.equal(fast.status, 200, `${path}: ${fast.body}`)
    assert.equal(fast.byLane, true, `${path}: answered by the lane`)
    assert.deepEqual({ ...fast, byLane: false }, normal, path)
  }
  const bad = await seen('checkForUpdate', FEEDS[0]?.[1] ?? '', { 'x-ferry-device-id': 'x'.repeat(1000) }, true)
  assert.equal(bad.status, 400, 'a device id the contract refuses is refused, cached answer or not')
  assert.equal(bad.byLane, false)
})

test('with CORS origins configured, the lane adds the CORS headers the middleware adds', async () => {
  const cors = await startTestServer(undefined, { corsOrigins: ['https://admin.example'] })
  try {
    const g = httpFetch(cors.url)
    await prepareUploadTeam(g, 'lane-cors')
    const path = '/v1/apps/lane-cors/update?version=1.0.0&platform=windows&arch=x64&format=ferry'
    for (const origin of ['https://admin.example', 'https://other.example']) {
      const headers = { ...DEVICE, origin }
      await g(path, { headers })
      const answers: Array<[number, Array<[string, string]>]> = []
      for (const lane of [true, false]) {
        cors.lane.enabled = lane
        const answered = cors.lane.answered
        const res = await g(path, { headers })
        assert.equal(cors.lane.answered > answered, lane, `lane ${lane ? 'on' : 'off'} for ${origin}`)
        answers.push([res.status, [...res.headers].filter(([name]) => name !== 'date')])
      }
      cors.lane.enabled = true
      assert.deepEqual(answers[0], answers[1], origin)
      assert.ok(new Map(answers[0]?.[1]).get('vary')?.includes('Origin'), 'the answer varies by Origin')
    }
  } finally {
    await cors.stop()
  }
})

test('a miss reads the answer cache once: the handler does not read again what the lane missed', async () => {
  const redis = await startRedis()
  const cached = await startTestServer(undefined, { redisUrl: redis.url })
  const client = createClient({ url: redis.url })
  try {
    await client.connect()
    /** HGETs Redis served: one per read of an answer. */
    const reads = async () => Number(/cmdstat_hget:calls=(\d+)/.exec(await client.info('commandstats'))?.[1] ?? 0)
    const g = httpFetch(cached.url)
    await prepareUploadTeam(g, 'lane-once')
    // A version per request: each asks an answer the cache does not hold yet.
    const paths = (v: string) => [
      `/v1/apps/lane-once/update?version=${v}&platform=windows&arch=x64&format=ferry`,
      `/v1/apps/lane-once/electron-updater/stable/windows/x64/${v}/latest.yml`,
      `/v1/apps/lane-once/velopack/stable/windows/x64/releases.stable.json?localVersion=${v}`,
    ]
    for (const [i, lane] of [true, false].entries()) {
      cached.lane.enabled = lane
      for (const path of paths(`1.0.${i}`)) {
        const before = await reads()
        const answered = cached.lane.answered
        const res = await g(path, { headers: DEVICE })
        assert.ok(res.status < 500, `${path}: ${res.status}`)
        await res.arrayBuffer()
        assert.equal(cached.lane.answered, answered, `${path}: a miss`)
        assert.equal(await reads(), before + 1, `${path}, lane ${lane ? 'on' : 'off'}: one read of the cache`)
      }
    }
  } finally {
    cached.lane.enabled = true
    await client.quit()
    await cached.stop()
    await redis.stop()
  }
})
