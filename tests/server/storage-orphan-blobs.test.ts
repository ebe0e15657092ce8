/** The start-up orphan sweep: unrecorded blobs go once they are old enough; young ones and recorded ones stay. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { openTestDb } from './helpers.ts'
import { createMemoryBlobs } from '../../server/storage/blobs/blobs-memory.ts'
import { removeOrphanBlobs } from '../../server/storage/blobs/orphan-blobs.ts'
import { seedArtifactRow } from './storage-contract.ts'

const HOUR = 3600_000
const at = (iso: string) => new Date(iso)

async function setup() {
  let clock = at('2026-01-01T10:00:00Z')
  const blobs = createMemoryBlobs(() => clock)
  const db = await openTestDb()
  await seedArtifactRow(db, 'art_recorded')
  await blobs.put('art_recorded', new Uint8Array([1]))
  await blobs.put('art_old', new Uint8Array([2]))
  clock = at('2026-01-01T11:30:00Z')
  await blobs.put('art_young', new Uint8Array([3]))
  return { blobs, db }
}

test('only unrecorded blobs older than the minimum age are removed', async () => {
  const { blobs, db } = await setup()
  try {
    const sweep = await removeOrphanBlobs(db, blobs, { minAgeMs: HOUR, now: at('2026-01-01T12:00:00Z') })
    assert.deepEqual(sweep, { removed: ['art_old'] })
    assert.deepEqual(
      (await blobs.list()).map((b) => b.key),
      ['art_recorded', 'art_young'],
    )
    // Once the young blob has aged past the threshold, it goes too.
    assert.deepEqual(await removeOrphanBlobs(db, blobs, { minAgeMs: HOUR, now: at('2026-01-01T12:31:00Z') }), {
      removed: ['art_young'],
    })
  } finally {
    await db.destroy()
  }
})

test('a minimum age of 0 removes every unrecorded blob (one instance, nothing in flight)', async () => {
  const { blobs, db } = await setup()
  try {
    assert.deepEqual(await removeOrphanBlobs(db, blobs, { minAgeMs: 0, now: at('2026-01-01T11:30:00Z') }), {
      removed: ['art_old', 'art_young'],
    })
  } finally {
    await db.destroy()
  }
})

test('a database with no artifacts next to old blobs removes nothing and says why', async () => {
  const { blobs } = await setup()
  const empty = await openTestDb()
  try {
    const sweep = await removeOrphanBlobs(empty, blobs, { minAgeMs: HOUR, now: at('2026-01-02T00:00:00Z') })
    assert.deepEqual(sweep.removed, [])
    assert.match(sweep.refused ?? '', /records no artifacts but the blob store holds 3 older blobs/)
    assert.equal((await blobs.list()).length, 3)
  } finally {
    await empty.destroy()
  }
})
