/**
 * @module Removing blobs that no row refers to any more (after a delete commits, or an upload is
 * refused). The rows are already gone, so a store failure here must not turn the answer into an
 * error: the blob stays as an orphan, logged, and the start-up sweep (`orphan-blobs.ts`) removes it.
 */
import type { BlobStore, StorageLogger } from '../../core/storage.ts'

/** Deletes each blob; returns the keys whose delete failed (left for the orphan sweep). */
export async function removeUnreferencedBlobs(
  blobs: BlobStore,
  keys: Iterable<string>,
  logger?: StorageLogger,
): Promise<string[]> {
  const left: string[] = []
  for (const key of keys) {
    try {
      await blobs.delete(key)
    } catch (err) {
      left.push(key)
      logger?.warn(
        { err, key },
        'could not delete a blob no row refers to; the orphan sweep at the next start removes it',
      )
    }
  }
  return left
}
