/** @module Blob store in memory (browser sandbox and tests). */
import { assertBlobKey, type BlobRead, type BlobStore } from './types.ts'

export function createMemoryBlobs(): BlobStore {
  const blobs = new Map<string, Uint8Array>()
  return {
    async put(key, data) {
      assertBlobKey(key)
      blobs.set(key, data.slice())
    },
    async get(key, range): Promise<BlobRead | null> {
      const data = blobs.get(key)
      if (!data) return null
      const part = range ? data.subarray(range.start, range.end + 1) : data
      return {
        size: data.byteLength,
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            if (part.byteLength > 0) controller.enqueue(part.slice())
            controller.close()
          },
        }),
      }
    },
    async size(key) {
      return blobs.get(key)?.byteLength ?? null
    },
    async delete(key) {
      blobs.delete(key)
    },
    async list() {
      return [...blobs.keys()].sort()
    },
    async ping() {},
  }
}
