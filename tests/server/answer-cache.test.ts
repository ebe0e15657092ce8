/**
 * Performance mode: the answer caches' contract (both implementations), and through server
 * processes (`server/runtime/node.ts`, the `npm run server` entry) that answers come from the
 * cache and no stale answer survives a publish, an edit, a delete or a catalog change, in the
 * in-process LRU and in Redis shared by two server processes.
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { createClient } from 'redis'
import { createMemoryCache, type AnswerCache } from '../../server/cache/answer-cache.ts'
import { createRedisCache } from '../../server/cache/redis-cache.ts'
import { openRedis } from '../../server/storage/drivers/redis-node.ts'
import { electronUpdaterCheck } from './clients/electron-updater.ts'
import { parseReleases, squirrelUpdate } from './clients/squirrel-windows.ts'
import { bearer, httpFetch, jsonBody, signup, testDatabaseUrl, uploadForm, type Fetch } from './helpers.ts'
import { startRedis } from '../../services/redis-server.ts'
import { startServerProcess, type ServerProcess } from './server-process.ts'

let redis: Awaited<ReturnType<typeof startRedis>>
before(async () => {
  redis = await startRedis()
})
after(async () => redis.stop())

const ans = (body: string) => ({ status: 200, headers: { 'content-type': 'text/plain' }, body })

const caches: Record<string, () => Promise<AnswerCache>> = {
  memory: async () => createMemoryCache(),
  redis: async () => {
    const fail = (e: unknown) => {
      throw e
    }
    return createRedisCache(await openRedis(redis.url, fail), fail)
  },
}

for (const [kind, make] of Object.entries(caches)) {
  test(`${kind} cache: an answer computed before an invalidation is never stored`, async () => {
    const cache = await make()
    const gen = await cache.generation('app-a')
    await cache.set('app-a', 'k', ans('old'), gen)
    assert.deepEqual(await cache.get('app-a', 'k'), ans('old'))
    const before = await cache.generation('app-a')
    await cache.invalidate(['app-a'])
    assert.equal(await cache.get('app-a', 'k'), undefined, 'invalidated')
    await cache.set('app-a', 'k', ans('computed from old data'), before)
    assert.equal(await cache.get('app-a', 'k'), undefined, 'a set with the old generation is dropped')
    await cache.set('app-a', 'k', ans('fresh'), await cache.generation('app-a'))
    assert.deepEqual(await cache.get('app-a', 'k'), ans('fresh'))
    await cache.set('app-b', 'k', ans('other app'), await cache.generation('app-b'))
    await cache.invalidate(['app-a'])
    assert.deepEqual(await cache.get('app-b', 'k'), ans('other app'), 'other apps keep their answers')
    await cache.set('app-b', 'short', ans('expires'), await cache.generation('app-b'), 30)
    await new Promise((done) => setTimeout(done, 80))
    assert.equal(await cache.get('app-b', 'short'), undefined, 'answers with a ttl expire')
    await cache.close()
  })
}

for (const [kind, make] of Object.entries(caches)) {
  test(`${kind} cache: a stored answer read again is the same object, so its bytes are encoded once`, async () => {
    const cache = await make()
    try {
      await cache.set('app-c', 'k', ans('one'), await cache.generation('app-c'))
      const first = await cache.get('app-c', 'k')
      assert.deepEqual(first, ans('one'))
      assert.equal(await cache.get('app-c', 'k'), first, 'the same object while the cache holds the same answer')
      await cache.invalidate(['app-c'])
      await cache.set('app-c', 'k', ans('two'), await cache.generation('app-c'))
      const second = await cache.get('app-c', 'k')
      assert.deepEqual(second, ans('two'), 'a changed answer is read as it is now')
      assert.equal(await cache.get('app-c', 'k'), second)
    } finally {
      await cache.close()
    }
  })
}

interface Node {
  server: ServerProcess
  f: Fetch
}

/** A server process; processes given one data dir share its SQLite file (unless on PostgreSQL) and its artifact folder. */
async function node(dataDir: string, redisUrl: string | undefined, databaseUrl: string | undefined): Promise<Node> {
  const server = await startServerProcess({ dataDir, redisUrl, databaseUrl, metrics: true })
  return { server, f: httpFetch(server.url) }
}

/** Update checks the server has answered, and how many of them the answer cache answered. */
async function cacheHits(n: Node): Promise<{ checks: number; hits: number }> {
  const text = await (await fetch(n.server.metricsUrl ?? '')).text()
  const samples = [...text.matchAll(/^ferry_update_checks_total\{([^}]*)\} (\d+)$/gm)]
  const sum = (rows: RegExpExecArray[]) => rows.reduce((total, row) => total + Number(row[2]), 0)
  return { checks: sum(samples), hits: sum(samples.filter((row) => row[1]?.includes('cache="hit"'))) }
}

