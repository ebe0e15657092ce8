/** Slugs and emails are server-wide: a taken one answers alike whichever team holds it. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { PASSWORD, jsonBody, memoryApp, signup } from './helpers.ts'

test('a slug or email taken by another team answers exactly as one taken by your own', async () => {
  const { fetch: f } = await memoryApp()
  const mine = await signup(f, 'admin@mine.test', 'Mine')
  const theirs = await signup(f, 'admin@theirs.test', 'Theirs')
  // Every answer is checked with its body in the message: a failure here once said only "404 !== 409".
  const created = async (path: string, body: unknown, token: string) => {
    const res = await f(path, jsonBody(body, token))
    assert.equal(res.status, 201, `POST ${path} ${JSON.stringify(body)}: ${res.status} ${await res.text()}`)
  }
  await created('/v1/apps', { slug: 'their-secret-app', name: 'Secret', private: true }, theirs.token)
  await created('/v1/apps', { slug: 'my-app', name: 'Mine' }, mine.token)
  await created('/v1/team/users', { email: 'their-user@theirs.test', name: 'T', password: PASSWORD }, theirs.token)
  await created('/v1/team/users', { email: 'my-user@mine.test', name: 'M', password: PASSWORD }, mine.token)

  const problem = async (path: string, body: unknown) => {
    const res = await f(path, jsonBody(body, mine.token))
    assert.equal(res.status, 409, `POST ${path} ${JSON.stringify(body)}: ${res.status} ${await res.clone().text()}`)
    const { detail, type, title } = (await res.json()) as { detail: string; type: string; title: string }
    return { type, title, detail }
  }
  const slug = (s: string) => problem('/v1/apps', { slug: s, name: 'X' })
  const email = (e: string) => problem('/v1/team/users', { email: e, name: 'X', password: PASSWORD })
  const strip = (p: { detail: string }, name: string) => ({ ...p, detail: p.detail.replace(name, '<name>') })
  assert.deepEqual(strip(await slug('their-secret-app'), 'their-secret-app'), strip(await slug('my-app'), 'my-app'))
  assert.deepEqual(
    strip(await email('their-user@theirs.test'), 'their-user@theirs.test'),
    strip(await email('my-user@mine.test'), 'my-user@mine.test'),
  )
  assert.doesNotMatch((await slug('their-secret-app')).detail, /team|Theirs/i)
})
