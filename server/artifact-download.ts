/**
 * @module The answer to an allowed artifact download: the bytes (whole or one range) streamed
 * from the blob store, or, when the store offers direct URLs (object storage with
 * `FERRY_DOWNLOAD_MODE=redirect`), a 302 to a presigned URL. Artifacts never change under their
 * URL (a new upload gets a new id), so public ones are cacheable for a year by any CDN;
 * drafts and private apps' files must not be stored by shared caches.
 */
import { hexToBase64 } from './crypto.ts'
import type { BlobStore } from './storage/types.ts'

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

export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

const matchesEtag = (header: string | undefined, etag: string) =>
  header !== undefined && (header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag))

export async function downloadResponse(blobs: BlobStore, artifact: DownloadableArtifact, request: DownloadRequest): Promise<Response> {
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
