/**
 * A gated ramp's gate commits with the write that moved it. With the database refusing any change
 * of the gate (a trigger the test creates), a health report that would close the gate and a
 * policy change that would open it each answer the 500 problem and store nothing: no report row,
 * no policy, no audit entry. Once the trigger is gone the same writes land, gate and all.
 */
import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { sql } from 'kysely'
import { dialectOf } from '../../server/storage/dialect.ts'
import type { Db } from '../../server/core/storage.ts'
import { bearer, expectProblem, expectSpec, jsonBody, memoryApp, setUpTeam, uploadForm, type Fetch } from './helpers.ts'

let now = Date.parse('2026-06-01T08:00:00Z')
let f: Fetch
let db: Db
let token: string
let versionId = ''

/** Makes every change of a version's `gate_open` fail until the returned function is called. */
async function refuseGateChanges(): Promise<() => Promise<void>> {
  if (dialectOf(db) === 'postgres') {
    await sql`CREATE OR REPLACE FUNCTION ferry_test_refuse_gate() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`.execute(
      db,
    )
    await sql`CREATE TRIGGER refuse_gate BEFORE UPDATE ON versions FOR EACH ROW WHEN (OLD.gate_open IS DISTINCT FROM NEW.gate_open) EXECUTE FUNCTION ferry_test_refuse_gate()`.execute(
      db,
    )
    return async () => {
      await sql`DROP TRIGGER refuse_gate ON versions`.execute(db)
    }
  }
  await sql`CREATE TRIGGER refuse_gate BEFORE UPDATE OF gate_open ON versions WHEN OLD.gate_open != NEW.gate_open BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`.execute(
    db,
  )
  return async () => {
    await sql`DROP TRIGGER refuse_gate`.execute(db)
  }
}

/** Offers 2.0.0 to the device (the first step is 100 %), then sends its report. */
async function report(deviceId: string, address: string, outcome: 'installed' | 'failed') {
  const check = await f('/v1/apps/wren/update?version=1.0.0&platform=windows&arch=x64&format=ferry', {
    headers: { 'x-ferry-device-id': deviceId, 'x-test-client': address },
  })
  assert.equal(check.status, 200, await check.clone().text())
  return f(
    '/v1/apps/wren/health-reports',
    jsonBody(
      {
        deviceId,
        version: '2.0.0',
        channel: 'stable',
        platform: 'windows',
        arch: 'x64',
        outcome,
        ...(outcome === 'failed' ? { reason: 'Crash on start' } : {}),
      },
      undefined,
      { 'x-test-client': address },
    ),
  )
}

interface Listed {
  id: string
  rollout: {
    ramp: { gate?: { met: boolean; installs: number } } | null
    health: { reports: number; policy: { maxReportsPerAddress: number } }
  }
}
async function version() {
  const list = (await expectSpec(
    'searchAppVersions',
    await f('/v1/apps/wren/versions?limit=10', bearer(token)),
    200,
  )) as {
    items: Listed[]
  }
  const v = list.items.find((x) => x.id === versionId)
  assert.ok(v)
  return {
    met: v.rollout.ramp?.gate?.met,
    reports: v.rollout.health.reports,
    cap: v.rollout.health.policy.maxReportsPerAddress,
  }
}
const rows = async () => ({
  reports: (await db.selectFrom('health_reports').select('device_hash').execute()).length,
  audit: (await db.selectFrom('audit_log').select('id').execute()).length,
})
const setPolicy = (maxReportsPerAddress: number) =>
  f(`/v1/apps/wren/versions/${versionId}`, {
    ...jsonBody(
      { healthPolicy: { maxFailureRatio: 0.9, minReports: 1000, minAddresses: 1, maxReportsPerAddress } },
      token,
    ),
    method: 'PATCH',
  })

before(async () => {
  const m = await memoryApp({}, () => new Date(now), { clientIp: (c) => c.req.header('x-test-client') })
  f = m.fetch
  db = m.db
  token = await setUpTeam(f, 'admin@wren.test', [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'ferry' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/apps', { slug: 'wren', name: 'Wren' }],
  ])
  for (const v of ['1.0.0', '2.0.0']) {
    const res = await f(
      '/v1/apps/wren/versions',
      bearer(token, {
        method: 'POST',
        body: uploadForm({ version: v, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }, [
          [`Wren-${v}.exe`, `exe ${v}`],
        ]),
      }),
    )
    assert.equal(res.status, 201, await res.clone().text())
    versionId = ((await res.json()) as { id: string }).id
  }
  const ramp = await f(`/v1/apps/wren/versions/${versionId}`, {
    ...jsonBody(
      {
        ramp: {
          steps: [
            { percentage: 100, afterMinutes: 0 },
            { percentage: 100, afterMinutes: 60 },
          ],
          gate: { minInstalls: 2, maxFailureRatio: 0.2, deadlineMinutes: 10_000 },
        },
      },
      token,
    ),
    method: 'PATCH',
  })
  assert.equal(ramp.status, 200, await ramp.clone().text())
  assert.equal((await setPolicy(1)).status, 200)
  now += 60_000
  // Two installs from one address, which counts for one: the gate stays closed.
  for (const d of ['wren-device-1', 'wren-device-2'])
    assert.deepEqual(await (await report(d, '198.51.100.1', 'installed')).json(), { counted: true, paused: false })
  assert.deepEqual(await version(), { met: false, reports: 1, cap: 1 })
})

test('a policy change that would open the gate, refused with it, leaves the policy and the audit log as they were', async () => {
  const restore = await refuseGateChanges()
  const before = await rows()
  await expectProblem(await setPolicy(5), 500, 'internal')
  assert.deepEqual(await version(), { met: false, reports: 1, cap: 1 }, 'policy and gate unchanged')
  assert.deepEqual(await rows(), before, 'no audit entry')
  await restore()
  assert.equal((await setPolicy(5)).status, 200)
  assert.deepEqual(await version(), { met: true, reports: 2, cap: 5 })
  assert.equal((await rows()).audit, before.audit + 1)
})

test('a health report that would close the gate, refused with it, is not stored', async () => {
  const restore = await refuseGateChanges()
  const before = await rows()
  // One failure in three is above the gate's 20 %: the gate would close.
  await expectProblem(await report('wren-device-3', '198.51.100.3', 'failed'), 500, 'internal')
  assert.deepEqual(await rows(), before, 'no report row')
  assert.deepEqual(await version(), { met: true, reports: 2, cap: 5 })
  await restore()
  assert.deepEqual(await (await report('wren-device-3', '198.51.100.3', 'failed')).json(), {
    counted: true,
    paused: false,
  })
  assert.deepEqual(await version(), { met: false, reports: 3, cap: 5 })
})
