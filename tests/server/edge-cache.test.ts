/**
 * A real cache in front: Debian's Varnish (services/varnish-server.ts, the VCL the performance
 * guide shows) before Ferry with FERRY_UPDATE_CACHE_SECONDS and FERRY_PURGE_URL set. Answers
 * every device gets alike are served by the cache (the origin counts one request for many
 * checks), a pull is in the very next answer through the cache, and a device in a 5 % rollout
 * never gets an answer computed for another device, nor one cohort another's. On PostgreSQL, two instances behind the
 * cache: a write on either purges it.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import {
  eventually,
  httpFetch,
  jsonBody,
  prepareUploadTeam,
  startTestServer,
  testDatabaseUrl,
  uploadExe,
  uploadMsixFixture,
  type Fetch,
  type TestServer,
} from './helpers.ts'
import { edgeVcl, freePort, startVarnish, type Varnish } from '../../services/varnish-server.ts'
import { startPostgres, type TestPostgres } from '../../services/postgres-server.ts'

const EDGE = { edgeCaching: { cacheSeconds: 300, staleSeconds: 30 } }

let server: TestServer
let varnish: Varnish
let origin: Fetch
let edge: Fetch

/** Requests the origin answered, by operation (its Prometheus counter). */
async function originRequests(metricsUrl: string | undefined, operation: string): Promise<number> {
  const text = await (await fetch(metricsUrl ?? '')).text()
  let sum = 0
  for (const line of text.split('\n')) {
    if (line.startsWith('ferry_http_requests_total{') && line.includes(`operation="${operation}"`))
      sum += Number(line.split(' ').pop())
  }
  return sum
}

/** The value of a counter without labels in a server's metrics. */
async function metricValue(metricsUrl: string | undefined, name: string): Promise<number> {
  const text = await (await fetch(metricsUrl ?? '')).text()
  const line = text.split('\n').find((l) => l.startsWith(`${name} `))
  assert.ok(line, `${name} is in the metrics`)
  return Number(line.split(' ').pop())
}

async function startEdge(backends: TestServer[], port: number): Promise<Varnish> {
  return startVarnish(edgeVcl(backends.map((b) => new URL(b.url).host)), port)
}

before(async () => {
  const port = await freePort()
  server = await startTestServer(undefined, {
    ...EDGE,
    purge: { url: `http://127.0.0.1:${port}/`, method: 'PURGE' },
    metrics: { host: '127.0.0.1', port: await freePort() },
  })
  varnish = await startEdge([server], port)
  origin = httpFetch(server.url)
  edge = httpFetch(varnish.url)
})
after(async () => {
  await varnish?.stop()
  await server?.stop()
})

const check = (f: Fetch, app: string, version: string, deviceId?: string) =>
  f(
    `/v1/apps/${app}/update?version=${version}&platform=windows&arch=x64&format=ferry`,
    deviceId ? { headers: { 'x-ferry-device-id': deviceId } } : {},
  )

async function offered(res: Response): Promise<string | null> {
  if (res.status === 204) return null
  assert.equal(res.status, 200, await res.clone().text())
  return ((await res.json()) as { version: string }).version
}

