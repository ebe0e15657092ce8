/**
 * Bounded health storage: reports older than 30 days are summed per version, day and client
 * address, their rows deleted in small batches, and a version's adoption and health tally read
 * the same before and after (the per-address cap applies across raw and summed reports alike).
 */
import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { aggregateHealthReports } from '../../server/storage/health-daily.ts'
import { PASSWORD, bearer, expectSpec, jsonBody, memoryApp, signup, uploadForm, type Fetch } from './helpers.ts'

let now = Date.parse('2026-03-01T10:00:00Z')
let f: Fetch
let db: Awaited<ReturnType<typeof memoryApp>>['db']
let token: string
let versionId = ''

async function reported(deviceId: string, address: string, outcome: 'installed' | 'failed') {
  const check = await f('/v1/apps/tern/update?version=1.0.0&platform=windows&arch=x64&format=ferry', {
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
        arch: 'x64',
        outcome,
        ...(outcome === 'failed' ? { reason: 'Crash' } : {}),
      },
      undefined,
      { 'x-test-client': address },
    ),
  )
  assert.deepEqual(await res.json(), { counted: true, paused: false })
}

const adoption = async () =>
  expectSpec(
    'getVersionAdoption',
    await f(`/v1/apps/tern/versions/${versionId}/adoption?from=2026-02-28&to=2026-04-25`, bearer(token)),
    200,
  )
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
const rawRows = async () =>
  (await db.selectFrom('health_reports').select('device_hash').where('version_id', '=', versionId).execute()).length

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
  for (const v of ['1.0.0', '2.0.0']) {
    const res = await f(
      '/v1/apps/tern/versions',
      bearer(token, {
        method: 'POST',
        body: uploadForm({ version: v, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }, [
          [`Tern-${v}.exe`, `exe ${v}`],
        ]),
      }),
    )
    assert.equal(res.status, 201)
    versionId = ((await res.json()) as { id: string }).id
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
  const login = await f('/v1/auth/login', jsonBody({ email: 'admin@tern.test', password: PASSWORD }))
  token = ((await login.json()) as { token: string }).token

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

  // A resume still starts the count over: the summed days are before it.
  assert.equal((await f(`/v1/apps/tern/versions/${versionId}/pause`, jsonBody({}, token))).status, 200)
  assert.equal((await f(`/v1/apps/tern/versions/${versionId}/resume`, jsonBody({}, token))).status, 200)
  assert.deepEqual(await health(), { reports: 0, failed: 0, failedAddresses: 0 })
})
