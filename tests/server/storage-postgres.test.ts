// backend-matrix: sqlite-only — already runs on PostgreSQL in every run (it starts its own cluster)
/** The storage contract on a real PostgreSQL (started by the test, or FERRY_TEST_DATABASE_URL). */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql, type Kysely } from 'kysely'
import { openPostgresDb } from '../../server/storage/drivers/postgres-node.ts'
import type { Database } from '../../server/core/storage.ts'
import { versionKey } from '../../server/storage/releases/version-key.ts'
import { startPostgres, type TestPostgres } from '../../services/postgres-server.ts'
import { runStorageContract } from './storage-contract.ts'

let server: TestPostgres
const opened: Kysely<Database>[] = []
before(async () => {
  server = await startPostgres()
})
after(async () => {
  await Promise.all(opened.map((db) => db.destroy()))
  await server.stop()
})

async function fresh(): Promise<Kysely<Database>> {
  const db = await openPostgresDb(await server.createDatabase(), { poolSize: 4 })
  opened.push(db)
  return db
}

runStorageContract('postgres', { db: fresh })

test('sizes past 2 GiB round-trip as numbers (artifacts.size is 64-bit)', async () => {
  const db = await fresh()
  const now = '2025-01-01T00:00:00Z'
  await db.insertInto('teams').values({ id: 'tm_1', name: 'T', created_at: now }).execute()
  await db
    .insertInto('apps')
    .values({ slug: 'a', team_id: 'tm_1', name: 'A', description: '', private: 0, created_at: now, updated_at: now })
    .execute()
  await db
    .insertInto('channels')
    .values({ id: 'ch', team_id: 'tm_1', name: 's', description: '', created_at: now })
    .execute()
  await db
    .insertInto('platforms')
    .values({ id: 'pl', team_id: 'tm_1', name: 'w', updater: 'ferry', created_at: now })
    .execute()
  await db.insertInto('archs').values({ id: 'ar', team_id: 'tm_1', name: 'x', created_at: now }).execute()
  await db
    .insertInto('versions')
    .values({
      id: 'v',
      app_slug: 'a',
      version: '1.0.0',
      version_key: versionKey('1.0.0'),
      channel_id: 'ch',
      platform_id: 'pl',
      arch_id: 'ar',
      changelog: '',
      published: 1,
      critical: 0,
      intermediate: 0,
      rollout_percentage: 100,
      created_at: now,
      published_at: now,
    })
    .execute()
  const size = 5 * 1024 ** 3 + 7
  await db
    .insertInto('artifacts')
    .values({
      id: 'art',
      version_id: 'v',
      file_name: 'f.exe',
      package_type: 'exe',
      size,
      sha1: '',
      sha256: '',
      sha512: '',
      blob_key: 'art',
      created_at: now,
    })
    .execute()
  const row = await db.selectFrom('artifacts').select('size').executeTakeFirstOrThrow()
  assert.equal(row.size, size)
})

test('an unreachable server is a start-up error naming where it looked', async () => {
  await assert.rejects(
    openPostgresDb('postgres://ferry:secret@127.0.0.1:1/ferry', { connectTimeoutMs: 2000 }),
    (error: Error) => {
      assert.match(error.message, /cannot reach PostgreSQL at 127\.0\.0\.1:1\/ferry/)
      assert.doesNotMatch(error.message, /secret/)
      return true
    },
  )
})

test('a schema newer than the code is refused with a clear message', async () => {
  const url = await server.createDatabase()
  const db = await openPostgresDb(url)
  await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('9999-from-the-future', ${new Date().toISOString()})`.execute(
    db,
  )
  await db.destroy()
  await assert.rejects(
    openPostgresDb(url),
    /schema is newer than this Ferry: it has run migration 9999-from-the-future/,
  )
})
