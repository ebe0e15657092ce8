/**
 * The headers that let a CDN keep update answers, without Varnish (edge-cache.test.ts runs the
 * real cache): which answers are shared, how long (never past a ramp's next step), `304`, and
 * which writes send a purge to FERRY_PURGE_URL, with retries and `purge failed`.
 */
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { sharedCacheControl } from '../../server/cache/edge-headers.ts'
import { httpPurger } from '../../server/cache/edge-purge.ts'
import type { Logger } from '../../server/core/logger.ts'
import { bearer, jsonBody, memoryApp, signup, uploadForm, type Fetch } from './helpers.ts'

const MINUTE = 60_000
const START = Date.parse('2026-03-02T09:00:00Z')
let now = START
const logged: Array<{ obj: object; msg: string | undefined }> = []
const logger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error: (obj, msg) => {
    logged.push({ obj, msg })
  },
}

/** The purge endpoint: records each request's method and keys; answers `failures` 503s first. */
let purges: Array<{ method: string; keys: string }> = []
let failures = 0
let purgeServer: Server
let f: Fetch
let token: string
const ids: Record<string, string> = {}

before(async () => {
  purgeServer = createServer((req, res) => {
    purges.push({ method: req.method ?? '', keys: String(req.headers['x-purge-keys'] ?? '') })
    res.statusCode = failures-- > 0 ? 503 : 200
    res.end()
  })
  await new Promise<void>((done) => purgeServer.listen(0, '127.0.0.1', done))
  const purgeUrl = `http://127.0.0.1:${(purgeServer.address() as AddressInfo).port}/`
  const m = await memoryApp(
    {
      edgeCaching: { cacheSeconds: 3600, staleSeconds: 600 },
      healthPolicy: { maxFailureRatio: 0.2, minReports: 2, minAddresses: 1 },
    },
    () => new Date(now),
    { logger, edgePurger: httpPurger(purgeUrl, 'PURGE') },
  )
  f = m.fetch
  token = (await signup(f, 'admin@edge-headers.test')).token
  for (const [path, body] of [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/apps', { slug: 'tide', name: 'Tide' }],
  ] as const) {
    assert.equal((await f(path, jsonBody(body, token))).status, 201)
  }
  for (const version of ['1.0.0', '1.1.0']) {
    const res = await f(
      '/v1/apps/tide/versions',
      bearer(token, {
        method: 'POST',
        body: uploadForm({ version, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }, [
          [`Tide-${version}.exe`, `tide ${version}`],
        ]),
      }),
    )
    assert.equal(res.status, 201)
    ids[version] = ((await res.json()) as { id: string }).id
  }
})
after(() => new Promise<void>((done) => purgeServer.close(() => done())))

const feed = (version: string, init?: RequestInit) =>
  f(`/v1/apps/tide/electron-updater/stable/windows/x64/${version}/latest.yml`, init)
const ferry = (version: string, deviceId: string) =>
  f(`/v1/apps/tide/update?version=${version}&platform=windows&arch=x64&format=ferry`, {
    headers: { 'x-ferry-device-id': deviceId },
  })
const patch = (path: string, body: unknown) => f(path, { ...jsonBody(body, token), method: 'PATCH' })

test('the TTL never runs past the next change, stale serving included', () => {
  const edge = { cacheSeconds: 300, staleSeconds: 60 }
  assert.equal(sharedCacheControl(edge, 0, undefined), 'public, max-age=300, stale-while-revalidate=60')
  assert.equal(sharedCacheControl(edge, 0, 330_000), 'public, max-age=300, stale-while-revalidate=30')
  assert.equal(sharedCacheControl(edge, 0, 120_500), 'public, max-age=120')
  assert.equal(sharedCacheControl(edge, 0, 999), 'no-store', 'a step under a second away')
  assert.equal(sharedCacheControl({ cacheSeconds: 0, staleSeconds: 60 }, 0, undefined), 'no-store', 'off by default')
})

test('a shared answer: public, ETag, surrogate keys, and 304 when the client holds it', async () => {
  const res = await feed('1.0.0')
  assert.equal(res.status, 200)
  assert.equal(res.headers.get('cache-control'), 'public, max-age=3600, stale-while-revalidate=600')
  assert.equal(res.headers.get('surrogate-key'), 'ferry-app-tide ferry-target-tide.stable.windows.x64')
  assert.equal(res.headers.get('cache-tag'), 'ferry-app-tide,ferry-target-tide.stable.windows.x64')
  const etag = res.headers.get('etag') ?? ''
  assert.match(etag, /^"[0-9a-f]{32}"$/)
  for (const ifNoneMatch of [etag, `"other", W/${etag}`, '*']) {
    const again = await feed('1.0.0', { headers: { 'if-none-match': ifNoneMatch } })
    assert.equal(again.status, 304, ifNoneMatch)
    assert.equal(again.headers.get('etag'), etag)
  }
  assert.equal((await feed('1.0.0', { headers: { 'if-none-match': '"other"' } })).status, 200)
  assert.notEqual((await feed('1.1.0')).headers.get('etag'), etag, 'another answer, another ETag')
})