/** What each protocol's client would install from `current` (answers read as in protocols.test.ts). */
async function offered(n: Node, current: string): Promise<Record<string, string | null>> {
  const ferry = await n.f(`/v1/apps/cached/update?version=${current}&platform=windows&arch=x64&format=ferry`)
  const mac = await n.f(`/v1/apps/cached/squirrel-mac/stable/x64?version=${current}`)
  const tauri = await n.f(`/v1/apps/cached/tauri/stable/darwin/x86_64/${current}`)
  const releases = await (await n.f(`/v1/apps/cached/squirrel/stable/x64/RELEASES?localVersion=${current}`)).text()
  const yml = await electronUpdaterCheck(
    `${n.server.url}/v1/apps/cached/electron-updater/stable/windows/x64/${current}`,
    current,
    'win32',
  )
  const latest = await n.f('/v1/apps/cached/latest?packageType=exe&platform=windows&arch=x64')
  return {
    ferry: ferry.status === 204 ? null : ((await ferry.json()) as { version: string }).version,
    squirrelMac: mac.status === 204 ? null : ((await mac.json()) as { name: string }).name,
    tauri: tauri.status === 204 ? null : ((await tauri.json()) as { version: string }).version,
    squirrelWindows: squirrelUpdate(parseReleases(releases), current),
    electronUpdater: yml.available ? yml.info.version : null,
    latest:
      latest.status === 302
        ? ((latest.headers.get('location') ?? '').split('/versions/')[1]?.split('/')[0] ?? null)
        : null,
  }
}

const everywhere = (version: string | null, latest: string | null) => ({
  ferry: version,
  squirrelMac: version,
  tauri: version,
  squirrelWindows: version,
  electronUpdater: version,
  latest,
})

for (const mode of ['memory', 'redis'] as const) {
  describe(`${mode} cache through the HTTP server`, () => {
    let dataDir: string
    let writer: Node
    let reader: Node
    let token: string
    const ids: Record<string, string> = {}

    before(async () => {
      dataDir = await mkdtemp(join(tmpdir(), `ferry-cache-${mode}-`))
      const databaseUrl = await testDatabaseUrl()
      writer = await node(dataDir, mode === 'redis' ? redis.url : undefined, databaseUrl)
      // Redis mode: a second server on the same database reads; memory mode: the same server.
      // On SQLite one data directory serves one process (its server.pid lock), so the second
      // server needs PostgreSQL (npm run test:unit:pg); without it the writer reads too.
      reader = mode === 'redis' && databaseUrl ? await node(dataDir, redis.url, databaseUrl) : writer
      token = (await signup(writer.f, `${mode}@cache.test`)).token
      for (const [path, body] of [
        ['/v1/channels', { name: 'stable' }],
        ['/v1/platforms', { name: 'windows', updater: 'ferry' }],
        ['/v1/platforms', { name: 'darwin', updater: 'electron-builtin' }],
        ['/v1/archs', { name: 'x64' }],
      ] as const) {
        assert.equal((await writer.f(path, jsonBody(body, token))).status, 201)
        if (path === '/v1/platforms')
          ids[body.name] =
            (
              (await (await writer.f('/v1/platforms', bearer(token))).json()) as {
                items: Array<{ id: string; name: string }>
              }
            ).items.find((p) => p.name === body.name)?.id ?? ''
      }
      assert.equal((await writer.f('/v1/apps', jsonBody({ slug: 'cached', name: 'Cached' }, token))).status, 201)
      await publish('1.0.0')
      await publish('1.1.0')
    })
    after(async () => {
      if (reader !== writer) await reader.server.stop()
      await writer.server.stop()
      await rm(dataDir, { recursive: true, force: true })
    })

    async function publish(version: string, fields: Record<string, string> = {}) {
      for (const [platform, files] of [
        ['windows', [`Cached-${version}.exe`, `cached-${version}-full.nupkg`]],
        ['darwin', [`Cached-${version}-mac.zip`, `Cached_${version}.app.tar.gz`, `Cached_${version}.app.tar.gz.sig`]],
      ] as const) {
        const form = uploadForm(
          { version, channel: 'stable', platform, arch: 'x64', published: 'true', ...fields },
          files.map((n) => [n, `bytes ${n}`]),
        )
        const res = await writer.f('/v1/apps/cached/versions', bearer(token, { method: 'POST', body: form }))
        const text = await res.text()
        assert.equal(res.status, 201, text)
        const body = JSON.parse(text) as { id: string; artifacts: Array<{ id: string; fileName: string }> }
        ids[`${platform}:${version}`] = body.id
        for (const a of body.artifacts) ids[a.fileName] = a.id
      }
    }
    const patch = (path: string, body: unknown) => writer.f(path, { ...jsonBody(body, token), method: 'PATCH' })

    test('answers are served from the cache', async () => {
      assert.deepEqual(await offered(reader, '1.0.0'), everywhere('1.1.0', ids['windows:1.1.0'] ?? ''))
      const before = await cacheHits(reader)
      assert.deepEqual(
        await offered(reader, '1.0.0'),
        everywhere('1.1.0', ids['windows:1.1.0'] ?? ''),
        'the same answers again',
      )
      const after = await cacheHits(reader)
      assert.ok(after.checks > before.checks, 'the second round was counted')
      assert.equal(
        after.hits - before.hits,
        after.checks - before.checks,
        'every check of the second round was a cache hit',
      )
      if (mode === 'redis') {
        const client = createClient({ url: redis.url })
        await client.connect()
        assert.ok((await client.hLen('ferry:answers:cached')) >= 6, "every protocol's answer is in Redis")
        await client.close()
      }
    })

    test('no stale answer survives a publish, an edit or a delete', async () => {
      await offered(reader, '1.0.0') // warm
      await publish('1.2.0')
      assert.deepEqual(await offered(reader, '1.0.0'), everywhere('1.2.0', ids['windows:1.2.0'] ?? ''), 'after publish')
      for (const platform of ['windows', 'darwin']) {
        assert.equal(
          (await patch(`/v1/apps/cached/versions/${ids[`${platform}:1.2.0`]}`, { published: false })).status,
          200,
        )
      }
      assert.deepEqual(
        await offered(reader, '1.0.0'),
        everywhere('1.1.0', ids['windows:1.1.0'] ?? ''),
        'after unpublishing',
      )
      for (const platform of ['windows', 'darwin']) {
        assert.equal(
          (await patch(`/v1/apps/cached/versions/${ids[`${platform}:1.2.0`]}`, { published: true, intermediate: true }))
            .status,
          200,
        )
      }
      assert.deepEqual(
        await offered(reader, '1.0.0'),
        everywhere('1.2.0', ids['windows:1.2.0'] ?? ''),
        'after republishing',
      )
      await publish('1.3.0')
      assert.deepEqual(
        await offered(reader, '1.0.0'),
        everywhere('1.2.0', ids['windows:1.3.0'] ?? ''),
        '1.2.0 is now an intermediate',
      )
      const del = await writer.f(
        `/v1/apps/cached/versions/${ids['darwin:1.2.0']}/artifacts/${ids['Cached_1.2.0.app.tar.gz.sig']}`,
        bearer(token, { method: 'DELETE' }),
      )
      assert.equal(del.status, 204)
      assert.equal((await offered(reader, '1.0.0')).tauri, null, 'after deleting the signature Tauri gets no update')
      for (const platform of ['windows', 'darwin']) {
        assert.equal(
          (await writer.f(`/v1/apps/cached/versions/${ids[`${platform}:1.2.0`]}`, bearer(token, { method: 'DELETE' })))
            .status,
          204,
        )
      }
      assert.deepEqual(
        await offered(reader, '1.0.0'),
        everywhere('1.3.0', ids['windows:1.3.0'] ?? ''),
        'after deleting a version',
      )
    })

    test("a catalog change reaches cached answers: the platform's default format", async () => {
      const plain = async () =>
        (await reader.f('/v1/apps/cached/update?version=1.0.0&platform=windows&arch=x64')).headers.get('content-type')
      assert.equal(await plain(), 'application/json')
      assert.equal((await patch(`/v1/platforms/${ids.windows}`, { updater: 'squirrel-windows' })).status, 200)
      assert.equal(await plain(), 'text/plain; charset=utf-8')
    })

    test("a private app's cached answers are dropped when it turns private", async () => {
      const before = (await (await reader.f('/v1/apps/cached/squirrel-mac/stable/x64?version=1.0.0')).json()) as {
        url: string
      }
      assert.doesNotMatch(before.url, /signature=/)
      assert.equal((await patch('/v1/apps/cached', { private: true })).status, 200)
      const afterPrivate = (await (await reader.f('/v1/apps/cached/squirrel-mac/stable/x64?version=1.0.0')).json()) as {
        url: string
      }
      assert.match(afterPrivate.url, /\?expires=\d+&signature=[0-9a-f]{64}$/)
    })
  })
}

