/**
 * What a write invalidates is declared in the spec (`x-ferry-invalidates`): only successful
 * writes invalidate, only the apps they declare, and refused requests leave no trace.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createMemoryCache, type AnswerCache } from '../../server/cache/answer-cache.ts'
import { operations } from '../../server/http/spec.ts'
import { PASSWORD, bearer, jsonBody, signup, memoryApp } from './helpers.ts'

async function spiedApp() {
  const inner = createMemoryCache()
  const invalidated: string[][] = []
  const answerCache: AnswerCache = {
    ...inner,
    invalidate: async (apps) => {
      invalidated.push(apps)
      await inner.invalidate(apps)
    },
  }
  const { fetch: f } = await memoryApp({}, undefined, { answerCache })
  return { f, invalidated }
}
const patch = (body: unknown, token?: string): RequestInit => ({ ...jsonBody(body, token), method: 'PATCH' })

test('every write operation declares what it invalidates; reads declare nothing', () => {
  for (const op of operations) {
    if (op.method === 'get') assert.equal(op.invalidates, undefined, op.operationId)
    else
      assert.ok(
        op.invalidates && ['app', 'team', 'none'].includes(op.invalidates),
        `${op.operationId} declares no x-ferry-invalidates`,
      )
  }
})

test('refused writes invalidate nothing, whatever slugs they name', async () => {
  const { f, invalidated } = await spiedApp()
  const admin = await signup(f, 'admin@inv.test')
  await f('/v1/apps', jsonBody({ slug: 'real-app', name: 'Real' }, admin.token))
  const created = await f(
    '/v1/team/users',
    jsonBody({ email: 'u@inv.test', name: 'U', password: PASSWORD }, admin.token),
  )
  assert.equal(created.status, 201)
  const user = (await (await f('/v1/auth/login', jsonBody({ email: 'u@inv.test', password: PASSWORD }))).json()) as {
    token: string
  }
  invalidated.length = 0
  for (let i = 0; i < 200; i++) {
    assert.equal((await f(`/v1/apps/anon-${i}`, patch({ name: 'x' }))).status, 401)
    assert.equal((await f(`/v1/apps/anon-${i}/versions/ver_x`, { method: 'DELETE' })).status, 401)
  }
  assert.equal((await f('/v1/apps/real-app', patch({ name: 'x' }))).status, 401)
  assert.equal((await f('/v1/apps/real-app', patch({ name: 'x' }, user.token))).status, 403)
  assert.equal((await f('/v1/apps/no-such-app', patch({ name: 'x' }, admin.token))).status, 404)
  assert.equal((await f('/v1/apps/real-app', patch({ name: 42 }, admin.token))).status, 400)
  assert.equal((await f('/v1/channels', jsonBody({ name: 'stable' }))).status, 401)
  assert.deepEqual(invalidated, [])
})

test('successful writes invalidate what they declare', async () => {
  const { f, invalidated } = await spiedApp()
  const admin = await signup(f, 'admin@ok.test')
  await f('/v1/apps', jsonBody({ slug: 'app-a', name: 'A' }, admin.token))
  await f('/v1/apps', jsonBody({ slug: 'app-b', name: 'B' }, admin.token))
  const other = await signup(f, 'admin@other.test')
  await f('/v1/apps', jsonBody({ slug: 'app-other', name: 'O' }, other.token))
  invalidated.length = 0
  assert.equal((await f('/v1/apps/app-a', patch({ private: true }, admin.token))).status, 200)
  assert.deepEqual(invalidated, [['app-a']])
  invalidated.length = 0
  assert.equal((await f('/v1/channels', jsonBody({ name: 'beta' }, admin.token))).status, 201)
  assert.deepEqual(
    invalidated.map((apps) => [...apps].sort()),
    [['app-a', 'app-b']],
  )
  invalidated.length = 0
  assert.equal(
    (await f('/v1/team/users', jsonBody({ email: 'n@ok.test', name: 'N', password: PASSWORD }, admin.token))).status,
    201,
  )
  assert.equal((await f('/v1/apps/app-b', bearer(admin.token, { method: 'DELETE' }))).status, 204)
  assert.deepEqual(invalidated, [['app-b']])
})
