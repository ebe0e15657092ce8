/**
 * The storage contract every implementation passes: `runStorageContract(name, make)` runs the
 * database checks when `make` returns a `db`, the blob checks when it returns `blobs`.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isUniqueViolation } from '../../server/storage/dialect.ts'
import { migrate } from '../../server/storage/migrations/migrate.ts'
import type { BlobStore, Db } from '../../server/core/storage.ts'
import { versionKey } from '../../server/storage/releases/version-key.ts'

/** Factories of the implementation under test: a fresh, empty store per test. */
export interface StorageFactories {
  db?: () => Promise<Db>
  blobs?: () => Promise<{ blobs: BlobStore; cleanup?: () => Promise<void> }>
}

const NOW = '2025-01-01T00:00:00Z'

async function seed(db: Db) {
  await db.insertInto('teams').values({ id: 'tm_1', name: 'T', created_at: NOW }).execute()
  await db
    .insertInto('apps')
    .values({
      slug: 'app-1',
      team_id: 'tm_1',
      name: 'A',
      description: '',
      private: 0,
      created_at: NOW,
      updated_at: NOW,
    })
    .execute()
  await db
    .insertInto('channels')
    .values({ id: 'ch_1', team_id: 'tm_1', name: 'stable', description: '', created_at: NOW })
    .execute()
  await db
    .insertInto('platforms')
    .values({ id: 'pl_1', team_id: 'tm_1', name: 'windows', updater: 'ferry', created_at: NOW })
    .execute()
  await db.insertInto('archs').values({ id: 'ar_1', team_id: 'tm_1', name: 'x64', created_at: NOW }).execute()
}

const version = (id: string, v: string, app = 'app-1') => ({
  id,
  app_slug: app,
  version: v,
  version_key: versionKey(v),
  channel_id: 'ch_1',
  platform_id: 'pl_1',
  arch_id: 'ar_1',
  changelog: '',
  published: 1,
  critical: 0,
  intermediate: 0,
  rollout_percentage: 100,
  created_at: NOW,
  published_at: null,
})

const artifact = (id: string, versionId: string) => ({
  id,
  version_id: versionId,
  file_name: `${id}.exe`,
  package_type: 'exe',
  size: 3,
  sha1: 'a',
  sha256: 'b',
  sha512: 'c',
  blob_key: id,
  created_at: NOW,
})

/** A database recording one published artifact whose blob key is `key` (for orphan-sweep tests). */
export async function seedArtifactRow(db: Db, key: string): Promise<void> {
  await seed(db)
  await db.insertInto('versions').values(version('ver_1', '1.0.0')).execute()
  await db.insertInto('artifacts').values(artifact(key, 'ver_1')).execute()
}

