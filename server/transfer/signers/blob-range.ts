/** @module One byte range of a stored blob, read into memory (for the few headers and tables Ferry parses from uploads). */
import type { BlobStore } from '../../core/storage.ts'

/** `length` bytes of the blob at `key` from `start`; `undefined` when the blob is gone or shorter. */
export async function readRange(
  blobs: BlobStore,
  key: string,
  start: number,
  length: number,
): Promise<Uint8Array | undefined> {
  if (length <= 0) return new Uint8Array(0)
  const blob = await blobs.get(key, { start, end: start + length - 1 })
  if (!blob) return undefined
  const out = new Uint8Array(length)
  let at = 0
  const reader = blob.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    const take = Math.min(value.length, length - at)
    out.set(value.subarray(0, take), at)
    at += take
  }
  return at === length ? out : undefined
}
