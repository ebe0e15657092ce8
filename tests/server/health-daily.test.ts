/**
 * Bounded health storage: reports older than 30 days are summed per version, day and client
 * address, their rows deleted in small batches, and a version's adoption and health tally read
 * the same before and after (the per-address cap applies across raw and summed reports alike).
 * Offers of those days are counted per day, except those a raw report still needs. A gated ramp
 * that holds for weeks is summed too, but for the day its evidence window opened: its evidence
 * reads the same.
 */
import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { aggregateHealthReports } from '../../server/storage/telemetry/health-daily.ts'
import { aggregateOffers } from '../../server/storage/telemetry/offers-daily.ts'
import { sumOldHealthReports } from '../../server/updates/ramp-gate.ts'
import { PASSWORD, bearer, expectSpec, jsonBody, memoryApp, signup, uploadForm, type Fetch } from './helpers.ts'

let now = Date.parse('2026-03-01T10:00:00Z')
let f: Fetch
let db: Awaited<ReturnType<typeof memoryApp>>['db']
let token: string
let versionId = ''
let gatedId = ''

async function reported(deviceId: string, address: string, outcome: 'installed' | 'failed', arch = 'x64') {
  const check = await f(`/v1/apps/tern/update?version=1.0.0&platform=windows&arch=${arch}&format=ferry`, {
    headers: { 'x-ferry-device-id': `tern-device-${deviceId}`, 'x-test-client': address },
  })
  assert.equal(check.status, 200, await check.clone().text())
  const res = await f(
    '/v1/apps/tern/health-reports',
    jsonBody(
      {
        deviceId: `tern-device-${deviceId}`,
        version: '2.0.0',
        channel: 'stable',
        platform: 'windows',
        arch,
        outcome,
        ...(outcome === 'failed' ? { reason: 'Crash' } : {}),
      },
      undefined,
      { 'x-test-client': address },
    ),
  )
  assert.deepEqual(await res.json(), { counted: true, paused: false })
}

const adoption = async (id = versionId, from = '2026-02-28', to = '2026-04-25') =>
  expectSpec(
    'getVersionAdoption',
    await f(`/v1/apps/tern/versions/${id}/adoption?from=${from}&to=${to}`, bearer(token)),
    200,
  )
async function relogin() {
  const login = await f('/v1/auth/login', jsonBody({ email: 'admin@tern.test', password: PASSWORD }))
  token = ((await login.json()) as { token: string }).token
}
async function health() {
  const list = (await expectSpec(
    'searchAppVersions',
    await f('/v1/apps/tern/versions?limit=10', bearer(token)),
    200,
  )) as {
    items: Array<{ id: string; rollout: { health: { reports: number; failed: number; failedAddresses: number } } }>
  }
  const v = list.items.find((x) => x.id === versionId)
  assert.ok(v)
  const { reports, failed, failedAddresses } = v.rollout.health
  return { reports, failed, failedAddresses }
}
const rawRows = async (id = versionId) =>
  (await db.selectFrom('health_reports').select('device_hash').where('version_id', '=', id).execute()).length
const rawOffers = async (id = versionId) =>
  (await db.selectFrom('update_offers').select('device_hash').where('version_id', '=', id).execute()).length

before(async () => {
  const m = await memoryApp(
    { healthPolicy: { maxFailureRatio: 0.9, minReports: 1000, minAddresses: 1, maxReportsPerAddress: 2 } },
    () => new Date(now),
    { clientIp: (c) => c.req.header('x-test-client') },
  )
  f = m.fetch
  db = m.db
  token = (await signup(f, 'admin@tern.test')).token
  for (const [path, body] of [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'ferry' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/apps', { slug: 'tern', name: 'Tern' }],
  ] as const) {
    assert.equal((await f(path, jsonBody(body, token))).status, 201)
  }
  assert.equal((await f('/v1/archs', jsonBody({ name: 'arm64' }, token))).status, 201)
  for (const arch of ['x64', 'arm64'])
    for (const v of ['1.0.0', '2.0.0']) {
      const res = await f(
        '/v1/apps/tern/versions',
        bearer(token, {
          method: 'POST',
          body: uploadForm({ version: v, channel: 'stable', platform: 'windows', arch, published: 'true' }, [
            [`Tern-${v}-${arch}.exe`, `exe ${v} ${arch}`],
          ]),
        }),
      )
      assert.equal(res.status, 201)
      const id = ((await res.json()) as { id: string }).id
      if (arch === 'x64') versionId = id
      else gatedId = id
    }
})

