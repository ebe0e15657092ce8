/**
 * Telemetry with several instances and an unreliable database: two instances counting the same
 * device on the same day store one device and the sum of their checks; counts whose write failed
 * (PostgreSQL restarting) are written by a later flush exactly once, within the buffer's bounds;
 * a final flush that fails at shutdown says how many checks it lost. Starts its own cluster (it
 * has to stop it).
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import pg from 'pg'
import type { Logger } from '../../server/core/logger.ts'
import { isOutage } from '../../server/core/outage.ts'
import { openPostgresDb } from '../../server/storage/drivers/postgres-node.ts'
import type { Db } from '../../server/core/storage.ts'
import { TELEMETRY_BUFFER_LIMITS, TelemetryRecorder } from '../../server/telemetry/recorder.ts'
import {
  bearer,
  expectProblem,
  httpFetch,
  memoryApp,
  prepareUploadTeam,
  servedAgain,
  startTestServer,
  type Fetch,
  type TestServer,
} from './helpers.ts'
import { startOwnPostgres, type OwnPostgres } from '../../services/postgres-server.ts'

let cluster: OwnPostgres
before(async () => {
  cluster = await startOwnPostgres()
})
after(async () => cluster.stop())

const today = () => new Date().toISOString().slice(0, 10)
/** A distinct IPv4 address per `i`, as the recorder reads it. */
const addressOf = (i: number) => () => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
const check = (f: Fetch, device: string) =>
  f('/v1/apps/counted/update?version=1.0.0&platform=windows&arch=x64', {
    headers: { 'x-ferry-device-id': device },
  }).then((r) => r.arrayBuffer())

interface Row {
  checks: number
  devices: number
}
/** The report (which first flushes the answering instance's buffer). */
async function report(f: Fetch, token: string): Promise<Row[]> {
  const res = await f(`/v1/telemetry?from=${today()}&to=${today()}`, bearer(token))
  assert.equal(res.status, 200, await res.clone().text())
  return ((await res.json()) as { items: Row[] }).items.map((r) => ({ checks: r.checks, devices: r.devices }))
}

test('two instances counting one device on the same day: one device, the checks summed', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'ferry-telemetry-instances-'))
  const databaseUrl = await cluster.createDatabase()
  const servers: TestServer[] = []
  try {
    for (let i = 0; i < 2; i++) servers.push(await startTestServer(1024 * 1024, { databaseUrl, dataDir }))
    const [a, b] = servers.map((s) => httpFetch(s.url)) as [Fetch, Fetch]
    const token = await prepareUploadTeam(a, 'counted')
    for (let i = 0; i < 2; i++) await check(a, 'device-shared-0001')
    for (let i = 0; i < 3; i++) await check(b, 'device-shared-0001')
    await check(b, 'device-other-0002')
    // Each report flushes the instance that answers it (their timers may have flushed already).
    await report(b, token)
    assert.deepEqual(await report(a, token), [{ checks: 6, devices: 2 }])
    assert.deepEqual(await report(b, token), [{ checks: 6, devices: 2 }], 'nothing is written twice')
  } finally {
    await Promise.all(servers.map((s) => s.stop()))
    await rm(dataDir, { recursive: true, force: true })
  }
})

test(
  'PostgreSQL down during a flush: the counts stay buffered and arrive once it is back, exactly once',
  { timeout: 60_000 },
  async () => {
    const db = await openPostgresDb(await cluster.createDatabase(), { poolSize: 3, allowExitOnIdle: true })
    const m = await memoryApp({}, undefined, { db })
    try {
      const token = await prepareUploadTeam(m.fetch, 'counted')
      for (let i = 0; i < 3; i++) await check(m.fetch, `device-before-${i}`)
      await cluster.halt()
      await assert.rejects(m.app.lifecycle.flush(), (error) => isOutage(error), "the timer's flush fails")
      await expectProblem(
        await m.fetch(`/v1/telemetry?from=${today()}&to=${today()}`, bearer(token)),
        503,
        'unavailable',
      )
      await cluster.resume()
      // The pool reconnects on the next request; until then only the documented 503 may answer.
      await servedAgain(() => m.fetch(`/v1/telemetry?from=${today()}&to=${today()}`, bearer(token)))
      assert.deepEqual(await report(m.fetch, token), [{ checks: 3, devices: 3 }])
      await check(m.fetch, 'device-after-0')
      assert.deepEqual(await report(m.fetch, token), [{ checks: 4, devices: 4 }], 'later counts add to them, once')
    } finally {
      await db.destroy()
    }
  },
)

