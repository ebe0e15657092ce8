/**
 * A write, its audit entry and its webhook events commit together. With the audit log (or the
 * webhook outbox) refusing inserts through a trigger the test creates, each write answers the
 * documented 500 problem and leaves every table as it was; once the trigger is gone the same
 * write lands with exactly one entry, its before → after changes, and its events.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import { normalizePermissions } from '../../server/auth/permissions.ts'
import { dialectOf } from '../../server/storage/dialect.ts'
import type { Db } from '../../server/core/storage.ts'
import {
  PASSWORD,
  SIGNUP_KEY,
  bearer,
  expectProblem,
  jsonBody,
  login,
  memoryApp,
  signup,
  uploadForm,
  type Fetch,
} from './helpers.ts'

type Changes = Record<string, { from?: unknown; to?: unknown }>

/** Every table a write may touch; their rows before and after a refused write must match. */
const TABLES = [
  'teams',
  'users',
  'api_tokens',
  'apps',
  'channels',
  'platforms',
  'archs',
  'versions',
  'artifacts',
  'webhook_subscriptions',
  'webhook_deliveries',
  'audit_log',
] as const

async function snapshot(db: Db): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {}
  for (const table of TABLES) {
    const rows = await db.selectFrom(table).selectAll().execute()
    out[table] = rows.map((r) => JSON.stringify(r)).sort()
  }
  return out
}

/** Makes every insert into `table` fail until the returned function is called. */
async function refuseInserts(db: Db, table: 'audit_log' | 'webhook_deliveries'): Promise<() => Promise<void>> {
  const trigger = sql.raw(`refuse_${table}`)
  if (dialectOf(db) === 'postgres') {
    await sql`CREATE OR REPLACE FUNCTION ferry_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`.execute(
      db,
    )
    await sql`CREATE TRIGGER ${trigger} BEFORE INSERT ON ${sql.table(table)} FOR EACH ROW EXECUTE FUNCTION ferry_test_refuse()`.execute(
      db,
    )
    return async () => {
      await sql`DROP TRIGGER ${trigger} ON ${sql.table(table)}`.execute(db)
    }
  }
  await sql`CREATE TRIGGER ${trigger} BEFORE INSERT ON ${sql.table(table)} BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`.execute(
    db,
  )
  return async () => {
    await sql`DROP TRIGGER ${trigger}`.execute(db)
  }
}

const patch = (body: unknown, token: string): RequestInit => ({ ...jsonBody(body, token), method: 'PATCH' })
const del = (token: string): RequestInit => bearer(token, { method: 'DELETE' })
const post = (token: string): RequestInit => bearer(token, { method: 'POST' })

interface Case {
  /** The audit action the write is filed under. */
  action: string
  call: () => Promise<Response>
  status: number
  /** The entry's changes (before → after), when the case checks them. */
  changes?: Changes
  /** Webhook events the write raises (the team subscribes to all of them). */
  events?: string[]
}

