/**
 * API tokens for machines: shown once, stored as a hash, used as `Bearer ferry_…`, never more than
 * their creator holds now, revoked or expired at once, and unable to manage tokens or users.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { test } from 'node:test'
import {
  PASSWORD,
  bearer,
  expectProblem,
  expectSpec,
  jsonBody,
  memoryApp,
  prepareUploadTeam,
  uploadForm,
  type Fetch,
} from './helpers.ts'

const START = new Date('2025-06-01T00:00:00Z')

interface Created {
  id: string
  token: string
  lastUsedAt: string | null
  expiresAt: string | null
}

/** A team with apps `harbor` and `other`, and Grace, who may upload to both and download. */
async function team() {
  let now = START
  const m = await memoryApp({}, () => now)
  const f: Fetch = m.fetch
  const admin = await prepareUploadTeam(f, 'harbor')
  await expectSpec('createApp', await f('/v1/apps', jsonBody({ slug: 'other', name: 'Other' }, admin)), 201)
  const grace = (await expectSpec(
    'createTeamUser',
    await f(
      '/v1/team/users',
      jsonBody(
        {
          email: 'grace@acme.test',
          name: 'Grace',
          password: PASSWORD,
          permissions: {
            apps: { upload: { enabled: true, allowed: ['harbor', 'other'] }, download: { enabled: true } },
          },
        },
        admin,
      ),
    ),
    201,
  )) as { id: string }
  const login = (await (
    await f('/v1/auth/login', jsonBody({ email: 'grace@acme.test', password: PASSWORD }))
  ).json()) as { token: string }
  const create = async (body: unknown, as = login.token) =>
    (await expectSpec('createApiToken', await f('/v1/team/tokens', jsonBody(body, as)), 201)) as Created
  const upload = (token: string, app: string, version: string) =>
    f(
      `/v1/apps/${app}/versions`,
      bearer(token, {
        method: 'POST',
        body: uploadForm({ version, channel: 'stable', platform: 'windows', arch: 'x64' }, [['setup.exe', 'bytes']]),
      }),
    )
  return {
    ...m,
    f,
    admin,
    graceId: grace.id,
    grace: login.token,
    create,
    upload,
    tick: (ms: number) => {
      now = new Date(now.getTime() + ms)
    },
    at: () => now,
  }
}

const UPLOAD_HARBOR = { apps: { upload: { enabled: true, allowed: ['harbor'] } } }

test('the secret is in the 201 only; the list never shows it', async () => {
  const t = await team()
  const res = await t.f('/v1/team/tokens', jsonBody({ name: 'ci', permissions: UPLOAD_HARBOR }, t.grace))
  assert.equal(res.headers.get('cache-control'), 'no-store')
  const created = (await expectSpec('createApiToken', res, 201)) as Created & {
    createdBy: string
    permissions: { apps: { upload: unknown } }
  }
  assert.match(created.token, /^ferry_[0-9A-Za-z]{32}$/)
  assert.equal(created.createdBy, t.graceId)
  assert.equal(created.expiresAt, null)
  assert.equal(created.lastUsedAt, null)
  assert.deepEqual(created.permissions.apps.upload, { enabled: true, allowed: ['harbor'] })
  const list = await t.f('/v1/team/tokens', bearer(t.grace))
  const text = await list.clone().text()
  const body = (await expectSpec('listApiTokens', list, 200)) as { items: Array<Record<string, unknown>> }
  assert.deepEqual(
    body.items.map((i) => i.id),
    [created.id],
  )
  assert.ok(!('token' in (body.items[0] ?? {})))
  assert.ok(!text.includes(created.token.slice('ferry_'.length)), 'the secret is not listed')
})

test('the database holds the SHA-256 of the token, never the token', async () => {
  const t = await team()
  const { id, token } = await t.create({ name: 'ci' })
  const row = await t.db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  assert.equal(row.token_hash, createHash('sha256').update(token).digest('hex'))
  const secret = token.slice('ferry_'.length)
  assert.ok(!Object.values(row).some((v) => typeof v === 'string' && v.includes(secret)))
})

