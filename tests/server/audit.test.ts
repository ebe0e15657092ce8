/**
 * The audit log: every successful write leaves one entry naming its actor (user, API token with
 * its creator, or the system), action, target, changes and client address; a refused write
 * leaves none; secrets never reach it; `GET /v1/audit` shows each caller what they may read,
 * filtered and paged; retention prunes by age.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { pruneAudit } from '../../server/storage/accounts/audit-log.ts'
import type { Db } from '../../server/core/storage.ts'
import {
  PASSWORD,
  SIGNUP_KEY,
  bearer,
  expectProblem,
  expectSpec,
  jsonBody,
  memoryApp,
  signup,
  uploadForm,
  type Fetch,
} from './helpers.ts'

type Entry = {
  id: string
  at: string
  action: string
  operationId: string | null
  address: string | null
  actor: {
    type: string
    id: string
    name: string
    email: string | null
    createdBy: { id: string; email: string } | null
  }
  target: { type: string; id: string | null; app: string | null }
  changes: Record<string, { from?: unknown; to?: unknown }>
}

const patch = (body: unknown, token: string): RequestInit => ({ ...jsonBody(body, token), method: 'PATCH' })

/** An app whose client address is the `x-test-client` header, as a trusted proxy would forward it. */
const auditedApp = () => memoryApp({}, undefined, { clientIp: (c) => c.req.header('x-test-client') })

async function entries(f: Fetch, token: string, query = ''): Promise<Entry[]> {
  const res = await f(`/v1/audit${query}`, bearer(token))
  const body = (await expectSpec('listAuditEntries', res, 200)) as { items: Entry[] }
  return body.items
}

async function allRows(db: Db) {
  return db.selectFrom('audit_log').selectAll().execute()
}

async function team(f: Fetch) {
  const admin = await signup(f, 'admin@audit.test')
  for (const [path, name] of [
    ['/v1/channels', 'stable'],
    ['/v1/platforms', 'windows'],
    ['/v1/archs', 'x64'],
  ] as const) {
    assert.equal((await f(path, jsonBody({ name }, admin.token))).status, 201)
  }
  for (const slug of ['app-a', 'app-b'])
    assert.equal((await f('/v1/apps', jsonBody({ slug, name: slug }, admin.token))).status, 201)
  return admin
}

test('each successful write is one entry with actor, action, target, changes and address; refused writes add none', async () => {
  const m = await auditedApp()
  const admin = await team(m.fetch)
  const before = (await allRows(m.db)).length
  const renamed = await m.fetch('/v1/apps/app-a', {
    ...patch({ name: 'App A', description: 'Notes' }, admin.token),
    headers: { ...patch({}, admin.token).headers, 'x-test-client': '203.0.113.7' },
  })
  assert.equal(renamed.status, 200)
  // Refused: a duplicate slug (409), a bad body (400), an unknown app (404), no token (401).
  assert.equal((await m.fetch('/v1/apps', jsonBody({ slug: 'app-a', name: 'again' }, admin.token))).status, 409)
  assert.equal((await m.fetch('/v1/apps/app-a', patch({ private: 'yes' }, admin.token))).status, 400)
  assert.equal((await m.fetch('/v1/apps/nope', patch({ name: 'x' }, admin.token))).status, 404)
  assert.equal((await m.fetch('/v1/apps/app-a', { method: 'DELETE' })).status, 401)
  assert.equal((await allRows(m.db)).length, before + 1, 'only the successful write left an entry')

  const [latest] = await entries(m.fetch, admin.token)
  assert.ok(latest)
  assert.equal(latest.action, 'app.update')
  assert.equal(latest.operationId, 'updateApp')
  assert.deepEqual(latest.actor, {
    type: 'user',
    id: admin.user.id,
    name: 'Admin',
    email: 'admin@audit.test',
    createdBy: null,
  })
  assert.deepEqual(latest.target, { type: 'app', id: 'app-a', app: 'app-a' })
  assert.deepEqual(latest.changes, { name: { from: 'app-a', to: 'App A' }, description: { from: '', to: 'Notes' } })
  assert.equal(latest.address, '203.0.113.7')

  const all = await entries(m.fetch, admin.token, '?limit=100')
  assert.deepEqual(
    all.map((e) => e.action),
    ['app.update', 'app.create', 'app.create', 'arch.create', 'platform.create', 'channel.create', 'team.create'],
  )
  assert.deepEqual(all.find((e) => e.action === 'channel.create')?.target.type, 'channel')
  assert.match(all.find((e) => e.action === 'channel.create')?.target.id ?? '', /^ch_/)
})

