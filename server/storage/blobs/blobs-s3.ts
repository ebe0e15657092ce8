/**
 * @module Blob store on S3-compatible object storage (AWS S3, Cloudflare R2, MinIO, Garage,
 * Ceph RGW), Node only. Blobs are objects `<prefix><key>`.
 *
 * Streamed writes use the low-level multipart calls rather than lib-storage's `Upload`: the
 * `BlobWriter` shape (write, commit, abort) maps onto them one to one, each `write` awaits the
 * part it fills (so the uploader's back-pressure reaches the client and memory stays at a few
 * parts), failures surface in the call that caused them, and `abort` aborts the one multipart
 * upload this writer created. A blob smaller than one part is a single PutObject at commit.
 * Nothing is visible under the key before commit: a multipart object appears only when the
 * upload completes.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import type { S3Location } from './blob-location.ts'
import {
  BLOB_KEY,
  BlobStoreUnavailable,
  assertBlobKey,
  putWhole,
  type BlobEntry,
  type BlobWriter,
  type SweepableBlobStore,
} from '../../core/storage.ts'

/** S3's smallest part (except the last) is 5 MiB; 8 MiB parts reach 2 GiB in 256 parts. */
export const DEFAULT_PART_BYTES = 8 * 1024 * 1024
/** Parts uploading at once per writer: a writer holds at most this many plus the one filling. */
const PARTS_IN_FLIGHT = 2
const CONNECT_TIMEOUT_MS = 5_000
const METADATA_TIMEOUT_MS = 30_000
const PING_TIMEOUT_MS = 5_000
const PART_TIMEOUT_MS = 5 * 60_000

export interface S3BlobOptions extends Omit<S3Location, 'kind' | 'presignSeconds'> {
  /** When set, the store offers presigned `directUrl`s valid this long (downloads redirect). */
  presignSeconds?: number
  partBytes?: number
  /** Keys per ListObjectsV2 page (S3's maximum and default: 1000). */
  listPageSize?: number
  /** Told about every failure of the object store before it becomes a 503 (for the log). */
  onError?: (err: unknown, operation: string) => void
}

export interface S3BlobStore extends SweepableBlobStore {
  /** Closes the client's connections. */
  close(): void
}

const statusOf = (err: unknown): number | undefined => {
  const meta: unknown = err && typeof err === 'object' ? Reflect.get(err, '$metadata') : undefined
  const status: unknown = meta && typeof meta === 'object' ? Reflect.get(meta, 'httpStatusCode') : undefined
  return typeof status === 'number' ? status : undefined
}

const nameOf = (err: unknown): string => {
  const name: unknown =
    err && typeof err === 'object' ? (Reflect.get(err, 'code') ?? Reflect.get(err, 'name')) : undefined
  return typeof name === 'string' ? name : String(err)
}

/** One sentence on why the bucket cannot be used, for start-up errors. */
export function describeS3Failure(err: unknown): string {
  const status = statusOf(err)
  if (status === 403 || status === 401)
    return 'the credentials were refused (check FERRY_S3_ACCESS_KEY_ID and FERRY_S3_SECRET_ACCESS_KEY)'
  if (status === 404) return 'the bucket does not exist'
  if (status === 301 || status === 400)
    return `the endpoint refused the request (HTTP ${status}: wrong FERRY_S3_REGION or FERRY_S3_FORCE_PATH_STYLE?)`
  if (status !== undefined) return `the endpoint answered HTTP ${status} (${nameOf(err)})`
  if (err instanceof Error && /region is missing/i.test(err.message))
    return 'no region is configured (set FERRY_S3_REGION or AWS_REGION)'
  if (err instanceof Error && /credential/i.test(err.name + err.message))
    return `no credentials were found (set FERRY_S3_ACCESS_KEY_ID and FERRY_S3_SECRET_ACCESS_KEY): ${err.message}`
  return `the endpoint could not be reached (${nameOf(err)})`
}

