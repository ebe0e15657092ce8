/** Tokens and passwords: 24 h expiry, revocation, PBKDF2 parameters. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { DEFAULT_PBKDF2_ITERATIONS, hashPassword, verifyPassword } from '../../server/core/crypto.ts'
import { PASSWORD, bearer, expectProblem, jsonBody, memoryApp, signup } from './helpers.ts'

test('passwords: PBKDF2-SHA256, 600 000 iterations by default, per-user salt', async () => {
  assert.equal(DEFAULT_PBKDF2_ITERATIONS, 600_000)
  const a = await hashPassword('same password', 1000)
  const b = await hashPassword('same password', 1000)
  assert.match(a, /^pbkdf2-sha256\$1000\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/)
  assert.notEqual(a, b, 'salted')
  assert.equal(await verifyPassword('same password', a), true)
  assert.equal(await verifyPassword('other password', a), false)
  assert.equal(await verifyPassword('same password', 'garbage'), false)
})

test('tokens expire after 24 hours', async () => {
  let now = new Date('2030-01-01T00:00:00Z')
  const m = await memoryApp({}, () => now)
  const session = (await signup(m.fetch, 'clock@team.test')) as unknown as { token: string; expiresAt: string }
  assert.equal(session.expiresAt, '2030-01-02T00:00:00Z')
  now = new Date('2030-01-01T23:59:00Z')
  assert.equal((await m.fetch('/v1/whoami', bearer(session.token))).status, 200)
  now = new Date('2030-01-02T00:00:01Z')
  await expectProblem(await m.fetch('/v1/whoami', bearer(session.token)), 401, 'unauthorized')
})

test('tokens are refused when signed with another key, or for a removed user', async () => {
  const m = await memoryApp()
  const other = await memoryApp({ jwtSecret: 'another-secret-0123456789abcdef0123' })
  const { token } = await signup(m.fetch, 'admin@team.test')
  await signup(other.fetch, 'admin@team.test')
  await expectProblem(await other.fetch('/v1/whoami', bearer(token)), 401, 'unauthorized')
  const user = (await (
    await m.fetch('/v1/team/users', jsonBody({ email: 'u@team.test', name: 'U', password: PASSWORD }, token))
  ).json()) as { id: string }
  const login = (await (
    await m.fetch('/v1/auth/login', jsonBody({ email: 'u@team.test', password: PASSWORD }))
  ).json()) as { token: string }
  assert.equal((await m.fetch('/v1/whoami', bearer(login.token))).status, 200)
  assert.equal((await m.fetch(`/v1/team/users/${user.id}`, bearer(token, { method: 'DELETE' }))).status, 204)
  await expectProblem(await m.fetch('/v1/whoami', bearer(login.token)), 401, 'unauthorized')
})

test('wrong email and wrong password get the same answer', async () => {
  const m = await memoryApp()
  await signup(m.fetch, 'admin@team.test')
  const a = await expectProblem(
    await m.fetch('/v1/auth/login', jsonBody({ email: 'nobody@team.test', password: PASSWORD })),
    401,
    'invalid-credentials',
  )
  const b = await expectProblem(
    await m.fetch('/v1/auth/login', jsonBody({ email: 'admin@team.test', password: 'wrong-password' })),
    401,
    'invalid-credentials',
  )
  assert.equal(a.detail, b.detail)
})