export function runStorageContract(name: string, make: StorageFactories): void {
  const dbTest = (title: string, fn: (db: Db) => Promise<void>) => {
    const factory = make.db
    if (!factory) return
    test(`${name}: ${title}`, async () => {
      const db = await factory()
      try {
        await fn(db)
      } finally {
        await db.destroy()
      }
    })
  }
  const blobTest = (title: string, fn: (blobs: BlobStore) => Promise<void>) => {
    const factory = make.blobs
    if (!factory) return
    test(`${name}: ${title}`, async () => {
      const { blobs, cleanup } = await factory()
      try {
        await fn(blobs)
      } finally {
        await cleanup?.()
      }
    })
  }

  dbTest('migrations are idempotent and create every table', async (db) => {
    await migrate(db)
    const tables = (await db.introspection.getTables()).map((t) => t.name)
    for (const t of [
      'apps',
      'archs',
      'artifacts',
      'channels',
      'platforms',
      'teams',
      'users',
      'versions',
      'telemetry_counts',
      'telemetry_devices',
    ]) {
      assert.ok(tables.includes(t), `table ${t}`)
    }
  })

  dbTest('round-trips text, integers and null', async (db) => {
    await seed(db)
    await db.insertInto('versions').values(version('ver_1', '1.0.0')).execute()
    const row = await db.selectFrom('versions').selectAll().where('id', '=', 'ver_1').executeTakeFirstOrThrow()
    assert.equal(row.published, 1)
    assert.equal(row.published_at, null)
    assert.equal(typeof row.seq, 'number')
    const updated = await db.updateTable('versions').set({ critical: 1 }).where('id', '=', 'ver_1').executeTakeFirst()
    assert.equal(Number(updated.numUpdatedRows), 1)
  })

  dbTest('unique constraints raise an error the app recognises', async (db) => {
    await seed(db)
    await db.insertInto('versions').values(version('ver_1', '1.0.0')).execute()
    const error = await db
      .insertInto('versions')
      .values(version('ver_2', '1.0.0'))
      .execute()
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    assert.ok(isUniqueViolation(error), `not a unique violation: ${String(error)}`)
    const email = {
      id: 'usr_1',
      team_id: 'tm_1',
      email: 'a@b.test',
      name: 'A',
      role: 'admin' as const,
      password_hash: 'x',
      permissions: '{}',
      token_version: 0,
      created_at: NOW,
    }
    await db.insertInto('users').values(email).execute()
    const dup = await db
      .insertInto('users')
      .values({ ...email, id: 'usr_2' })
      .execute()
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    assert.ok(isUniqueViolation(dup))
  })

  dbTest('foreign keys: missing parents refused, deletes cascade, catalogs in use are restricted', async (db) => {
    await seed(db)
    await assert.rejects(
      db
        .insertInto('versions')
        .values(version('ver_x', '1.0.0', 'no-app'))
        .execute(),
    )
    await db.insertInto('versions').values(version('ver_1', '1.0.0')).execute()
    await db
      .insertInto('artifacts')
      .values([artifact('art_1', 'ver_1'), artifact('art_2', 'ver_1')])
      .execute()
    await assert.rejects(db.deleteFrom('channels').where('id', '=', 'ch_1').execute())
    const deleted = await db.deleteFrom('apps').where('slug', '=', 'app-1').executeTakeFirst()
    assert.equal(Number(deleted.numDeletedRows), 1)
    assert.equal((await db.selectFrom('versions').selectAll().execute()).length, 0)
    assert.equal((await db.selectFrom('artifacts').selectAll().execute()).length, 0)
  })

  dbTest('a failed transaction leaves nothing behind', async (db) => {
    await seed(db)
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('versions').values(version('ver_1', '1.0.0')).execute()
        await trx.insertInto('artifacts').values(artifact('art_1', 'ver_missing')).execute()
      }),
    )
    assert.equal((await db.selectFrom('versions').selectAll().execute()).length, 0)
  })

  dbTest('insertion order is kept by seq', async (db) => {
    await seed(db)
    for (const [i, v] of ['3.0.0', '1.0.0', '2.0.0'].entries())
      await db
        .insertInto('versions')
        .values(version(`ver_${i}`, v))
        .execute()
    const rows = await db.selectFrom('versions').select(['version', 'seq']).orderBy('seq').execute()
    assert.deepEqual(
      rows.map((r) => r.version),
      ['3.0.0', '1.0.0', '2.0.0'],
    )
  })

  const bytes = (s: string) => new TextEncoder().encode(s)
  const read = async (blobs: BlobStore, key: string, range?: { start: number; end: number }) => {
    const got = await blobs.get(key, range)
    return got ? new TextDecoder().decode(await new Response(got.body).arrayBuffer()) : null
  }

  const keys = async (blobs: BlobStore) => (await blobs.list()).map((b) => b.key)

  blobTest('put, get, size, list, delete', async (blobs) => {
    await blobs.ping()
    await blobs.put('art_1', bytes('hello world'))
    await blobs.put('art_0', bytes(''))
    assert.equal(await read(blobs, 'art_1'), 'hello world')
    assert.equal(await read(blobs, 'art_0'), '')
    assert.equal(await blobs.size('art_1'), 11)
    assert.equal((await blobs.get('art_1'))?.size, 11)
    assert.deepEqual(await keys(blobs), ['art_0', 'art_1'])
    await blobs.delete('art_1')
    assert.equal(await blobs.get('art_1'), null)
    assert.equal(await blobs.size('art_1'), null)
    await blobs.delete('art_1')
    assert.deepEqual(await keys(blobs), ['art_0'])
  })

  blobTest('list reports when each blob was written', async (blobs) => {
    // Object stores keep whole seconds; allow that and a little clock difference.
    const before = Date.now() - 2000
    await blobs.put('art_t', bytes('x'))
    const after = Date.now() + 2000
    const [entry, ...rest] = await blobs.list()
    assert.equal(rest.length, 0)
    assert.ok(entry)
    assert.equal(entry.key, 'art_t')
    const at = entry.modifiedAt.getTime()
    assert.ok(at >= before && at <= after, `modifiedAt ${entry.modifiedAt.toISOString()} is not around now`)
  })

  blobTest('byte ranges are inclusive', async (blobs) => {
    await blobs.put('art_r', bytes('0123456789'))
    assert.equal(await read(blobs, 'art_r', { start: 2, end: 5 }), '2345')
    assert.equal(await read(blobs, 'art_r', { start: 9, end: 9 }), '9')
    assert.equal((await blobs.get('art_r', { start: 2, end: 5 }))?.size, 10, 'size is the whole blob')
  })

  blobTest('put replaces, and the stored bytes are a copy', async (blobs) => {
    const data = bytes('first')
    await blobs.put('art_1', data)
    data[0] = 0x46
    assert.equal(await read(blobs, 'art_1'), 'first')
    await blobs.put('art_1', bytes('second'))
    assert.equal(await read(blobs, 'art_1'), 'second')
  })

  blobTest('a streamed write is invisible until commit, and abort leaves nothing', async (blobs) => {
    const writer = await blobs.open('art_s')
    await writer.write(bytes('chunk one, '))
    await writer.write(bytes('chunk two'))
    assert.equal(await blobs.get('art_s'), null, 'not visible before commit')
    assert.deepEqual(await keys(blobs), [])
    await writer.commit()
    assert.equal(await read(blobs, 'art_s'), 'chunk one, chunk two')

    const dropped = await blobs.open('art_d')
    await dropped.write(bytes('half an upload'))
    await dropped.abort()
    await dropped.abort()
    assert.equal(await blobs.get('art_d'), null)
    assert.deepEqual(await keys(blobs), ['art_s'])

    const replacing = await blobs.open('art_s')
    await replacing.write(bytes('new'))
    assert.equal(
      await read(blobs, 'art_s'),
      'chunk one, chunk two',
      'the old blob stays whole until the new one commits',
    )
    await replacing.commit()
    assert.equal(await read(blobs, 'art_s'), 'new')
  })

  blobTest('streamed chunks are copied as they are written', async (blobs) => {
    const writer = await blobs.open('art_c')
    const chunk = bytes('abc')
    await writer.write(chunk)
    chunk[0] = 0x7a
    await writer.commit()
    assert.equal(await read(blobs, 'art_c'), 'abc')
  })

  blobTest('keys that could escape the store are refused', async (blobs) => {
    for (const key of ['../x', 'a/b', '', '.tmp', 'x'.repeat(65)]) {
      await assert.rejects(blobs.put(key, bytes('x')), /invalid blob key/, key)
      await assert.rejects(blobs.open(key), /invalid blob key/, key)
    }
  })
}