test('a token uploads to the apps it lists, and nowhere else', async () => {
  const t = await team()
  const { token } = await t.create({ name: 'ci', permissions: UPLOAD_HARBOR })
  await expectSpec('uploadVersion', await t.upload(token, 'harbor', '1.0.0'), 201)
  const outside = await t.upload(token, 'other', '1.0.0')
  await expectSpec('uploadVersion', outside.clone(), 403)
  assert.match((await expectProblem(outside, 403, 'forbidden')).detail, /apps\.upload for other/)
  // Its creator could; the token holds only what it was given.
  await expectSpec('uploadVersion', await t.upload(t.grace, 'other', '1.0.0'), 201)
  await expectSpec('deleteApp', await t.f('/v1/apps/harbor', bearer(token, { method: 'DELETE' })), 403)
})

test('a token cannot hold more than its creator', async () => {
  const t = await team()
  for (const [permissions, names] of [
    [{ apps: { delete: { enabled: true } } }, /you do not hold apps\.delete\b/],
    [{ apps: { upload: { enabled: true, allowed: ['harbor', 'third'] } } }, /apps\.upload for third/],
    [{ apps: { upload: { enabled: true } } }, /apps\.upload without an allowed list/],
    [{ channels: { create: { enabled: true } } }, /channels\.create/],
  ] as const) {
    const res = await t.f('/v1/team/tokens', jsonBody({ name: 'too much', permissions }, t.grace))
    await expectSpec('createApiToken', res.clone(), 403)
    assert.match((await expectProblem(res, 403, 'forbidden')).detail, names)
  }
  assert.equal((await t.db.selectFrom('api_tokens').selectAll().execute()).length, 0)
  // The admin holds every grant of the team, so may give any.
  await t.create(
    { name: 'admin ci', permissions: { apps: { delete: { enabled: true } }, channels: { create: { enabled: true } } } },
    t.admin,
  )
})

test("a token acts with its grants intersected with its creator's current ones", async () => {
  const t = await team()
  const { token } = await t.create(
    { name: 'ci', permissions: { apps: { upload: { enabled: true }, download: { enabled: true } } } },
    t.admin,
  )
  const grant = await t.create({ name: 'grace ci', permissions: UPLOAD_HARBOR })
  await expectSpec('uploadVersion', await t.upload(grant.token, 'harbor', '1.0.0'), 201)
  await expectSpec(
    'updateTeamUser',
    await t.f(`/v1/team/users/${t.graceId}`, {
      ...jsonBody({ permissions: { apps: { download: { enabled: true } } } }, t.admin),
      method: 'PATCH',
    }),
    200,
  )
  const refused = await t.upload(grant.token, 'harbor', '1.0.1')
  await expectSpec('uploadVersion', refused.clone(), 403)
  assert.match((await expectProblem(refused, 403, 'forbidden')).detail, /needs apps\.upload/)
  const me = (await expectSpec('whoami', await t.f('/v1/whoami', bearer(grant.token)), 200)) as {
    user: { id: string }
    permissions: { apps: { upload: { enabled: boolean }; download: { enabled: boolean } } }
  }
  assert.equal(me.user.id, t.graceId)
  assert.equal(me.permissions.apps.upload.enabled, false)
  assert.equal(me.permissions.apps.download.enabled, false, 'the token was never given download')
  // Given back, the grant works again: the token itself was never changed.
  await t.f(`/v1/team/users/${t.graceId}`, {
    ...jsonBody({ permissions: { apps: { upload: { enabled: true } } } }, t.admin),
    method: 'PATCH',
  })
  await expectSpec('uploadVersion', await t.upload(grant.token, 'harbor', '1.0.1'), 201)
  // The admin's token holds what it lists, not the admin's role.
  await expectSpec('uploadVersion', await t.upload(token, 'other', '2.0.0'), 201)
  await expectSpec('createApp', await t.f('/v1/apps', jsonBody({ slug: 'third', name: 'Third' }, token)), 403)
})

test('removing the creator removes their tokens', async () => {
  const t = await team()
  const { token } = await t.create({ name: 'ci', permissions: UPLOAD_HARBOR })
  await expectSpec('whoami', await t.f('/v1/whoami', bearer(token)), 200)
  await expectSpec(
    'deleteTeamUser',
    await t.f(`/v1/team/users/${t.graceId}`, bearer(t.admin, { method: 'DELETE' })),
    204,
  )
  const res = await t.f('/v1/whoami', bearer(token))
  assert.match((await expectProblem(res, 401, 'unauthorized')).detail, /API token is not known/)
  assert.equal((await t.db.selectFrom('api_tokens').selectAll().execute()).length, 0)
})