test('answers every device gets alike are served by the cache: many checks, one origin request per endpoint', async () => {
  const token = await prepareUploadTeam(origin, 'edge-feeds')
  assert.equal((await origin('/v1/platforms', jsonBody({ name: 'darwin' }, token))).status, 201)
  await uploadExe(origin, token, 'edge-feeds', '1.1.0')
  await uploadMsixFixture(origin, token, 'edge-feeds', '1.0.5')
  const endpoints: Array<[string, string]> = [
    ['checkForUpdate', '/v1/apps/edge-feeds/update?version=1.0.0&platform=windows&arch=x64&format=ferry'],
    ['checkForUpdate', '/v1/apps/edge-feeds/update?version=1.1.0&platform=windows&arch=x64&format=ferry'],
    ['getLatestBuild', '/v1/apps/edge-feeds/latest?channel=stable&platform=windows&arch=x64&packageType=exe'],
    ['getSquirrelReleases', '/v1/apps/edge-feeds/squirrel/stable/x64/RELEASES?localVersion=1.0.0'],
    ['getSquirrelMacUpdate', '/v1/apps/edge-feeds/squirrel-mac/stable/x64?version=1.0.0'],
    ['getElectronUpdaterFeed', '/v1/apps/edge-feeds/electron-updater/stable/windows/x64/1.0.0/latest.yml'],
    ['getTauriUpdate', '/v1/apps/edge-feeds/tauri/stable/windows/x86_64/1.0.0'],
    ['getVelopackFile', '/v1/apps/edge-feeds/velopack/stable/windows/x64/releases.stable.json?localVersion=1.0.0'],
    ['getSparkleAppcast', '/v1/apps/edge-feeds/sparkle/stable/windows/x64/appcast.xml?version=1.0.0'],
    ['getMsixUpdate', '/v1/apps/edge-feeds/msix/stable/x64?version=1.0.0'],
    ['getMsixAppInstaller', '/v1/apps/edge-feeds/msix/stable/x64/app.appinstaller'],
  ]
  for (const [operation, path] of endpoints) {
    const before = await originRequests(server.metricsUrl, operation)
    const bodies = new Set<string>()
    for (let i = 0; i < 10; i++) {
      // Every check names another device: a device id alone does not make an answer private.
      const res = await edge(path, { headers: { 'x-ferry-device-id': `device-${i}` } })
      assert.ok([200, 204, 302].includes(res.status), `${path}: ${res.status} ${await res.clone().text()}`)
      assert.match(res.headers.get('cache-control') ?? '', /^public, max-age=\d+/, path)
      assert.match(res.headers.get('surrogate-key') ?? '', /(^| )ferry-app-edge-feeds( |$)/, path)
      bodies.add(`${res.status} ${res.headers.get('location') ?? ''} ${await res.text()}`)
    }
    assert.equal(bodies.size, 1, `${path}: one answer for every device`)
    assert.equal(
      (await originRequests(server.metricsUrl, operation)) - before,
      1,
      `${path}: the origin answered once for 10 checks`,
    )
  }
})

test('an error is never kept: an app created after a 404 answers through the cache at once', async () => {
  const path = '/v1/apps/edge-late/update?version=1.0.0&platform=windows&arch=x64&format=ferry'
  const missing = await edge(path)
  assert.equal(missing.status, 404)
  assert.equal(missing.headers.get('cache-control'), 'no-store')
  const token = await prepareUploadTeam(origin, 'edge-late')
  await uploadExe(origin, token, 'edge-late', '1.1.0')
  assert.equal(await offered(await edge(path)), '1.1.0')
})

test('a conditional request for a cacheable answer gets 304 from the origin', async () => {
  const first = await check(origin, 'edge-feeds', '1.0.0')
  const etag = first.headers.get('etag')
  assert.match(etag ?? '', /^"[0-9a-f]{32}"$/)
  const again = await origin('/v1/apps/edge-feeds/update?version=1.0.0&platform=windows&arch=x64&format=ferry', {
    headers: { 'if-none-match': etag ?? '' },
  })
  assert.equal(again.status, 304)
  assert.equal(again.headers.get('etag'), etag)
  assert.equal(await again.text(), '')
})

test('a pull is in the very next answer through the cache, and so are pause and resume', async () => {
  const token = await prepareUploadTeam(origin, 'edge-pull')
  await uploadExe(origin, token, 'edge-pull', '1.0.0')
  const id = await uploadExe(origin, token, 'edge-pull', '1.1.0')
  const before = await originRequests(server.metricsUrl, 'checkForUpdate')
  assert.equal(await offered(await check(edge, 'edge-pull', '1.0.0')), '1.1.0')
  assert.equal(await offered(await check(edge, 'edge-pull', '1.0.0')), '1.1.0')
  assert.equal(
    (await originRequests(server.metricsUrl, 'checkForUpdate')) - before,
    1,
    'the second check was a cache hit',
  )

  assert.equal(
    (await origin(`/v1/apps/edge-pull/versions/${id}/pause`, jsonBody({ reason: 'crash on start' }, token))).status,
    200,
  )
  assert.equal(
    await offered(await check(edge, 'edge-pull', '1.0.0')),
    null,
    'paused: no longer offered through the cache',
  )
  assert.equal((await origin(`/v1/apps/edge-pull/versions/${id}/resume`, jsonBody({}, token))).status, 200)
  assert.equal(await offered(await check(edge, 'edge-pull', '1.0.0')), '1.1.0', 'resumed: offered again')
  assert.equal(
    (await origin(`/v1/apps/edge-pull/versions/${id}/pull`, jsonBody({ reason: 'corrupts data' }, token))).status,
    200,
  )
  assert.equal(await offered(await check(edge, 'edge-pull', '1.0.0')), null, 'pulled: the cached offer is gone')
})

