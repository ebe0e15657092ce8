/**
 * What a client can make the answer cache hold. A refused write (4xx) changed nothing, so it must
 * not drop an app's cached update answers: otherwise anyone could empty a popular app's cache
 * with unauthenticated writes, and grow the cache's per-app generations with made-up slugs. And
 * the in-process cache is bounded in bytes, not only in entries, since answers carry the origin
 * a client picks with its Host header.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createMemoryCache, type AnswerCache } from '../../server/cache/answer-cache.ts'
import { bearer, jsonBody, prepareUploadTeam, uploadForm, memoryApp } from './helpers.ts'

test('refused writes leave cached answers alone; an accepted write still drops them', async () => {
  const invalidated: string[] = []
  const inner = createMemoryCache()
  const cache: AnswerCache = {
    ...inner,
    invalidate: async (apps) => {
      invalidated.push(...apps)
      return inner.invalidate(apps)
    },
  }
  const { fetch: f } = await memoryApp({}, undefined, { answerCache: cache })
  const token = await prepareUploadTeam(f, 'cached-app')
  const form = () =>
    uploadForm({ version: '1.0.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }, [
      ['C-1.0.0.exe', 'x'],
    ])
  assert.equal((await f('/v1/apps/cached-app/versions', bearer(token, { method: 'POST', body: form() }))).status, 201)
  invalidated.length = 0

  const refused: Array<[string, RequestInit, number]> = [
    ['/v1/apps/cached-app/versions', { method: 'POST', body: form() }, 401],
    ['/v1/apps/cached-app', { method: 'DELETE' }, 401],
    ['/v1/apps/made-up-slug/versions', { method: 'POST', body: form() }, 401],
    ['/v1/apps/cached-app', { ...jsonBody({ name: 5 }, token), method: 'PATCH' }, 400],
    ['/v1/apps/made-up-slug', { ...jsonBody({ name: 'x' }, token), method: 'PATCH' }, 404],
    ['/v1/apps/cached-app/versions', bearer(token, { method: 'POST', body: form() }), 409],
    ['/v1/channels', jsonBody({ name: 'stable' }, token), 409],
  ]
  for (const [path, init, status] of refused) {
    const res = await f(path, init)
    assert.equal(res.status, status, `${init.method} ${path}: ${await res.text()}`)
  }
  assert.deepEqual(invalidated, [], 'no refused write invalidated anything')

  assert.equal(
    (await f('/v1/apps/cached-app', { ...jsonBody({ name: 'Renamed' }, token), method: 'PATCH' })).status,
    200,
  )
  assert.deepEqual(invalidated, ['cached-app'])
})

test('the in-process cache holds at most its byte budget, however large the answers', async () => {
  const cache = createMemoryCache(10_000, 1024 * 1024)
  const generation = await cache.generation('big-app')
  const body = 'x'.repeat(100 * 1024)
  for (let i = 0; i < 50; i++) await cache.set('big-app', `key-${i}`, { status: 200, headers: {}, body }, generation)
  let kept = 0
  for (let i = 0; i < 50; i++) if (await cache.get('big-app', `key-${i}`)) kept++
  assert.ok(kept > 0 && kept <= 5, `kept ${kept} answers of 100 KiB (≈200 KiB each in UTF-16) within 1 MiB`)
  assert.ok(await cache.get('big-app', 'key-49'), 'the newest answer is kept')
  // An answer larger than the whole budget is not stored at all.
  await cache.set('big-app', 'huge', { status: 200, headers: {}, body: 'x'.repeat(2 * 1024 * 1024) }, generation)
  assert.equal(await cache.get('big-app', 'huge'), undefined)
})
