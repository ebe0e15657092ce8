/**
 * A refused write (4xx) changed nothing, so it must not drop an app's cached update answers:
 * otherwise anyone could empty a popular app's cache with unauthenticated writes, and grow the
 * cache's per-app generations with writes to made-up slugs.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createApp } from '../../server/app.ts'
import { createMemoryCache, type AnswerCache } from '../../server/cache/answer-cache.ts'
import { createMemoryBlobs } from '../../server/storage/blobs-memory.ts'
import { openNodeDb } from '../../server/storage/sqlite-node.ts'
import { JWT_SECRET, SIGNUP_KEY, TEST_ITERATIONS, bearer, jsonBody, prepareUploadTeam, uploadForm, type Fetch } from './helpers.ts'

test('refused writes leave cached answers alone; an accepted write still drops them', async () => {
  const invalidated: string[] = []
  const inner = createMemoryCache()
  const cache: AnswerCache = { ...inner, invalidate: async (apps) => {
    invalidated.push(...apps)
    return inner.invalidate(apps)
  } }
  const app = createApp({
    db: await openNodeDb(':memory:'), blobs: createMemoryBlobs(), answerCache: cache,
    config: { signupKey: SIGNUP_KEY, jwtSecret: JWT_SECRET, maxUploadBytes: 1024 * 1024, passwordIterations: TEST_ITERATIONS },
  })
  const f: Fetch = async (path, init) => app.request(`http://ferry.test${path}`, init)
  const token = await prepareUploadTeam(f, 'cached-app')
  const form = () => uploadForm({ version: '1.0.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }, [['C-1.0.0.exe', 'x']])
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

  assert.equal((await f('/v1/apps/cached-app', { ...jsonBody({ name: 'Renamed' }, token), method: 'PATCH' })).status, 200)
  assert.deepEqual(invalidated, ['cached-app'])
})