test('versions: upload, publish, pause, resume and pull are filed under their verbs with the version as target', async () => {
  const m = await auditedApp()
  const admin = await team(m.fetch)
  const up = await m.fetch(
    '/v1/apps/app-a/versions',
    bearer(admin.token, {
      method: 'POST',
      body: uploadForm({ version: '1.0.0', channel: 'stable', platform: 'windows', arch: 'x64' }, [['a.exe', 'bytes']]),
    }),
  )
  assert.equal(up.status, 201, await up.clone().text())
  const { id } = (await up.json()) as { id: string }
  assert.equal((await m.fetch(`/v1/apps/app-a/versions/${id}`, patch({ published: true }, admin.token))).status, 200)
  assert.equal(
    (await m.fetch(`/v1/apps/app-a/versions/${id}/pause`, jsonBody({ reason: 'crash on start' }, admin.token))).status,
    200,
  )
  assert.equal(
    (
      await m.fetch(`/v1/apps/app-a/versions/${id}/resume`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}` },
      })
    ).status,
    200,
  )
  assert.equal((await m.fetch(`/v1/apps/app-a/versions/${id}/pull`, jsonBody({}, admin.token))).status, 200)
  const versions = await entries(m.fetch, admin.token, '?action=version.')
  assert.deepEqual(
    versions.map((e) => e.action),
    ['version.pull', 'version.resume', 'version.pause', 'version.publish', 'version.upload'],
  )
  for (const e of versions) assert.deepEqual(e.target, { type: 'version', id, app: 'app-a' })
  assert.deepEqual(
    versions.slice(0, 3).map((e) => e.changes),
    [
      { pulled: { from: false, to: true }, reason: { to: 'Pulled by Admin' } },
      { paused: { from: true, to: false } },
      { reason: { to: 'crash on start' }, paused: { from: false, to: true } },
    ],
  )
  const uploaded = versions[4]?.changes ?? {}
  assert.deepEqual(
    [uploaded.version, uploaded.channel, uploaded.platform, uploaded.arch, uploaded.files],
    [{ to: '1.0.0' }, { to: 'stable' }, { to: 'windows' }, { to: 'x64' }, { to: ['a.exe'] }],
  )
  assert.deepEqual(await entries(m.fetch, admin.token, '?action=version.pause'), [versions[2]])
  assert.deepEqual(
    await entries(m.fetch, admin.token, '?action=version'),
    [],
    'without the dot, action is an exact match',
  )
})

test('an API token is the actor, with its creator; token values, passwords and the signup key never reach the log', async () => {
  const m = await auditedApp()
  const admin = await team(m.fetch)
  const created = await m.fetch(
    '/v1/team/users',
    jsonBody(
      { email: 'dev@audit.test', name: 'Dev', password: PASSWORD, permissions: { apps: { edit: { enabled: true } } } },
      admin.token,
    ),
  )
  assert.equal(created.status, 201)
  const dev = (await created.json()) as { id: string }
  const devLogin = await m.fetch('/v1/auth/login', jsonBody({ email: 'dev@audit.test', password: PASSWORD }))
  const devToken = ((await devLogin.json()) as { token: string }).token
  const tokenRes = await m.fetch(
    '/v1/team/tokens',
    jsonBody({ name: 'ci', permissions: { apps: { edit: { enabled: true } } } }, devToken),
  )
  assert.equal(tokenRes.status, 201)
  const apiToken = (await tokenRes.json()) as { id: string; token: string }
  assert.equal((await m.fetch('/v1/apps/app-b', patch({ private: true }, apiToken.token))).status, 200)
  const newPassword = 'another-long-passphrase-9'
  assert.equal(
    (await m.fetch(`/v1/team/users/${dev.id}`, patch({ password: newPassword, name: 'Developer' }, admin.token)))
      .status,
    200,
  )

  const [byToken] = await entries(m.fetch, admin.token, `?actor=${apiToken.id}`)
  assert.deepEqual(byToken?.actor, {
    type: 'token',
    id: apiToken.id,
    name: 'ci',
    email: null,
    createdBy: { id: dev.id, email: 'dev@audit.test' },
  })
  assert.deepEqual(byToken?.changes, { private: { from: false, to: true } })
  assert.deepEqual(
    (await entries(m.fetch, admin.token, '?actor=dev@audit.test')).map((e) => e.action),
    ['app.update', 'token.create', 'session.create'],
    "filtering by the creator's email includes their tokens",
  )
  const userUpdate = (await entries(m.fetch, admin.token, '?action=user.update'))[0]
  assert.deepEqual(userUpdate?.changes, { name: { from: 'Dev', to: 'Developer' } })
  // Last: a new admin password ends the admin's session.
  assert.equal(
    (await m.fetch('/v1/team/admin', patch({ currentPassword: PASSWORD, newPassword }, admin.token))).status,
    204,
  )
  const change = await m.db.selectFrom('audit_log').selectAll().where('action', '=', 'admin.password.change').execute()
  assert.deepEqual(
    change.map((r) => [r.target_type, r.target_id, r.changes]),
    [['user', admin.user.id, '{}']],
  )

  const stored = JSON.stringify(await allRows(m.db))
  const hashes = (await m.db.selectFrom('users').select('password_hash').execute()).map((r) => r.password_hash)
  const tokenHash = (await m.db.selectFrom('api_tokens').select('token_hash').execute()).map((r) => r.token_hash)
  for (const secret of [PASSWORD, newPassword, apiToken.token, SIGNUP_KEY, ...hashes, ...tokenHash]) {
    assert.ok(!stored.includes(secret), `the audit log holds a secret: ${secret.slice(0, 12)}…`)
  }
})

test('a team user sees their apps and their own entries; the admin sees the team; another team sees nothing', async () => {
  const m = await auditedApp()
  const admin = await team(m.fetch)
  const grants = { apps: { edit: { enabled: true, allowed: ['app-a'] } }, channels: { create: { enabled: true } } }
  assert.equal(
    (
      await m.fetch(
        '/v1/team/users',
        jsonBody({ email: 'ann@audit.test', name: 'Ann', password: PASSWORD, permissions: grants }, admin.token),
      )
    ).status,
    201,
  )
  const ann = (
    (await (await m.fetch('/v1/auth/login', jsonBody({ email: 'ann@audit.test', password: PASSWORD }))).json()) as {
      token: string
    }
  ).token
  assert.equal((await m.fetch('/v1/apps/app-a', patch({ description: 'by admin' }, admin.token))).status, 200)
  assert.equal((await m.fetch('/v1/apps/app-b', patch({ description: 'by admin' }, admin.token))).status, 200)
  assert.equal((await m.fetch('/v1/channels', jsonBody({ name: 'beta' }, ann))).status, 201)

  const seen = await entries(m.fetch, ann, '?limit=100')
  assert.deepEqual(
    seen.map((e) => `${e.action} ${e.target.app ?? '-'} ${e.actor.email ?? ''}`),
    [
      'channel.create - ann@audit.test',
      'app.update app-a admin@audit.test',
      'session.create - ann@audit.test',
      'app.create app-a admin@audit.test',
    ],
  )
  assert.deepEqual(await entries(m.fetch, ann, '?app=app-b'), [])
  const adminSees = await entries(m.fetch, admin.token, '?limit=100')
  assert.ok(adminSees.some((e) => e.target.app === 'app-b') && adminSees.some((e) => e.action === 'user.create'))

  const other = await signup(m.fetch, 'other@audit.test', 'Other')
  assert.deepEqual(
    (await entries(m.fetch, other.token, '?limit=100')).map((e) => e.action),
    ['team.create'],
  )
  assert.equal((await m.fetch('/v1/audit')).status, 401)
})

test('filters by time and pages newest first without losing or repeating an entry', async () => {
  let now = Date.parse('2025-03-01T00:00:00Z')
  const m = await memoryApp({}, () => new Date(now))
  const admin = await team(m.fetch)
  for (let i = 0; i < 7; i++) {
    now += 60_000
    assert.equal((await m.fetch('/v1/apps/app-a', patch({ description: `d${i}` }, admin.token))).status, 200)
  }
  const all = await entries(m.fetch, admin.token, '?limit=100')
  const pages: string[] = []
  let cursor: string | null = null
  do {
    const res = await m.fetch(`/v1/audit?limit=3${cursor ? `&cursor=${cursor}` : ''}`, bearer(admin.token))
    const body = (await expectSpec('listAuditEntries', res, 200)) as { items: Entry[]; nextCursor: string | null }
    pages.push(...body.items.map((e) => e.id))
    cursor = body.nextCursor
  } while (cursor)
  assert.deepEqual(
    pages,
    all.map((e) => e.id),
  )
  assert.deepEqual(
    [...all].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).map((e) => e.id),
    all.map((e) => e.id),
    'newest first',
  )
  const window = await entries(m.fetch, admin.token, '?from=2025-03-01T00:02:00Z&to=2025-03-01T00:05:00Z')
  assert.deepEqual(
    window.map((e) => e.changes.description?.to),
    ['d3', 'd2', 'd1'],
  )
  await expectProblem(await m.fetch('/v1/audit?cursor=nonsense', bearer(admin.token)), 400, 'validation', 'cursor')
  await expectProblem(await m.fetch('/v1/audit?from=yesterday', bearer(admin.token)), 400, 'validation', 'from')
})

test('retention: entries older than the retention go, in batches; 0 keeps everything', async () => {
  const m = await memoryApp()
  const admin = await signup(m.fetch, 'admin@retention.test')
  const row = (i: number, at: string) => ({
    id: `aud_r${i}`,
    team_id: admin.team.id,
    at,
    actor_type: 'system' as const,
    actor_id: 'system',
    actor_name: 'Ferry',
    actor_email: null,
    actor_user_id: null,
    creator_email: null,
    operation_id: null,
    action: 'version.pause',
    target_type: 'version',
    target_id: null,
    app_slug: null,
    changes: '{}',
    address: null,
  })
  await m.db
    .insertInto('audit_log')
    .values([
      ...Array.from({ length: 25 }, (_, i) => row(i, '2024-01-01T00:00:00.000Z')),
      row(99, '2025-06-01T00:00:00.000Z'),
    ])
    .execute()
  const now = new Date('2025-06-02T00:00:00Z')
  assert.equal(await pruneAudit(m.db, now, 0), 0)
  assert.equal(await pruneAudit(m.db, now, 30, 2, 10), 20, 'two batches of ten, then it stops until the next run')
  assert.equal(await pruneAudit(m.db, now, 30, 100, 10), 5)
  const left = await m.db.selectFrom('audit_log').select('id').where('team_id', '=', admin.team.id).execute()
  assert.deepEqual(
    left.map((r) => r.id).sort(),
    [
      'aud_r99',
      ...(await m.db.selectFrom('audit_log').select('id').where('action', '=', 'team.create').execute()).map(
        (r) => r.id,
      ),
    ].sort(),
  )
})