test('summing reports older than 30 days leaves adoption and the health tally as they were, and deletes the raw rows', async () => {
  // 1 March: three installs behind one address (it counts for 2), one failure elsewhere.
  for (const d of ['d1', 'd2', 'd3']) await reported(d, '198.51.100.1', 'installed')
  await reported('d4', '198.51.100.2', 'failed')
  // 2 March: the first address again (still 2 in all), one more failure.
  now = Date.parse('2026-03-02T23:59:00Z')
  for (const d of ['d5', 'd6']) await reported(d, '198.51.100.1', 'installed')
  await reported('d7', '198.51.100.3', 'failed')
  // 20 April: recent, stays raw; the first address's cap spans its raw and summed reports.
  now = Date.parse('2026-04-20T08:00:00Z')
  await reported('d8', '198.51.100.4', 'installed')
  await reported('d9', '198.51.100.1', 'installed')
  now = Date.parse('2026-04-25T12:00:00Z')
  // The session expired across the simulated weeks: log in again.
  await relogin()

  const adoptionBefore = await adoption()
  const healthBefore = await health()
  assert.deepEqual(healthBefore, { reports: 5, failed: 2, failedAddresses: 2 })
  assert.equal(await rawRows(), 9)

  assert.equal(await aggregateHealthReports(db, new Date(now), 30, 100, 2), 7, 'seven rows, in batches of two')
  assert.equal(await rawRows(), 2)
  assert.deepEqual(await adoption(), adoptionBefore)
  assert.deepEqual(await health(), healthBefore)
  assert.equal(await aggregateHealthReports(db, new Date(now), 30, 100, 2), 0, 'nothing is summed twice')
  assert.deepEqual(await adoption(), adoptionBefore)

  // Offers of the same old days are counted per day; the two recent reports keep theirs.
  assert.equal(await rawOffers(), 9)
  assert.equal(await aggregateOffers(db, new Date(now), 30, 100, 2), 7, 'seven offers, in batches of two')
  assert.equal(await rawOffers(), 2)
  assert.deepEqual(await adoption(), adoptionBefore)
  assert.deepEqual(await health(), healthBefore)
  assert.equal(await aggregateOffers(db, new Date(now), 30, 100, 2), 0, 'nothing is counted twice')
  assert.deepEqual(await adoption(), adoptionBefore)

  // A resume still starts the count over: the summed days are before it.
  assert.equal((await f(`/v1/apps/tern/versions/${versionId}/pause`, jsonBody({}, token))).status, 200)
  assert.equal((await f(`/v1/apps/tern/versions/${versionId}/resume`, jsonBody({}, token))).status, 200)
  assert.deepEqual(await health(), { reports: 0, failed: 0, failedAddresses: 0 })
})

test("a gated ramp holding for weeks has its old reports and offers summed but for its window's day, and its evidence reads the same", async () => {
  now = Date.parse('2026-05-01T10:00:00Z')
  await relogin()
  const set = await f(`/v1/apps/tern/versions/${gatedId}`, {
    ...jsonBody(
      {
        ramp: {
          steps: [
            { percentage: 100, afterMinutes: 0 },
            { percentage: 100, afterMinutes: 1440 },
            { percentage: 100, afterMinutes: 1440 },
          ],
          gate: { minInstalls: 3, maxFailureRatio: 0.5, deadlineMinutes: 525_600 },
        },
      },
      token,
    ),
    method: 'PATCH',
  })
  assert.equal(set.status, 200, await set.clone().text())
  // Step 1: three installs on its first day open the way to step 2 (at 10:00 on 2 May).
  now = Date.parse('2026-05-01T12:00:00Z')
  for (const d of ['g1', 'g2', 'g3']) await reported(d, `203.0.113.${d.slice(1)}`, 'installed', 'arm64')
  // 2 May, before step 2 began (step 1's), and after (step 2's); 5 May and 20 June, step 2's:
  // two installs and a failure, so the ramp holds before step 3 for weeks.
  now = Date.parse('2026-05-02T09:00:00Z')
  await reported('g4', '203.0.113.4', 'installed', 'arm64')
  now = Date.parse('2026-05-02T12:00:00Z')
  await reported('g5', '203.0.113.5', 'installed', 'arm64')
  now = Date.parse('2026-05-05T12:00:00Z')
  await reported('g6', '203.0.113.6', 'installed', 'arm64')
  now = Date.parse('2026-06-20T12:00:00Z')
  await reported('g7', '203.0.113.7', 'failed', 'arm64')
  now = Date.parse('2026-06-25T12:00:00Z')
  await relogin()

  const gate = async () => {
    const list = (await expectSpec(
      'searchAppVersions',
      await f('/v1/apps/tern/versions?limit=10&arch=arm64', bearer(token)),
      200,
    )) as { items: Array<{ id: string; rollout: { ramp: { currentStep: number; gate: unknown }; health: unknown } }> }
    const v = list.items.find((x) => x.id === gatedId)
    assert.ok(v)
    return { step: v.rollout.ramp.currentStep, gate: v.rollout.ramp.gate, health: v.rollout.health }
  }
  const evidence = await gate()
  assert.deepEqual(
    [
      evidence.step,
      (evidence.gate as { installs: number; met: boolean }).installs,
      (evidence.gate as { met: boolean }).met,
    ],
    [1, 2, false],
    "step 2 holds at 2 of 3: step 1's installs do not count",
  )
  const adoptionBefore = await adoption(gatedId, '2026-04-30', '2026-06-25')
  assert.equal(await rawRows(gatedId), 7)
  assert.equal(await rawOffers(gatedId), 7)

  // Cut-off 26 May: 1 and 5 May are summed; 2 May (the window opened at 10:00) and 20 June stay raw.
  await sumOldHealthReports(db, new Date(now), 30, 2)
  assert.equal(await rawRows(gatedId), 3)
  assert.deepEqual(await gate(), evidence)
  assert.deepEqual(await adoption(gatedId, '2026-04-30', '2026-06-25'), adoptionBefore)
  // The raw reports keep their offers (their addresses count); the others are counted per day.
  assert.equal(await aggregateOffers(db, new Date(now), 30, 100, 2), 4 + 2)
  assert.equal(await rawOffers(gatedId), 3)
  assert.deepEqual(await gate(), evidence)
  assert.deepEqual(await adoption(gatedId, '2026-04-30', '2026-06-25'), adoptionBefore)
  assert.equal(await sumOldHealthReports(db, new Date(now), 30, 2), 0, 'nothing is summed twice')
  assert.deepEqual(await gate(), evidence)
})
