/**
 * @module Blobs no artifact row points at. An upload stores its files before the transaction
 * that records them, so a crash between the two leaves such blobs behind; the Node server
 * removes them at start. Other instances sharing the store may be in the middle of an upload
 * (a multi-file upload commits its first files long before it records them), so only blobs
 * older than `minAgeMs` are removed: that age must exceed the longest upload. A database that
 * records no artifact at all next to old blobs looks like a new database pointed at another
 * deployment's bucket, so then nothing is removed.
 */
import type { BlobStore, Db } from '../../core/storage.ts'

export interface OrphanSweepOptions {
  /** Blobs written less than this long ago are kept. */
  minAgeMs: number
  now?: Date
}

export interface OrphanSweep {
  removed: string[]
  /** Why nothing was removed although old unreferenced blobs exist. */
  refused?: string
}

export async function removeOrphanBlobs(
  db: Db,
  blobs: BlobStore,
  { minAgeMs, now = new Date() }: OrphanSweepOptions,
): Promise<OrphanSweep> {
  // Listing before reading the references: a blob listed here whose row is committed by the time
  // of the query is seen as referenced; one whose row is still to come is young.
  const stored = await blobs.list()
  const referenced = new Set((await db.selectFrom('artifacts').select('blob_key').execute()).map((r) => r.blob_key))
  const cutoff = now.getTime() - minAgeMs
  const orphans = stored.filter((b) => !referenced.has(b.key) && b.modifiedAt.getTime() <= cutoff).map((b) => b.key)
  if (referenced.size === 0 && orphans.length > 0) {
    return {
      removed: [],
      refused: `the database records no artifacts but the blob store holds ${orphans.length} older blobs; is it another deployment's store?`,
    }
  }
  for (const key of orphans) await blobs.delete(key)
  return { removed: orphans }
}
