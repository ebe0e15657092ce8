/**
 * @module The answer to an allowed artifact download: the bytes (whole or one range) streamed
 * from the blob store, or, when the store offers direct URLs (object storage with
 * `FERRY_DOWNLOAD_MODE=redirect`), a 302 to a presigned URL. Artifacts never change under their
 * URL (a new upload gets a new id), so public ones are cacheable for a year by any CDN;
 * behind nginx with `FERRY_ACCEL_REDIRECT_PREFIX`, an `X-Accel-Redirect` to the file on disk;
 * drafts and private apps' files must not be stored by shared caches.
 */
import { hexToBase64 } from '../core/crypto.ts'
import type { BlobStore } from '../core/storage.ts'

export const PUBLIC_CACHE_CONTROL = 'public, max-age=31536000, immutable'
export const PRIVATE_CACHE_CONTROL = 'private, no-store'

export interface DownloadableArtifact {
  id: string
  fileName: string
  blobKey: string
  sha256: string
  /** Size in bytes as recorded at upload. */
  size: number
  /** Published, in a public app: anyone may fetch it, and caches may keep it. */
  isPublic: boolean
}

export interface DownloadRequest {
  range: string | undefined
  ifNoneMatch: string | undefined
  /** `FERRY_ACCEL_REDIRECT_PREFIX`: nginx sends the file from that internal location. */
  accelPrefix?: string | undefined
}

/** Parses a single `bytes=` range; `undefined` means "send the whole file". */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | undefined {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null
  if (!m || size === 0 || (m[1] === '' && m[2] === '')) return undefined
  let start: number
  let end: number
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]))
    end = size - 1
  } else {
    start = Number(m[1])
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1)
  }
  return start <= end && start < size ? { start, end } : undefined
}

/** electron-updater's differential downloader asks for at most 1,000 ranges in one request. */
export const MAX_RANGES = 1000

/**
 * Parses a `bytes=` header of two or more ranges (`a-b, c-d`, as electron-updater's differential
 * downloader sends); `undefined` when it is not one, names a range outside the file, or has more
 * than `MAX_RANGES` (the whole file is sent then, as RFC 9110 allows).
 */
export function parseRanges(
  header: string | undefined,
  size: number,
): Array<{ start: number; end: number }> | undefined {
  const m = header ? /^bytes=(.+)$/.exec(header.trim()) : null
  const specs = m?.[1]?.split(',') ?? []
  if (specs.length < 2 || specs.length > MAX_RANGES) return undefined
  const ranges = specs.map((spec) => parseRange(`bytes=${spec.trim()}`, size))
  return ranges.every((r) => r !== undefined) ? (ranges as Array<{ start: number; end: number }>) : undefined
}

/** A `multipart/byteranges` body (RFC 9110 §14.6) streamed range by range from the blob store. */
function multipartRanges(
  blobs: BlobStore,
  artifact: DownloadableArtifact,
  ranges: Array<{ start: number; end: number }>,
) {
  const boundary = `ferry-${artifact.sha256.slice(0, 24)}`
  const encoder = new TextEncoder()
  const head = (r: { start: number; end: number }) =>
    encoder.encode(
      `--${boundary}\r\ncontent-type: application/octet-stream\r\ncontent-range: bytes ${r.start}-${r.end}/${artifact.size}\r\n\r\n`,
    )
  const tail = encoder.encode(`--${boundary}--\r\n`)
  const crlf = encoder.encode('\r\n')
  const length = ranges.reduce((n, r) => n + head(r).length + (r.end - r.start + 1) + crlf.length, tail.length)
  let index = 0
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const range = ranges[index++]
      if (!range) {
        controller.enqueue(tail)
        controller.close()
        return
      }
      const blob = await blobs.get(artifact.blobKey, range)
      if (!blob) throw new Error(`blob missing for artifact ${artifact.id}`)
      controller.enqueue(head(range))
      const reader = blob.body.getReader()
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        controller.enqueue(value)
      }
      controller.enqueue(crlf)
    },
  })
  return { body, length, contentType: `multipart/byteranges; boundary=${boundary}` }
}

export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

const matchesEtag = (header: string | undefined, etag: string) =>
  header !== undefined &&
  (header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag))

export async function downloadResponse(
  blobs: BlobStore,
  artifact: DownloadableArtifact,
  request: DownloadRequest,
): Promise<Response> {
  const cacheControl = artifact.isPublic ? PUBLIC_CACHE_CONTROL : PRIVATE_CACHE_CONTROL
  const etag = `"${artifact.sha256}"`
  const disposition = contentDisposition(artifact.fileName)
  if (blobs.directUrl) {
    const location = await blobs.directUrl(artifact.blobKey, { contentDisposition: disposition, cacheControl })
    // The presigned URL expires, so the redirect itself is never cached.
    return new Response(null, { status: 302, headers: { location, 'cache-control': 'no-store' } })
  }
  if (matchesEtag(request.ifNoneMatch, etag)) {
    return new Response(null, { status: 304, headers: { etag, 'cache-control': cacheControl } })
  }
  if (request.accelPrefix !== undefined && !blobs.directUrl) {
    // Allowed: nginx serves the file (ranges included) from its internal location. Of these
    // headers nginx passes on Content-Type, Content-Disposition, Accept-Ranges and
    // Cache-Control itself; its location adds ETag and Digest back (production-deploy).
    return new Response(null, {
      status: 200,
      headers: {
        'x-accel-redirect': `${request.accelPrefix}${artifact.blobKey}`,
        'content-type': 'application/octet-stream',
        'content-disposition': disposition,
        'accept-ranges': 'bytes',
        'cache-control': cacheControl,
        etag,
        digest: `sha-256=${hexToBase64(artifact.sha256)}`,
      },
    })
  }
  const ranges = parseRanges(request.range, artifact.size)
  if (ranges) {
    const multi = multipartRanges(blobs, artifact, ranges)
    return new Response(multi.body, {
      status: 206,
      headers: {
        'content-type': multi.contentType,
        'content-disposition': disposition,
        'accept-ranges': 'bytes',
        'cache-control': cacheControl,
        etag,
        'content-length': String(multi.length),
      },
    })
  }
  const range = parseRange(request.range, artifact.size)
  const blob = await blobs.get(artifact.blobKey, range)
  if (!blob) throw new Error(`blob missing for artifact ${artifact.id}`)
  const headers: Record<string, string> = {
    'content-type': 'application/octet-stream',
    'content-disposition': disposition,
    'accept-ranges': 'bytes',
    'cache-control': cacheControl,
    etag,
    digest: `sha-256=${hexToBase64(artifact.sha256)}`,
    'content-length': String(range ? range.end - range.start + 1 : blob.size),
  }
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${blob.size}`
  return new Response(blob.body, { status: range ? 206 : 200, headers })
}
