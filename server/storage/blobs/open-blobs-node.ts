/**
 * @module Opens the blob store the configuration names (files under the data dir, or an
 * S3-compatible bucket), checks it can be used, and tidies what dead uploads left behind.
 * The S3 client is imported only when configured, so it never reaches other runtimes.
 */
import { join } from 'node:path'
import type { BlobLocation } from './blob-location.ts'
import { openFsBlobs } from './blobs-fs.ts'
import { removeOrphanBlobs } from './orphan-blobs.ts'
import type { BlobStore, Db, StorageLogger, SweepableBlobStore } from '../../core/storage.ts'

/** What opening the blob store needs of the server's configuration. */
export interface OpenBlobsOptions {
  blobs: BlobLocation
  downloadMode: 'stream' | 'redirect'
  orphanMinAgeSeconds: number
}

/** The store cannot be used at start: the message says why and which variable to check. */
export class BlobStoreStartupError extends Error {}

export interface OpenedBlobs {
  blobs: BlobStore
  close(): void
}

export async function openConfiguredBlobs(
  config: OpenBlobsOptions,
  dataDir: string,
  db: Db,
  logger: StorageLogger,
): Promise<OpenedBlobs> {
  const location = config.blobs
  let opened: OpenedBlobs & { blobs: SweepableBlobStore }
  if (location.kind === 'fs') {
    opened = { blobs: await openFsBlobs(join(dataDir, 'blobs')), close() {} }
  } else {
    const { openS3Blobs, describeS3Failure } = await import('./blobs-s3.ts')
    const where = `s3://${location.bucket}/${location.prefix}`
    const { presignSeconds, ...s3 } = location
    const blobs = openS3Blobs({
      ...s3,
      ...(config.downloadMode === 'redirect' ? { presignSeconds } : {}),
      onError: (err, operation) =>
        logger.error({ err, operation, bucket: location.bucket }, 'object storage request failed'),
    })
    try {
      await blobs.ping()
    } catch (err) {
      blobs.close()
      throw new BlobStoreStartupError(
        `FERRY_BLOB_URL: cannot use ${where} at ${location.endpoint ?? 'AWS S3'}: ${describeS3Failure(err)}`,
      )
    }
    logger.info(
      { blobs: where, endpoint: location.endpoint ?? 'AWS S3', downloads: config.downloadMode },
      'object storage',
    )
    opened = { blobs, close: () => blobs.close() }
  }
  // Housekeeping only: a store without ListMultipartUploads must not stop the server.
  const aborted = await opened.blobs
    .abortStaleUploads(new Date(Date.now() - config.orphanMinAgeSeconds * 1000))
    .catch(() => 0)
  if (aborted)
    logger.warn({ count: aborted }, 'removed writes of uploads that never completed (temp files, multipart uploads)')
  const sweep = await removeOrphanBlobs(db, opened.blobs, { minAgeMs: config.orphanMinAgeSeconds * 1000 })
  if (sweep.removed.length)
    logger.warn(
      { count: sweep.removed.length, keys: sweep.removed.slice(0, 20) },
      'removed files of uploads that never completed',
    )
  if (sweep.refused) logger.warn({ reason: sweep.refused }, 'kept unreferenced blobs')
  return opened
}
