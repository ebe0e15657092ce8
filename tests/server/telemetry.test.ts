/**
 * Telemetry: update checks with a device id are counted in every protocol (also when the answer
 * comes from the cache), per app, version, channel, platform, arch and day, with unique devices
 * per day; no IP and no raw device id is stored; the report is scoped to the team; it can be
 * switched off.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  bearer,
  expectProblem,
  expectSpec,
  httpFetch,
  jsonBody,
  memoryApp,
  openServerDb,
  signup,
  startTestServer,
  uploadForm,
  type Fetch,
} from './helpers.ts'

interface Row {
  day: string
  app: string
  version: string
  channel: string
  platform: string
  arch: string
  checks: number
  devices: number
}

async function seed(f: Fetch, email: string, slug = 'counted') {
  const { token } = await signup(f, email)
  for (const [path, body] of [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'ferry' }],
    ['/v1/platforms', { name: 'darwin', updater: 'electron-builtin' }],
    ['/v1/archs', { name: 'x64' }],
  ] as const) {
    assert.equal((await f(path, jsonBody(body, token))).status, 201)
  }
  assert.equal((await f('/v1/apps', jsonBody({ slug, name: 'Counted' }, token))).status, 201)
  for (const [platform, files] of [
    ['windows', ['C-1.1.0.exe', 'counted-1.1.0-full.nupkg']],
    ['darwin', ['C-1.1.0-mac.zip', 'C.app.tar.gz', 'C.app.tar.gz.sig']],
  ] as const) {
    const form = uploadForm(
      { version: '1.1.0', channel: 'stable', platform, arch: 'x64', published: 'true' },
      files.map((n) => [n, n]),
    )
    assert.equal((await f(`/v1/apps/${slug}/versions`, bearer(token, { method: 'POST', body: form }))).status, 201)
  }
  return token
}

const report = async (f: Fetch, token: string, query: string) =>
  ((await expectSpec('getTelemetry', await f(`/v1/telemetry?${query}`, bearer(token)), 200)) as { items: Row[] }).items

test('every protocol counts checks that carry a device id, cache hits included; IPs and raw ids are never stored', async () => {
  const server = await startTestServer()
  try {
    const f = httpFetch(server.url)
    const token = await seed(f, 'count@team.test')
    const dev = (id: string) => ({ headers: { 'x-ferry-device-id': id } })
    const calls = [
      () => f('/v1/apps/counted/update?version=1.0.0&platform=windows&arch=x64', dev('device-aaaa-0001')),
      () => f('/v1/apps/counted/update?version=1.0.0&platform=windows&arch=x64', dev('device-aaaa-0001')), // cache hit, same device
      () => f('/v1/apps/counted/update?version=1.0.0&platform=windows&arch=x64', dev('device-bbbb-0002')),
      () => f('/v1/apps/counted/update?version=1.0.0&platform=windows&arch=x64'), // no device id: not counted
      () => f('/v1/apps/counted/squirrel-mac/stable/x64?version=1.0.0', dev('device-cccc-0003')),
      () => f('/v1/apps/counted/tauri/stable/darwin/x86_64/1.0.0', dev('device-cccc-0003')),
      () =>
        f('/v1/apps/counted/electron-updater/stable/darwin/x64/1.0.0/latest-mac.yml', {
          headers: { 'x-user-staging-id': 'staging-uuid-0004' },
        }),
      () => f('/v1/apps/counted/squirrel/stable/x64/RELEASES?localVersion=1.1.0', dev('device-dddd-0005')),
      () => f('/v1/apps/nope-app/update?version=1.0.0&platform=windows&arch=x64', dev('device-eeee-0006')), // 404: not counted
    ]
    for (const call of calls) await (await call()).arrayBuffer()
    const today = new Date().toISOString().slice(0, 10)
    const items = await report(f, token, `from=${today}&to=${today}`)
    assert.deepEqual(
      items.map((r) => [r.version, r.platform, r.checks, r.devices]),
      [
        ['1.0.0', 'darwin', 3, 2],
        ['1.0.0', 'windows', 3, 2],
        ['1.1.0', 'windows', 1, 1],
      ],
    )
    assert.ok(items.every((r) => r.day === today && r.app === 'counted' && r.channel === 'stable' && r.arch === 'x64'))
    const filtered = await report(f, token, `from=${today}&to=${today}&platform=windows&version=1.1.0`)
    assert.deepEqual(
      filtered.map((r) => r.checks),
      [1],
    )
    assert.deepEqual(await report(f, token, `from=${today}&to=${today}&app=other-app`), [])

    // The database the server really uses (SQLite in its data dir, or its PostgreSQL).
    const db = await openServerDb(server)
    const counts = await db.selectFrom('telemetry_counts').selectAll().execute()
    const devices = await db.selectFrom('telemetry_devices').selectAll().execute()
    await db.destroy()
    assert.equal(
      counts.reduce((sum, row) => sum + Number(row.checks), 0),
      7,
      'the counted checks are in the database read here',
    )
    assert.equal(devices.length, 5, 'one stored row per device and day')
    assert.doesNotMatch(
      JSON.stringify([counts, devices]),
      /127\.0\.0\.1|::1|device-|staging-uuid/,
      'no address and no raw device id in the database',
    )
  } finally {
    await server.stop()
  }
})

test('unique devices are per day, and the stored hash of one device differs from day to day', async () => {
  let now = new Date('2025-03-14T23:59:00Z')
  const m = await memoryApp({}, () => now)
  const token = await seed(m.fetch, 'days@team.test')
  const check = (id: string) =>
    m.fetch('/v1/apps/counted/update?version=1.0.0&platform=windows&arch=x64', { headers: { 'x-ferry-device-id': id } })
  await check('device-same-0001')
  await check('device-same-0001')
  now = new Date('2025-03-15T00:01:00Z')
  await check('device-same-0001')
  await check('device-other-002')
  const items = await report(m.fetch, token, 'from=2025-03-01&to=2025-03-31')
  assert.deepEqual(
    items.map((r) => [r.day, r.checks, r.devices]),
    [
      ['2025-03-14', 2, 1],
      ['2025-03-15', 2, 2],
    ],
  )
  assert.deepEqual(await report(m.fetch, token, 'from=2025-03-15&to=2025-03-15').then((r) => r.map((x) => x.day)), [
    '2025-03-15',
  ])
  const hashes = await m.db.selectFrom('telemetry_devices').select(['day', 'device_hash']).orderBy('day').execute()
  assert.equal(hashes.length, 3)
  assert.equal(new Set(hashes.map((h) => h.device_hash)).size, 3, 'no hash repeats across days')
})

test('the report is scoped: other teams and app-limited users see only their apps', async () => {
  const m = await memoryApp()
  const token = await seed(m.fetch, 'scope@team.test')
  assert.equal((await m.fetch('/v1/apps', jsonBody({ slug: 'second', name: 'Second' }, token))).status, 201)
  await m.fetch('/v1/apps/counted/update?version=1.0.0&platform=windows&arch=x64', {
    headers: { 'x-ferry-device-id': 'device-scope-001' },
  })
  const today = new Date().toISOString().slice(0, 10)
  const q = `from=${today}&to=${today}`
  assert.equal((await report(m.fetch, token, q)).length, 1)
  const other = await signup(m.fetch, 'other@else.test', 'Else')
  assert.deepEqual(await report(m.fetch, other.token, q), [])
  const limited = await m.fetch(
    '/v1/team/users',
    jsonBody(
      {
        email: 'lim@team.test',
        name: 'Lim',
        password: 'correct-horse-battery-staple',
        permissions: { apps: { upload: { enabled: true, allowed: ['second'] } } },
      },
      token,
    ),
  )
  assert.equal(limited.status, 201)
  const login = (await (
    await m.fetch('/v1/auth/login', jsonBody({ email: 'lim@team.test', password: 'correct-horse-battery-staple' }))
  ).json()) as { token: string }
  assert.deepEqual(await report(m.fetch, login.token, q), [])
})

test('bad ranges name the parameter', async () => {
  const m = await memoryApp()
  const token = await seed(m.fetch, 'range@team.test')
  await expectProblem(
    await m.fetch('/v1/telemetry?from=2025-03-10&to=2025-03-01', bearer(token)),
    400,
    'validation',
    'to',
  )
  await expectProblem(
    await m.fetch('/v1/telemetry?from=2024-01-01&to=2025-03-01', bearer(token)),
    400,
    'validation',
    'to',
  )
  await expectProblem(
    await m.fetch('/v1/telemetry?from=yesterday&to=2025-03-01', bearer(token)),
    400,
    'validation',
    'from',
  )
})

test('FERRY_TELEMETRY=off: nothing is counted and the report says telemetry is off', async () => {
  const server = await startTestServer(1024 * 1024, { telemetry: false })
  try {
    const f = httpFetch(server.url)
    const token = await seed(f, 'off@team.test')
    await f('/v1/apps/counted/update?version=1.0.0&platform=windows&arch=x64', {
      headers: { 'x-ferry-device-id': 'device-off-0001' },
    })
    await expectProblem(
      await f('/v1/telemetry?from=2025-01-01&to=2025-01-02', bearer(token)),
      404,
      'telemetry-disabled',
    )
    await server.close()
    const db = await openServerDb(server)
    assert.ok(
      (await db.selectFrom('apps').select('slug').execute()).some((a) => a.slug === 'counted'),
      "the database read here is the server's",
    )
    assert.equal((await db.selectFrom('telemetry_counts').selectAll().execute()).length, 0)
    assert.equal((await db.selectFrom('telemetry_devices').selectAll().execute()).length, 0)
    await db.destroy()
  } finally {
    await server.stop()
  }
})