test('during a ramp: the client-side format stays shared until the next step; a server-side one is per device', async () => {
  purges = []
  const set = await patch(`/v1/apps/tide/versions/${ids['1.1.0']}`, {
    ramp: {
      steps: [
        { percentage: 10, afterMinutes: 0 },
        { percentage: 100, afterMinutes: 60 },
      ],
    },
  })
  assert.equal(set.status, 200, await set.clone().text())
  assert.deepEqual(purges, [{ method: 'PURGE', keys: 'ferry-app-tide' }], 'a ramp change purges')
  now = START + 50 * MINUTE
  const yml = await feed('1.0.0')
  assert.equal(
    yml.headers.get('cache-control'),
    'public, max-age=600',
    'electron-updater stages itself: shared, 10 minutes to the step',
  )
  assert.equal(
    (await ferry('1.0.0', 'device-1')).headers.get('cache-control'),
    'no-store',
    'Ferry JSON is bucketed per device',
  )
  assert.equal((await ferry('1.0.0', 'device-1')).headers.get('surrogate-key'), null)
  now = START + 60 * MINUTE
  const done = await ferry('1.0.0', 'device-1')
  assert.equal(
    done.headers.get('cache-control'),
    'public, max-age=3600, stale-while-revalidate=600',
    'at 100 % every device gets the same answer again',
  )
})

test("a private app's answers stay no-store (their links are signed)", async () => {
  assert.equal((await patch('/v1/apps/tide', { private: true })).status, 200)
  const res = await feed('1.0.0')
  assert.equal(res.headers.get('cache-control'), 'no-store')
  assert.equal(res.headers.get('etag'), null)
  assert.equal(
    (await f('/v1/apps/tide/latest?channel=stable&platform=windows&arch=x64&packageType=exe')).headers.get(
      'cache-control',
    ),
    'no-store',
  )
  assert.equal((await patch('/v1/apps/tide', { private: false })).status, 200)
  assert.match(
    (await f('/v1/apps/tide/latest?channel=stable&platform=windows&arch=x64&packageType=exe')).headers.get(
      'cache-control',
    ) ?? '',
    /^public/,
  )
})

test('every write to an app purges its key: upload, publish, pause, resume, pull, delete', async () => {
  purges = []
  const upload = await f(
    '/v1/apps/tide/versions',
    bearer(token, {
      method: 'POST',
      body: uploadForm({ version: '1.2.0', channel: 'stable', platform: 'windows', arch: 'x64' }, [
        ['Tide-1.2.0.exe', 'tide 1.2.0'],
      ]),
    }),
  )
  assert.equal(upload.status, 201)
  const id = ((await upload.json()) as { id: string }).id
  assert.equal((await patch(`/v1/apps/tide/versions/${id}`, { published: true })).status, 200)
  assert.equal((await f(`/v1/apps/tide/versions/${id}/pause`, jsonBody({ reason: 'crash' }, token))).status, 200)
  assert.equal((await f(`/v1/apps/tide/versions/${id}/resume`, jsonBody({}, token))).status, 200)
  assert.equal((await f(`/v1/apps/tide/versions/${id}/pull`, jsonBody({ reason: 'bad' }, token))).status, 200)
  assert.equal((await f(`/v1/apps/tide/versions/${id}`, bearer(token, { method: 'DELETE' }))).status, 204)
  assert.equal(purges.length, 6, JSON.stringify(purges))
  assert.ok(purges.every((p) => p.keys === 'ferry-app-tide'))
  purges = []
  await f('/v1/apps/tide/update?version=1.0.0&platform=windows&arch=x64')
  await f('/v1/apps', bearer(token))
  assert.deepEqual(purges, [], 'reads purge nothing')
})

test('a version paused by health reports is purged too (its report operation invalidates nothing otherwise)', async () => {
  assert.equal((await f('/v1/apps', jsonBody({ slug: 'reef', name: 'Reef' }, token))).status, 201)
  for (const version of ['1.0.0', '1.1.0']) {
    const res = await f(
      '/v1/apps/reef/versions',
      bearer(token, {
        method: 'POST',
        body: uploadForm({ version, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }, [
          [`Reef-${version}.exe`, `reef ${version}`],
        ]),
      }),
    )
    assert.equal(res.status, 201)
  }
  purges = []
  const receipts: boolean[] = []
  for (const device of ['reef-device-1', 'reef-device-2']) {
    const offer = await f(`/v1/apps/reef/update?version=1.0.0&platform=windows&arch=x64&format=ferry`, {
      headers: { 'x-ferry-device-id': device },
    })
    assert.equal(offer.status, 200)
    const res = await f(
      '/v1/apps/reef/health-reports',
      jsonBody({
        deviceId: device,
        version: '1.1.0',
        channel: 'stable',
        platform: 'windows',
        arch: 'x64',
        outcome: 'failed',
        reason: 'Crash on start',
        fromVersion: '1.0.0',
      }),
    )
    assert.equal(res.status, 202, await res.clone().text())
    receipts.push(((await res.json()) as { paused: boolean }).paused)
  }
  assert.deepEqual(receipts, [false, true])
  assert.deepEqual(purges, [{ method: 'PURGE', keys: 'ferry-app-reef' }], 'only the report that paused purged')
})

test('a refused purge is retried; one that keeps failing is logged as purge failed, and the write still succeeds', async () => {
  purges = []
  failures = 2
  assert.equal((await patch('/v1/apps/tide', { description: 'retried' })).status, 200)
  assert.equal(purges.length, 3, 'two refusals, then the purge that landed')
  assert.deepEqual(
    logged.filter((l) => l.msg === 'purge failed'),
    [],
  )
  purges = []
  failures = 3
  assert.equal((await patch('/v1/apps/tide', { description: 'lost' })).status, 200)
  assert.equal(purges.length, 3)
  const failed = logged.filter((l) => l.msg === 'purge failed')
  assert.equal(failed.length, 1)
  assert.deepEqual((failed[0]?.obj as { keys: string[] }).keys, ['ferry-app-tide'])
  failures = 0
})