test('a device in a 5 % rollout never receives an answer computed for another device', async () => {
  const token = await prepareUploadTeam(origin, 'edge-ramp')
  await uploadExe(origin, token, 'edge-ramp', '1.0.0')
  await uploadExe(origin, token, 'edge-ramp', '2.0.0', { rolloutPercentage: '5' })
  const got = new Map<string, string | null>()
  for (let i = 0; i < 200; i++) {
    const device = `ramp-device-${i}`
    const res = await check(edge, 'edge-ramp', '1.0.0', device)
    assert.equal(res.headers.get('cache-control'), 'no-store', 'an answer that depends on the device is never stored')
    got.set(device, await offered(res))
  }
  const inRollout = [...got.values()].filter((v) => v === '2.0.0').length
  assert.ok(inRollout > 0 && inRollout < 200, `some devices are in the 5 % and some are not (${inRollout} of 200)`)
  for (const [device, version] of got) {
    assert.equal(
      version,
      await offered(await check(origin, 'edge-ramp', '1.0.0', device)),
      `${device} got its own answer through the cache`,
    )
  }
})

test("two cohorts asking the same URL shape never get each other's answers; a pin change is in the next answer", async () => {
  const token = await prepareUploadTeam(origin, 'edge-pins')
  await uploadExe(origin, token, 'edge-pins', '1.4.0')
  await uploadExe(origin, token, 'edge-pins', '1.4.3')
  await uploadExe(origin, token, 'edge-pins', '2.0.0')
  const pin = await origin('/v1/apps/edge-pins/rules', jsonBody({ kind: 'pin', cohort: 'acme', range: '1.4.x' }, token))
  assert.equal(pin.status, 201)
  const feed = (cohort: string) =>
    `/v1/apps/edge-pins/update?version=1.4.0&platform=windows&arch=x64&format=ferry&cohort=${cohort}`
  const before = await originRequests(server.metricsUrl, 'checkForUpdate')
  for (let round = 0; round < 3; round++) {
    const acme = await edge(feed('acme'))
    assert.match(acme.headers.get('cache-control') ?? '', /^public/, 'a cohort in the URL is shared per URL')
    assert.equal(await offered(acme), '1.4.3', 'acme stays within its pin')
    assert.equal(await offered(await edge(feed('globex'))), '2.0.0', 'globex is not pinned')
  }
  assert.equal((await originRequests(server.metricsUrl, 'checkForUpdate')) - before, 2, 'one origin answer per cohort')
  // In a header the cohort is not part of the URL the cache keys on: such answers are not stored.
  const byHeader = await edge('/v1/apps/edge-pins/update?version=1.4.0&platform=windows&arch=x64&format=ferry', {
    headers: { 'x-ferry-cohort': 'acme' },
  })
  assert.equal(byHeader.headers.get('cache-control'), 'no-store')
  assert.equal(await offered(byHeader), '1.4.3')
  assert.equal(
    await offered(await check(edge, 'edge-pins', '1.4.0')),
    '2.0.0',
    'the same URL without the header: not the acme answer',
  )
  const { id } = (await pin.json()) as { id: string }
  assert.equal(
    (
      await origin(`/v1/apps/edge-pins/rules/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      })
    ).status,
    204,
  )
  assert.equal(await offered(await edge(feed('acme'))), '2.0.0', 'the pin removed: purged, acme gets 2.0.0')
})

test('on PostgreSQL, two instances behind the cache: a write on either purges it', async (t) => {
  let pg: TestPostgres | undefined
  let databaseUrl = await testDatabaseUrl()
  if (!databaseUrl) {
    pg = await startPostgres()
    databaseUrl = await pg.createDatabase()
  }
  const port = await freePort()
  const config = {
    ...EDGE,
    databaseUrl,
    purge: { url: `http://127.0.0.1:${port}/`, method: 'PURGE' as const },
    metrics: { host: '127.0.0.1', port: 0 },
  }
  const a = await startTestServer(undefined, { ...config, metrics: { host: '127.0.0.1', port: await freePort() } })
  const b = await startTestServer(undefined, { ...config, metrics: { host: '127.0.0.1', port: await freePort() } })
  const front = await startEdge([a, b], port)
  t.after(async () => {
    await front.stop()
    await Promise.all([a.stop(), b.stop()])
    await pg?.stop()
  })
  const [fa, fb, fe] = [httpFetch(a.url), httpFetch(b.url), httpFetch(front.url)]
  const token = await prepareUploadTeam(fa, 'edge-two')
  await uploadExe(fa, token, 'edge-two', '1.0.0')
  const id = await uploadExe(fa, token, 'edge-two', '1.1.0')
  const served = async () => {
    const counts = await Promise.all([a, b].map((s) => originRequests(s.metricsUrl, 'checkForUpdate')))
    return counts[0]! + counts[1]!
  }
  const before = await served()
  for (let i = 0; i < 10; i++) assert.equal(await offered(await check(fe, 'edge-two', '1.0.0')), '1.1.0')
  assert.equal((await served()) - before, 1, 'one origin request for 10 checks across two instances')
  // Each instance keeps its own answers: a's, asked directly, is filled here.
  const heard = () => metricValue(a.metricsUrl, 'ferry_answer_cache_peer_invalidations_total')
  const heardBefore = await heard()
  assert.equal(await offered(await check(fa, 'edge-two', '1.0.0')), '1.1.0')

  // A write on b purges the cache; a, which may still hold its own answer, purges again once it
  // has heard b's invalidation (PostgreSQL NOTIFY), so no stale refill outlives that.
  assert.equal(
    (await fb(`/v1/apps/edge-two/versions/${id}/pull`, jsonBody({ reason: 'bad build' }, token))).status,
    200,
  )
  // a hears b's write (PostgreSQL NOTIFY) and drops its own answer: asked directly, it has no stale one.
  await eventually(async () => (await heard()) > heardBefore, "a hears b's invalidation")
  assert.equal(await offered(await check(fa, 'edge-two', '1.0.0')), null, "a's own cached answer is gone")
  assert.equal(
    await settled(async () => offered(await check(fe, 'edge-two', '1.0.0')), null),
    null,
    'the pull on b reached the cache',
  )
  for (let i = 0; i < 10; i++)
    assert.equal(await offered(await check(fe, 'edge-two', '1.0.0')), null, 'and stays there')

  // And the other way round: a write on a.
  const newer = await uploadExe(fa, token, 'edge-two', '1.2.0')
  assert.equal(
    await offered(await check(fe, 'edge-two', '1.0.0')),
    '1.2.0',
    'an upload on a is in the next answer through the cache',
  )
  assert.equal(
    (await fa(`/v1/apps/edge-two/versions/${newer}/pull`, jsonBody({ reason: 'bad too' }, token))).status,
    200,
  )
  assert.equal(await settled(async () => offered(await check(fe, 'edge-two', '1.0.0')), null), null)
})

/**
 * The value once `read` returns `want`, or its last value after a second: with two instances on
 * PostgreSQL the invalidation reaches the other instance's own answers over the network.
 */
async function settled<T>(read: () => Promise<T>, want: T): Promise<T> {
  let value = await read()
  for (let i = 0; i < 20 && value !== want; i++) {
    await new Promise((r) => setTimeout(r, 50))
    value = await read()
  }
  return value
}
