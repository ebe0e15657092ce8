/**
 * @module Blobs no artifact row points at. An upload stores its files before the transaction
 * that records them, so a crash between the two leaves such blobs behind; the Node server
 * removes them at start, before it accepts requests (no upload can be in flight then).
 */
import type { BlobStore, Db } from './types.ts'

export async function removeOrphanBlobs(db: Db, blobs: BlobStore): Promise<string[]> {
  const referenced = new Set((await db.selectFrom('artifacts').select('blob_key').execute()).map((r) => r.blob_key))
  const orphans = (await blobs.list()).filter((key) => !referenced.has(key))
  for (const key of orphans) await blobs.delete(key)
  return orphans
}
