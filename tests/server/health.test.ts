/** Health: ok, degraded when blob storage fails (200), unavailable when the database fails (503). */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createApp } from '../../server/app.ts'
import { expectSpec, SIGNUP_KEY, JWT_SECRET, openTestDb, openTestBlobs } from './helpers.ts'

async function app(failStorage: boolean) {
  const db = await openTestDb()
  const blobs = await openTestBlobs()
  if (failStorage)
    blobs.ping = async () => {
      throw new Error('disk gone')
    }
  return {
    db,
    app: createApp({
      db,
      blobs,
      config: { signupKey: SIGNUP_KEY, jwtSecret: JWT_SECRET, maxUploadBytes: 1000, version: '9.9.9' },
    }),
  }
}

test('health is ok with both dependencies answering', async () => {
  const { app: a } = await app(false)
  const body = (await expectSpec('getHealth', await a.request('/v1/health'), 200)) as {
    status: string
    version: string
  }
  assert.deepEqual([body.status, body.version], ['ok', '9.9.9'])
})

test('health is degraded (200) when storage fails', async () => {
  const { app: a } = await app(true)
  const body = (await expectSpec('getHealth', await a.request('/v1/health'), 200)) as {
    status: string
    checks: { storage: { status: string } }
  }
  assert.deepEqual([body.status, body.checks.storage.status], ['degraded', 'failing'])
})

test('health is 503 when the database fails', async () => {
  const { app: a, db } = await app(false)
  await db.destroy()
  const res = await a.request('/v1/health')
  const body = (await expectSpec('getHealth', res, 503)) as { type: string }
  assert.equal(body.type, 'https://ferry.example.org/docs/troubleshooting#unavailable')
})

test('an unexpected error is a 500 problem naming the request id', async () => {
  const { app: a, db } = await app(false)
  await db.destroy()
  const res = await a.request('/v1/apps/some-app/update?version=1.0.0&platform=windows&arch=x64')
  const body = (await expectSpec('checkForUpdate', res, 500)) as { detail: string }
  assert.match(body.detail, /logged as req_\w+/)
})
