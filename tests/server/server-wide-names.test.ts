/** Slugs and emails are server-wide: a taken one answers alike whichever team holds it. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { PASSWORD, jsonBody, memoryApp, signup } from './helpers.ts'

test('a slug or email taken by another team answers exactly as one taken by your own', async () => {
  const { fetch: f } = await memoryApp()
  const mine = await signup(f, 'admin@mine.test', 'Mine')
  const theirs = await signup(f, 'admin@theirs.test', 'Theirs')
  await f('/v1/apps', jsonBody({ slug: 'their-secret-app', name: 'Secret', private: true }, theirs.token))
  await f('/v1/apps', jsonBody({ slug: 'my-app', name: 'Mine' }, mine.token))
  await f('/v1/team/users', jsonBody({ email: 'their-user@theirs.test', name: 'T', password: PASSWORD }, theirs.token))
  await f('/v1/team/users', jsonBody({ email: 'my-user@mine.test', name: 'M', password: PASSWORD }, mine.token))

  const problem = async (path: string, body: unknown) => {
    const res = await f(path, jsonBody(body, mine.token))
    assert.equal(res.status, 409)
    const { detail, type, title } = await res.json() as { detail: string; type: string; title: string }
    return { type, title, detail }
  }
  const slug = (s: string) => problem('/v1/apps', { slug: s, name: 'X' })
  const email = (e: string) => problem('/v1/team/users', { email: e, name: 'X', password: PASSWORD })
  const strip = (p: { detail: string }, name: string) => ({ ...p, detail: p.detail.replace(name, '<name>') })
  assert.deepEqual(strip(await slug('their-secret-app'), 'their-secret-app'), strip(await slug('my-app'), 'my-app'))
  assert.deepEqual(strip(await email('their-user@theirs.test'), 'their-user@theirs.test'), strip(await email('my-user@mine.test'), 'my-user@mine.test'))
  assert.doesNotMatch((await slug('their-secret-app')).detail, /team|Theirs/i)
})