async function world() {
  const m = await memoryApp()
  const f: Fetch = m.fetch
  const admin = await signup(f, 'admin@atomic.test')
  const t = admin.token
  const made = async (path: string, body: unknown) => {
    const res = await f(path, jsonBody(body, t))
    assert.equal(res.status, 201, await res.clone().text())
    return (await res.json()) as { id: string }
  }
  const channel = await made('/v1/channels', { name: 'stable' })
  const platform = await made('/v1/platforms', { name: 'windows' })
  const arch = await made('/v1/archs', { name: 'x64' })
  await made('/v1/apps', { slug: 'app-a', name: 'App A' })
  const events = [
    'version.uploaded',
    'version.published',
    'version.unpublished',
    'version.paused',
    'version.resumed',
    'version.pulled',
    'token.created',
    'token.revoked',
  ]
  await made('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events })
  return { m, f, t, channel, platform, arch }
}

test('a write whose audit entry or webhook event cannot be stored answers 500 and changes nothing; retried, it lands with its entry and events', async () => {
  const { m, f, t, channel, platform, arch } = await world()
  const ids: Record<string, string> = {}
  const idOf = async (res: Response, name: string) => {
    if (res.status === 201) ids[name] = ((await res.clone().json()) as { id: string }).id
    return res
  }
  const upload = () =>
    f(
      '/v1/apps/app-a/versions',
      bearer(t, {
        method: 'POST',
        body: uploadForm({ version: '1.0.0', channel: 'stable', platform: 'windows', arch: 'amd64' }, [
          ['a.exe', 'bytes'],
        ]),
      }),
    )
  const version = () => `/v1/apps/app-a/versions/${ids.version}`
  const cases: Case[] = [
    {
      action: 'team.create',
      status: 201,
      call: () =>
        f(
          '/v1/auth/signup',
          jsonBody({ teamName: 'Other', name: 'Other', email: 'other@atomic.test', password: PASSWORD }, undefined, {
            'x-ferry-signup-key': SIGNUP_KEY,
          }),
        ),
    },
    { action: 'session.create', status: 200, call: () => login(f, 'admin@atomic.test', PASSWORD) },
    { action: 'app.create', status: 201, call: () => f('/v1/apps', jsonBody({ slug: 'app-b', name: 'App B' }, t)) },
    {
      action: 'app.update',
      status: 200,
      call: () => f('/v1/apps/app-b', patch({ name: 'Renamed', private: true }, t)),
      changes: { name: { from: 'App B', to: 'Renamed' }, private: { from: false, to: true } },
    },
    {
      action: 'channel.create',
      status: 201,
      call: async () => idOf(await f('/v1/channels', jsonBody({ name: 'beta' }, t)), 'channel'),
    },
    {
      action: 'channel.update',
      status: 200,
      call: () => f(`/v1/channels/${ids.channel}`, patch({ name: 'canary', description: 'Early' }, t)),
      changes: { name: { from: 'beta', to: 'canary' }, description: { from: '', to: 'Early' } },
    },
    {
      action: 'platform.update',
      status: 200,
      call: () => f(`/v1/platforms/${platform.id}`, patch({ updater: 'electron-updater' }, t)),
      changes: { updater: { from: 'ferry', to: 'electron-updater' } },
    },
    {
      action: 'arch.update',
      status: 200,
      call: () => f(`/v1/archs/${arch.id}`, patch({ name: 'amd64' }, t)),
      changes: { name: { from: 'x64', to: 'amd64' } },
    },
    {
      action: 'channel.delete',
      status: 204,
      call: () => f(`/v1/channels/${ids.channel}`, del(t)),
      changes: { name: { from: 'canary' } },
    },
    {
      action: 'version.upload',
      status: 201,
      call: async () => idOf(await upload(), 'version'),
      events: ['version.uploaded'],
    },
    {
      action: 'version.publish',
      status: 200,
      call: () => f(version(), patch({ published: true }, t)),
      changes: { published: { from: false, to: true } },
      events: ['version.published'],
    },
    {
      action: 'version.update',
      status: 200,
      call: () =>
        f(
          version(),
          patch(
            {
              changelog: 'Fixes',
              ramp: {
                steps: [
                  { percentage: 10, afterMinutes: 0 },
                  { percentage: 100, afterMinutes: 60 },
                ],
              },
              healthPolicy: { maxFailureRatio: 0.2, minReports: 10 },
            },
            t,
          ),
        ),
      changes: {
        changelog: { from: '', to: 'Fixes' },
        ramp: {
          from: null,
          to: {
            steps: [
              { percentage: 10, afterMinutes: 0 },
              { percentage: 100, afterMinutes: 60 },
            ],
          },
        },
        healthPolicy: { from: null, to: { maxFailureRatio: 0.2, minReports: 10 } },
      },
    },
    {
      action: 'version.update',
      status: 200,
      call: () => f(version(), patch({ rolloutPercentage: 50 }, t)),
      changes: {
        rolloutPercentage: { from: 10, to: 50 },
        ramp: {
          from: {
            steps: [
              { percentage: 10, afterMinutes: 0 },
              { percentage: 100, afterMinutes: 60 },
            ],
          },
          to: null,
        },
      },
    },
    {
      action: 'version.pause',
      status: 200,
      call: () => f(`${version()}/pause`, jsonBody({ reason: 'crash' }, t)),
      changes: { paused: { from: false, to: true }, reason: { to: 'crash' } },
      events: ['version.paused'],
    },
    {
      action: 'version.resume',
      status: 200,
      call: () => f(`${version()}/resume`, post(t)),
      changes: { paused: { from: true, to: false } },
      events: ['version.resumed'],
    },
    {
      action: 'version.pull',
      status: 200,
      call: () => f(`${version()}/pull`, jsonBody({ reason: 'bad build' }, t)),
      changes: { pulled: { from: false, to: true }, reason: { to: 'bad build' } },
      events: ['version.pulled'],
    },
    {
      action: 'token.create',
      status: 201,
      call: async () => idOf(await f('/v1/team/tokens', jsonBody({ name: 'ci' }, t)), 'token'),
      events: ['token.created'],
    },
    {
      action: 'token.revoke',
      status: 204,
      call: () => f(`/v1/team/tokens/${ids.token}`, del(t)),
      changes: { name: { from: 'ci' }, expiresAt: { from: null } },
      events: ['token.revoked'],
    },
    {
      action: 'user.create',
      status: 201,
      call: async () =>
        idOf(await f('/v1/team/users', jsonBody({ email: 'u@atomic.test', name: 'U', password: PASSWORD }, t)), 'user'),
    },
    {
      action: 'user.update',
      status: 200,
      call: () =>
        f(
          `/v1/team/users/${ids.user}`,
          patch({ name: 'Ursula', permissions: { apps: { edit: { enabled: true } } } }, t),
        ),
      changes: {
        name: { from: 'U', to: 'Ursula' },
        permissions: {
          from: normalizePermissions({}),
          to: normalizePermissions({ apps: { edit: { enabled: true } } }),
        },
      },
    },
    {
      action: 'user.delete',
      status: 204,
      call: () => f(`/v1/team/users/${ids.user}`, del(t)),
      changes: { email: { from: 'u@atomic.test' }, name: { from: 'Ursula' } },
    },
    {
      action: 'version.delete',
      status: 204,
      call: () => f(version(), del(t)),
      changes: { version: { from: '1.0.0' } },
    },
    {
      action: 'app.delete',
      status: 204,
      call: () => f('/v1/apps/app-b', del(t)),
      changes: {
        name: { from: 'Renamed' },
        description: { from: '' },
        private: { from: true },
        tauriPublicKey: { from: null },
        sparklePublicKey: { from: null },
        tauriPublicKeys: { from: [] },
        sparklePublicKeys: { from: [] },
      },
    },
  ]
  void channel
  const deliveries = async () =>
    (await m.db.selectFrom('webhook_deliveries').select('event_type').orderBy('created_at').execute()).map(
      (r) => r.event_type,
    )

  for (const c of cases) {
    const refused = c.events ? (['audit_log', 'webhook_deliveries'] as const) : (['audit_log'] as const)
    for (const table of refused) {
      const before = await snapshot(m.db)
      const allow = await refuseInserts(m.db, table)
      try {
        await expectProblem(await c.call(), 500, 'internal')
      } finally {
        await allow()
      }
      assert.deepEqual(await snapshot(m.db), before, `${c.action} with ${table} refusing changed nothing`)
    }
    const entriesBefore = await m.db.selectFrom('audit_log').select('id').execute()
    const eventsBefore = (await deliveries()).length
    const res = await c.call()
    assert.equal(res.status, c.status, `${c.action}: ${await res.clone().text()}`)
    const added = await m.db
      .selectFrom('audit_log')
      .selectAll()
      .where('id', 'not in', entriesBefore.map((e) => e.id).concat(['']))
      .execute()
    assert.equal(added.length, 1, `${c.action} left one entry`)
    assert.equal(added[0]?.action, c.action)
    if (c.changes) assert.deepEqual(JSON.parse(added[0]?.changes ?? '{}'), c.changes, `${c.action}: before → after`)
    assert.deepEqual((await deliveries()).slice(eventsBefore), c.events ?? [], `${c.action}: its events in the outbox`)
  }
})

test('a health report that pauses a version records the pause, its system entry and its event together', async () => {
  const { m, f, t } = await world()
  const up = await f(
    '/v1/apps/app-a/versions',
    bearer(t, {
      method: 'POST',
      body: uploadForm({ version: '1.0.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }, [
        ['a.exe', 'bytes'],
      ]),
    }),
  )
  assert.equal(up.status, 201, await up.clone().text())
  const { id } = (await up.json()) as { id: string }
  const policy = { maxFailureRatio: 0.1, minReports: 1, minAddresses: 1 }
  assert.equal((await f(`/v1/apps/app-a/versions/${id}`, patch({ healthPolicy: policy }, t))).status, 200)
  const device = 'device-0001'
  const check = await f('/v1/apps/app-a/update?version=0.9.0&channel=stable&platform=windows&arch=x64&format=ferry', {
    headers: { 'x-ferry-device-id': device },
  })
  assert.equal(check.status, 200, await check.clone().text())
  const report = () =>
    f(
      '/v1/apps/app-a/health-reports',
      jsonBody({
        deviceId: device,
        version: '1.0.0',
        channel: 'stable',
        platform: 'windows',
        arch: 'x64',
        outcome: 'failed',
        reason: 'crash',
      }),
    )

  const before = await snapshot(m.db)
  const allow = await refuseInserts(m.db, 'webhook_deliveries')
  let refused: Response
  try {
    refused = await report()
  } finally {
    await allow()
  }
  await expectProblem(refused, 500, 'internal')
  const after = await snapshot(m.db)
  assert.deepEqual(after.versions, before.versions, 'the version is not paused without its event')
  assert.deepEqual(after.audit_log, before.audit_log)

  const res = await report()
  assert.equal(res.status, 202, await res.clone().text())
  assert.deepEqual(await res.json(), { counted: true, paused: true })
  const entry = await m.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', 'version.pause')
    .executeTakeFirstOrThrow()
  assert.equal(entry.actor_type, 'system')
  const events = await m.db
    .selectFrom('webhook_deliveries')
    .select('event_type')
    .where('event_type', '=', 'version.paused')
    .execute()
  assert.equal(events.length, 1)
})