test('redis: when Redis goes away, update checks and writes still work from the database', async () => {
  const ownRedis = await startRedis()
  const dataDir = await mkdtemp(join(tmpdir(), 'ferry-cache-down-'))
  const n = await node(dataDir, ownRedis.url, await testDatabaseUrl())
  try {
    const { token } = await signup(n.f, 'down@cache.test')
    for (const [path, body] of [
      ['/v1/channels', { name: 'stable' }],
      ['/v1/platforms', { name: 'windows' }],
      ['/v1/archs', { name: 'x64' }],
    ] as const) {
      assert.equal((await n.f(path, jsonBody(body, token))).status, 201)
    }
    assert.equal((await n.f('/v1/apps', jsonBody({ slug: 'down', name: 'Down' }, token))).status, 201)
    const publish = async (version: string) => {
      const form = uploadForm({ version, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }, [
        [`d-${version}.exe`, version],
      ])
      assert.equal((await n.f('/v1/apps/down/versions', bearer(token, { method: 'POST', body: form }))).status, 201)
    }
    const check = async () => {
      const res = await n.f('/v1/apps/down/update?version=1.0.0&platform=windows&arch=x64')
      assert.equal(res.status, 200, await res.clone().text())
      return ((await res.json()) as { version: string }).version
    }
    await publish('1.1.0')
    assert.equal(await check(), '1.1.0')
    await ownRedis.stop()
    assert.equal(await check(), '1.1.0')
    await publish('1.2.0')
    assert.equal(await check(), '1.2.0')
  } finally {
    await n.server.stop()
    await ownRedis.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
})
