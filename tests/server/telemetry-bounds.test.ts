/**
 * Telemetry under hostile traffic: anonymous checks for channels, platforms or architectures the
 * team does not have are answered but never counted (with and without the answer cache); made-up
 * device ids from one address add at most `TELEMETRY_DEVICES_PER_ADDRESS` devices while devices of
 * other addresses all count; and no stream of device ids or versions grows the in-memory buffer
 * past its bound.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  TelemetryRecorder,
  TELEMETRY_BUFFER_LIMITS,
  TELEMETRY_DEVICES_PER_ADDRESS,
} from '../../server/telemetry/recorder.ts'
import { bearer, jsonBody, signup, uploadForm, type Fetch, openTestDb, memoryApp } from './helpers.ts'

async function seed(f: Fetch) {
  const { token } = await signup(f, `bounds-${Math.random()}@team.test`)
  for (const [path, body] of [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'ferry' }],
    ['/v1/platforms', { name: 'darwin', updater: 'electron-builtin' }],
    ['/v1/archs', { name: 'x64' }],
  ] as const) {
    assert.equal((await f(path, jsonBody(body, token))).status, 201)
  }
  assert.equal((await f('/v1/apps', jsonBody({ slug: 'counted', name: 'Counted' }, token))).status, 201)
  const form = uploadForm(
    { version: '1.1.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' },
    [
      ['C-1.1.0.exe', 'x'],
      ['counted-1.1.0-full.nupkg', 'y'],
    ],
  )
  assert.equal((await f('/v1/apps/counted/versions', bearer(token, { method: 'POST', body: form }))).status, 201)
  return token
}

/** A distinct IPv4 address per `i`, as the recorder reads it. */
const addressOf = (i: number) => () => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`

/** `memoryApp` on a database the test reads, with the answer cache on (the default) or off; the client address is `x-test-client`. */
async function inProcessApp(cache: boolean) {
  const db = await openTestDb()
  const { fetch } = await memoryApp({}, undefined, {
    db,
    clientIp: (c) => c.req.header('x-test-client'),
    ...(cache ? {} : { answerCache: null }),
  })
  return { db, fetch }
}

for (const cache of [true, false]) {
  test(`checks for a channel, platform or arch the team lacks are answered, not counted (answer cache ${cache ? 'on' : 'off'})`, async () => {
    const m = await inProcessApp(cache)
    const token = await seed(m.fetch)
    const dev = { headers: { 'x-ferry-device-id': 'device-probe-0001' } }
    const unknown = [
      '/v1/apps/counted/update?version=1.0.0&channel=nightly&platform=windows&arch=x64',
      '/v1/apps/counted/update?version=1.0.0&platform=amiga&arch=x64',
      '/v1/apps/counted/update?version=1.0.0&platform=windows&arch=m68k',
      '/v1/apps/counted/squirrel/nightly/x64/RELEASES?localVersion=1.0.0',
      '/v1/apps/counted/squirrel-mac/stable/m68k?version=1.0.0',
      '/v1/apps/counted/tauri/stable/linux/x86_64/1.0.0',
      '/v1/apps/counted/electron-updater/beta/darwin/x64/1.0.0/latest-mac.yml',
    ]
    // Twice each: the second may come from the answer cache.
    for (const path of [...unknown, ...unknown]) {
      const res = await m.fetch(path, dev)
      assert.ok(res.status < 300, `${path}: ${res.status} ${await res.text()}`)
    }
    for (let i = 0; i < 2; i++)
      await (await m.fetch('/v1/apps/counted/update?version=1.0.0&platform=windows&arch=x64', dev)).arrayBuffer()
    const today = new Date().toISOString().slice(0, 10)
    const report = (await (await m.fetch(`/v1/telemetry?from=${today}&to=${today}`, bearer(token))).json()) as {
      items: Array<{ channel: string; platform: string; arch: string; checks: number }>
    }
    assert.deepEqual(
      report.items.map((r) => [r.channel, r.platform, r.arch, r.checks]),
      [['stable', 'windows', 'x64', 2]],
    )
    assert.equal(
      (await m.db.selectFrom('telemetry_counts').selectAll().execute()).length,
      1,
      'no row for a target that does not exist',
    )
  })
}

test('1,000 made-up device ids from one address add at most the bound of devices; devices of other addresses all count', async () => {
  const m = await inProcessApp(true)
  const token = await seed(m.fetch)
  const check = async (device: string, address: string) => {
    const res = await m.fetch('/v1/apps/counted/update?version=1.0.0&platform=windows&arch=x64', {
      headers: { 'x-ferry-device-id': device, 'x-test-client': address },
    })
    assert.equal(res.status, 200, `${device} from ${address}: every check is answered`)
    await res.arrayBuffer()
  }
  for (let i = 0; i < 1000; i++) await check(`made-up-${i}-0000`, '203.0.113.7')
  // Hosts of one IPv6 /64 are one network, like the health reports' limit reads them.
  for (let i = 0; i < 200; i++) await check(`v6-${i}-0000`, `2001:db8:0:1::${(i + 1).toString(16)}`)
  for (let i = 0; i < 150; i++) await check(`real-${i}-0000`, addressOf(i)())
  // A device recorded already checks again from the spent address: it counts as before.
  await check('made-up-0-0000', '203.0.113.7')
  const today = new Date().toISOString().slice(0, 10)
  const report = (await (await m.fetch(`/v1/telemetry?from=${today}&to=${today}`, bearer(token))).json()) as {
    items: Array<{ checks: number; devices: number }>
  }
  const bound = TELEMETRY_DEVICES_PER_ADDRESS
  assert.deepEqual(
    report.items.map((r) => [r.checks, r.devices]),
    [[1000 + 200 + 150 + 1, bound + bound + 150]],
    'every check counts; each address adds at most the bound of devices',
  )
  const stored = await m.db
    .selectFrom('telemetry_devices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  assert.equal(Number(stored.n), bound + bound + 150)
})

test('a flood of device ids and versions is bounded in memory while a flush cannot keep up', async () => {
  const db = await openTestDb()
  await db.insertInto('teams').values({ id: 'team_1', name: 'T', created_at: '2025-01-01T00:00:00Z' }).execute()
  await db
    .insertInto('apps')
    .values({
      slug: 'flooded',
      team_id: 'team_1',
      name: 'F',
      description: '',
      private: 0,
      created_at: '2025-01-01T00:00:00Z',
      updated_at: '2025-01-01T00:00:00Z',
    })
    .execute()
  const errors: unknown[] = []
  const recorder = new TelemetryRecorder(
    db,
    'secret',
    () => new Date('2025-03-14T12:00:00Z'),
    (e) => errors.push(e),
  )
  const key = (version: string) => ({ app: 'flooded', version, channel: 'stable', platform: 'windows', arch: 'x64' })
  // Synchronous, so no flush gets a turn: the worst case of a flush that never catches up.
  const flood = TELEMETRY_BUFFER_LIMITS.devices * 3
  for (let i = 0; i < flood; i++) recorder.record(key(`1.0.${i % 9000}`), `device-${i}`, addressOf(i))
  const full = recorder.stats()
  assert.ok(full.devices <= TELEMETRY_BUFFER_LIMITS.devices, `devices buffered: ${full.devices}`)
  assert.ok(full.buckets <= TELEMETRY_BUFFER_LIMITS.buckets, `buckets buffered: ${full.buckets}`)
  assert.ok(full.dropped >= flood - TELEMETRY_BUFFER_LIMITS.devices, `dropped: ${full.dropped}`)
  // A known bucket still counts its checks when full.
  const before = full.checks
  recorder.record(key('1.0.0'), 'device-0', addressOf(0))
  assert.equal(recorder.stats().checks, before + 1)
  await recorder.flush()
  assert.deepEqual(errors, [])
  assert.equal(recorder.stats().devices, 0, 'a flush empties the buffer')
  const stored = await db
    .selectFrom('telemetry_devices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  assert.equal(Number(stored.n), full.devices)
  // After the flush, counting resumes.
  recorder.record(key('2.0.0'), 'device-after', addressOf(flood))
  assert.equal(recorder.stats().devices, 1)
  await db.destroy()
})