test('revoking: at once, by the creator or the admin; each sees the tokens they may revoke', async () => {
  const t = await team()
  const mine = await t.create({ name: 'grace ci' })
  const spare = await t.create({ name: 'grace spare' })
  const admins = await t.create({ name: 'admin ci' }, t.admin)
  const ids = async (as: string) =>
    (
      (await expectSpec('listApiTokens', await t.f('/v1/team/tokens', bearer(as)), 200)) as {
        items: Array<{ id: string }>
      }
    ).items
      .map((i) => i.id)
      .sort()
  assert.deepEqual(await ids(t.grace), [mine.id, spare.id].sort())
  assert.deepEqual(await ids(t.admin), [mine.id, spare.id, admins.id].sort())

  await expectSpec('whoami', await t.f('/v1/whoami', bearer(mine.token)), 200)
  await expectSpec(
    'revokeApiToken',
    await t.f(`/v1/team/tokens/${mine.id}`, bearer(t.grace, { method: 'DELETE' })),
    204,
  )
  await expectSpec('whoami', await t.f('/v1/whoami', bearer(mine.token)), 401)
  await expectSpec(
    'revokeApiToken',
    await t.f(`/v1/team/tokens/${mine.id}`, bearer(t.grace, { method: 'DELETE' })),
    404,
  )
  // Grace cannot revoke the admin's token; the admin can revoke hers.
  await expectSpec(
    'revokeApiToken',
    await t.f(`/v1/team/tokens/${admins.id}`, bearer(t.grace, { method: 'DELETE' })),
    404,
  )
  await expectSpec(
    'revokeApiToken',
    await t.f(`/v1/team/tokens/${spare.id}`, bearer(t.admin, { method: 'DELETE' })),
    204,
  )
  await expectSpec('whoami', await t.f('/v1/whoami', bearer(spare.token)), 401)
  await expectSpec('whoami', await t.f('/v1/whoami', bearer(admins.token)), 200)
})

test('an expiring token stops working at expiresAt; the expiry must be ahead and bounded', async () => {
  const t = await team()
  const hour = 60 * 60 * 1000
  const expiring = await t.create({ name: 'short', expiresAt: new Date(t.at().getTime() + hour).toISOString() })
  assert.equal(expiring.expiresAt, '2025-06-01T01:00:00Z')
  await expectSpec('whoami', await t.f('/v1/whoami', bearer(expiring.token)), 200)
  t.tick(hour)
  const res = await t.f('/v1/whoami', bearer(expiring.token))
  assert.match((await expectProblem(res, 401, 'unauthorized')).detail, /expired at 2025-06-01T01:00:00Z/)
  for (const [expiresAt, message] of [
    ['2025-06-01T00:59:59Z', 'must be in the future'],
    ['2036-01-01T00:00:00Z', 'must be at most 10 years ahead'],
    ['tomorrow', undefined],
  ] as const) {
    const bad = await t.f('/v1/team/tokens', jsonBody({ name: 'bad', expiresAt }, t.grace))
    await expectSpec('createApiToken', bad.clone(), 400)
    const problem = await expectProblem(bad, 400, 'validation', '/expiresAt')
    if (message) assert.equal(problem.errors?.[0]?.message, message)
  }
  await t.create({ name: 'long', expiresAt: '2035-05-31T00:00:00Z' })
})

test('lastUsedAt records use, written at most once a minute', async () => {
  const t = await team()
  const { id, token } = await t.create({ name: 'ci' })
  const lastUsed = async () =>
    (await t.db.selectFrom('api_tokens').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow())
      .last_used_at
  assert.equal(await lastUsed(), null)
  t.tick(5_000)
  await t.f('/v1/whoami', bearer(token))
  assert.equal(await lastUsed(), '2025-06-01T00:00:05Z')
  t.tick(30_000)
  await t.f('/v1/whoami', bearer(token))
  assert.equal(await lastUsed(), '2025-06-01T00:00:05Z', 'not written again within the minute')
  t.tick(31_000)
  await t.f('/v1/whoami', bearer(token))
  assert.equal(await lastUsed(), '2025-06-01T00:01:06Z')
  const list = (await expectSpec('listApiTokens', await t.f('/v1/team/tokens', bearer(t.grace)), 200)) as {
    items: Array<{ lastUsedAt: string | null }>
  }
  assert.equal(list.items[0]?.lastUsedAt, '2025-06-01T00:01:06Z')
})