export function openS3Blobs(options: S3BlobOptions): S3BlobStore {
  const { bucket, prefix, partBytes = DEFAULT_PART_BYTES, listPageSize = 1000, onError = () => undefined } = options
  if (partBytes < 5 * 1024 * 1024) throw new Error('S3 parts must be at least 5 MiB')
  const client = new S3Client({
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.region ? { region: options.region } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    forcePathStyle: options.forcePathStyle,
    // Ferry hashes every upload itself (SHA-1/256/512); the SDK's default CRC trailers
    // (aws-chunked bodies) are refused by several S3-compatible servers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS },
  })
  const objectKey = (key: string) => {
    assertBlobKey(key)
    return prefix + key
  }
  /** Runs one S3 call with a time limit; any failure is reported to `onError` and becomes a 503. */
  const call = async <T>(
    operation: string,
    run: (signal: AbortSignal) => Promise<T>,
    timeoutMs = METADATA_TIMEOUT_MS,
  ): Promise<T> => {
    try {
      return await run(AbortSignal.timeout(timeoutMs))
    } catch (err) {
      onError(err, operation)
      throw new BlobStoreUnavailable(err)
    }
  }
  const notFound = (err: unknown) => statusOf(err) === 404

  const store: S3BlobStore = {
    async open(key) {
      const Key = objectKey(key)
      // Grows up to one part, so a small file does not cost a whole part's allocation.
      let buffer = new Uint8Array(0)
      let filled = 0
      const reserve = (bytes: number) => {
        if (filled + bytes <= buffer.byteLength) return
        const grown = new Uint8Array(Math.min(partBytes, Math.max(filled + bytes, buffer.byteLength * 2, 64 * 1024)))
        grown.set(buffer.subarray(0, filled))
        buffer = grown
      }
      let uploadId: string | undefined
      const parts: CompletedPart[] = []
      let nextPartNumber = 1
      const inFlight = new Set<Promise<void>>()
      let failure: unknown
      let finished = false

      const startPart = async (body: Uint8Array) => {
        uploadId ??= (
          await call('CreateMultipartUpload', (abortSignal) =>
            client.send(
              new CreateMultipartUploadCommand({ Bucket: bucket, Key, ContentType: 'application/octet-stream' }),
              { abortSignal },
            ),
          )
        ).UploadId
        if (!uploadId)
          throw new BlobStoreUnavailable(new Error(`CreateMultipartUpload ${Key}: no UploadId in the answer`))
        const PartNumber = nextPartNumber++
        const upload = (async () => {
          const { ETag } = await call(
            'UploadPart',
            (abortSignal) =>
              client.send(new UploadPartCommand({ Bucket: bucket, Key, UploadId: uploadId, PartNumber, Body: body }), {
                abortSignal,
              }),
            PART_TIMEOUT_MS,
          )
          parts.push({ PartNumber, ETag })
        })().catch((err: unknown) => {
          failure ??= err
        })
        inFlight.add(upload)
        void upload.finally(() => inFlight.delete(upload))
      }
      const settle = async () => {
        await Promise.all(inFlight)
        if (failure) throw failure
      }

      const writer: BlobWriter = {
        async write(chunk) {
          if (finished) throw new Error('write after commit or abort')
          if (failure) throw failure
          let offset = 0
          while (offset < chunk.byteLength) {
            const n = Math.min(partBytes - filled, chunk.byteLength - offset)
            reserve(n)
            buffer.set(chunk.subarray(offset, offset + n), filled)
            filled += n
            offset += n
            if (filled === partBytes) {
              const full = buffer
              // More than a part already: the next one is likely full-sized too.
              buffer = new Uint8Array(partBytes)
              filled = 0
              await startPart(full)
              while (inFlight.size >= PARTS_IN_FLIGHT) await Promise.race(inFlight)
              if (failure) throw failure
            }
          }
        },
        async commit() {
          if (finished) throw new Error('commit after commit or abort')
          await settle()
          if (uploadId === undefined) {
            const Body = buffer.subarray(0, filled)
            await call(
              'PutObject',
              (abortSignal) =>
                client.send(
                  new PutObjectCommand({ Bucket: bucket, Key, Body, ContentType: 'application/octet-stream' }),
                  { abortSignal },
                ),
              PART_TIMEOUT_MS,
            )
          } else {
            if (filled > 0) await startPart(buffer.subarray(0, filled))
            await settle()
            const Parts = [...parts].sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0))
            // The ETag of the completed object is not used: some servers (radosgw) leave it empty.
            await call(
              'CompleteMultipartUpload',
              (abortSignal) =>
                client.send(
                  new CompleteMultipartUploadCommand({
                    Bucket: bucket,
                    Key,
                    UploadId: uploadId,
                    MultipartUpload: { Parts },
                  }),
                  { abortSignal },
                ),
              PART_TIMEOUT_MS,
            )
          }
          finished = true
          buffer = new Uint8Array(0)
        },
        async abort() {
          if (finished) return
          finished = true
          buffer = new Uint8Array(0)
          await Promise.allSettled(inFlight)
          if (uploadId === undefined) return
          // Best effort: when the store is down this fails, and `abortStaleUploads` (at the next
          // start) or a bucket lifecycle rule removes the parts later.
          await call('AbortMultipartUpload', (abortSignal) =>
            client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key, UploadId: uploadId }), { abortSignal }),
          ).catch(() => undefined)
        },
      }
      return writer
    },

    put: (key, data) => putWhole(store, key, data),

    async get(key, range) {
      const Key = objectKey(key)
      let out
      try {
        out = await client.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key,
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        )
      } catch (err) {
        if (notFound(err)) return null
        onError(err, 'GetObject')
        throw new BlobStoreUnavailable(err)
      }
      const total = range ? Number(/\/(\d+)$/.exec(out.ContentRange ?? '')?.[1]) : out.ContentLength
      if (!out.Body || total === undefined || !Number.isFinite(total)) {
        const err = new Error(`GetObject ${Key}: no body or size in the answer`)
        onError(err, 'GetObject')
        throw new BlobStoreUnavailable(err)
      }
      return { size: total, body: out.Body.transformToWebStream() }
    },

    async size(key) {
      const Key = objectKey(key)
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key }), {
          abortSignal: AbortSignal.timeout(METADATA_TIMEOUT_MS),
        })
        return head.ContentLength ?? 0
      } catch (err) {
        if (notFound(err)) return null
        onError(err, 'HeadObject')
        throw new BlobStoreUnavailable(err)
      }
    },

    async delete(key) {
      const Key = objectKey(key)
      await call('DeleteObject', (abortSignal) =>
        client.send(new DeleteObjectCommand({ Bucket: bucket, Key }), { abortSignal }),
      )
    },

    async list() {
      const entries: BlobEntry[] = []
      let ContinuationToken: string | undefined
      do {
        const page = await call('ListObjectsV2', (abortSignal) =>
          client.send(
            new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken, MaxKeys: listPageSize }),
            { abortSignal },
          ),
        )
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(prefix.length)
          // Objects in deeper "folders" under the prefix are not blobs.
          if (key && BLOB_KEY.test(key) && object.LastModified) entries.push({ key, modifiedAt: object.LastModified })
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (ContinuationToken)
      return entries.sort((a, b) => (a.key < b.key ? -1 : 1))
    },

    async ping() {
      // Health checks wait on this; a load balancer gives up after a few seconds anyway.
      await client.send(new HeadBucketCommand({ Bucket: bucket }), {
        abortSignal: AbortSignal.timeout(PING_TIMEOUT_MS),
      })
    },

    async abortStaleUploads(olderThan) {
      let aborted = 0
      let KeyMarker: string | undefined
      let UploadIdMarker: string | undefined
      do {
        const page = await call('ListMultipartUploads', (abortSignal) =>
          client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix, KeyMarker, UploadIdMarker }), {
            abortSignal,
          }),
        )
        for (const upload of page.Uploads ?? []) {
          if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated > olderThan) continue
          if (!BLOB_KEY.test(upload.Key.slice(prefix.length))) continue
          await call('AbortMultipartUpload', (abortSignal) =>
            client.send(
              new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }),
              { abortSignal },
            ),
          )
          aborted++
        }
        KeyMarker = page.IsTruncated ? page.NextKeyMarker : undefined
        UploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined
      } while (KeyMarker)
      return aborted
    },

    close() {
      client.destroy()
    },
  }
  if (options.presignSeconds !== undefined) {
    const expiresIn = options.presignSeconds
    store.directUrl = async (key, { contentDisposition, cacheControl }) =>
      getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket: bucket,
          Key: objectKey(key),
          ResponseContentDisposition: contentDisposition,
          ResponseCacheControl: cacheControl,
          ResponseContentType: 'application/octet-stream',
        }),
        { expiresIn },
      )
  }
  return store
}