test(
  'counts put back after a failed write respect the buffer bounds; what does not fit is counted as dropped',
  { timeout: 60_000 },
  async () => {
    const url = await cluster.createDatabase()
    const db: Db = await openPostgresDb(url, { poolSize: 3, allowExitOnIdle: true })
    const locker = new pg.Client({ connectionString: url })
    await locker.connect()
    try {
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
      const key = (version: string) => ({
        app: 'flooded',
        version,
        channel: 'stable',
        platform: 'windows',
        arch: 'x64',
      })
      // Each device from its own address: the per-address bound on new devices stays out of the way.
      for (let i = 0; i < 100; i++) recorder.record(key('1.0.0'), `a-${i}`, addressOf(i))
      recorder.record(key('2.0.0'), 'b-0', addressOf(100))

      // The write waits on a lock; meanwhile the buffer fills; then its connection is cut.
      await locker.query('BEGIN')
      await locker.query('LOCK TABLE telemetry_counts IN ACCESS EXCLUSIVE MODE')
      const flushing = recorder.flush()
      let waiting: number | undefined
      for (let i = 0; i < 250 && waiting === undefined; i++) {
        const { rows } = await locker.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
        )
        waiting = rows[0]?.pid
        if (waiting === undefined) await new Promise((r) => setTimeout(r, 20))
      }
      assert.ok(waiting, 'the flush waits on the lock')
      assert.deepEqual(recorder.stats(), { buckets: 0, devices: 0, checks: 0, dropped: 0 }, 'the write took the buffer')
      for (let i = 1; i < TELEMETRY_BUFFER_LIMITS.devices; i++)
        recorder.record(key('2.0.0'), `f-${i}`, addressOf(1000 + i))
      await locker.query('SELECT pg_terminate_backend($1)', [waiting])
      await locker.query('ROLLBACK')
      await assert.rejects(flushing)
      // The flood also queued an early flush; either it or this one writes what was put back.
      await recorder.flush()
      assert.deepEqual(errors, [])
      // 1.0.0 came back with its 100 checks, but only one of its devices fit; 2.0.0's check was
      // added, its device b-0 no longer fit.
      assert.deepEqual(recorder.stats(), { buckets: 0, devices: 0, checks: 0, dropped: 99 + 1 })
      const stored = await db.selectFrom('telemetry_counts').select(['version', 'checks']).orderBy('version').execute()
      assert.deepEqual(stored, [
        { version: '1.0.0', checks: 100 },
        { version: '2.0.0', checks: TELEMETRY_BUFFER_LIMITS.devices },
      ])
      const devices = await db
        .selectFrom('telemetry_devices')
        .select((eb) => ['version', eb.fn.countAll<number>().as('n')])
        .groupBy('version')
        .orderBy('version')
        .execute()
      assert.deepEqual(
        devices.map((d) => [d.version, Number(d.n)]),
        [
          ['1.0.0', 1],
          ['2.0.0', TELEMETRY_BUFFER_LIMITS.devices - 1],
        ],
      )
    } finally {
      await locker.end()
      await db.destroy()
    }
  },
)

test(
  'a final flush that fails at shutdown is logged with the checks it loses; closing goes on',
  { timeout: 60_000 },
  async () => {
    const db = await openPostgresDb(await cluster.createDatabase(), { poolSize: 3, allowExitOnIdle: true })
    const logged: Array<{ obj: object; msg: string | undefined }> = []
    const logger: Logger = {
      debug() {},
      info() {},
      warn() {},
      error(obj, msg) {
        logged.push({ obj, msg })
      },
    }
    const m = await memoryApp({}, undefined, { db, logger })
    try {
      await prepareUploadTeam(m.fetch, 'counted')
      for (let i = 0; i < 5; i++) await check(m.fetch, `device-${i % 2}`)
      await cluster.halt()
      await m.app.lifecycle.close()
      const final = logged.find((l) => l.msg === 'final telemetry flush failed: its counts are lost')
      assert.ok(final, JSON.stringify(logged))
      assert.equal(Reflect.get(final.obj, 'lostChecks'), 5)
      assert.equal(Reflect.get(final.obj, 'lostDevices'), 2)
    } finally {
      await cluster.resume()
      await db.destroy()
    }
  },
)