test('a token cannot manage tokens, users or the admin password', async () => {
  const t = await team()
  const { id, token } = await t.create(
    { name: 'admin ci', permissions: { apps: { upload: { enabled: true } } } },
    t.admin,
  )
  for (const [op, res, names] of [
    ['createApiToken', await t.f('/v1/team/tokens', jsonBody({ name: 'another' }, token)), /cannot create API tokens/],
    ['listApiTokens', await t.f('/v1/team/tokens', bearer(token)), /cannot list API tokens/],
    [
      'revokeApiToken',
      await t.f(`/v1/team/tokens/${id}`, bearer(token, { method: 'DELETE' })),
      /cannot revoke API tokens/,
    ],
    [
      'updateAdminPassword',
      await t.f('/v1/team/admin', {
        ...jsonBody({ currentPassword: PASSWORD, newPassword: 'a-token-chosen-password' }, token),
        method: 'PATCH',
      }),
      /never acts as the team admin/,
    ],
    [
      'createTeamUser',
      await t.f('/v1/team/users', jsonBody({ email: 'mallory@acme.test', name: 'M', password: PASSWORD }, token)),
      /never acts as the team admin/,
    ],
    ['listTeamUsers', await t.f('/v1/team/users', bearer(token)), /never acts as the team admin/],
  ] as const) {
    await expectSpec(op, res.clone(), 403)
    assert.match((await expectProblem(res, 403, 'forbidden')).detail, names, op)
  }
  assert.equal((await t.db.selectFrom('api_tokens').selectAll().execute()).length, 1)
})

test('unknown tokens answer 401; lists page newest first', async () => {
  const t = await team()
  const unknown = await t.f('/v1/whoami', bearer(`ferry_${'x'.repeat(32)}`))
  assert.match((await expectProblem(unknown, 401, 'unauthorized')).detail, /API token is not known/)
  const made: string[] = []
  for (const name of ['a', 'b', 'c']) {
    made.push((await t.create({ name })).id)
    t.tick(1000)
  }
  const first = (await expectSpec('listApiTokens', await t.f('/v1/team/tokens?limit=2', bearer(t.grace)), 200)) as {
    items: Array<{ id: string }>
    nextCursor: string
  }
  assert.deepEqual(
    first.items.map((i) => i.id),
    [made[2], made[1]],
  )
  const second = (await expectSpec(
    'listApiTokens',
    await t.f(`/v1/team/tokens?limit=2&cursor=${first.nextCursor}`, bearer(t.grace)),
    200,
  )) as { items: Array<{ id: string }>; nextCursor: null }
  assert.deepEqual(
    second.items.map((i) => i.id),
    [made[0]],
  )
  assert.equal(second.nextCursor, null)
  await expectSpec('listApiTokens', await t.f('/v1/team/tokens?cursor=nonsense', bearer(t.grace)), 400)
})

test('a token name the team already holds answers 409 naming it, and is free again once revoked', async () => {
  const t = await team()
  const first = await t.create({ name: 'ci-release' })
  const again = await t.f('/v1/team/tokens', jsonBody({ name: 'ci-release' }, t.admin))
  assert.equal(
    (await expectProblem(again, 409, 'conflict')).detail,
    'A token named ci-release already exists in this team; revoke it or choose another name.',
  )
  const list = (await (await t.f('/v1/team/tokens', bearer(t.admin))).json()) as { items: Array<{ name: string }> }
  assert.deepEqual(
    list.items.map((i) => i.name),
    ['ci-release'],
  )
  assert.equal((await t.f(`/v1/team/tokens/${first.id}`, bearer(t.grace, { method: 'DELETE' }))).status, 204)
  await t.create({ name: 'ci-release' })
})
