/** @module Blob store in memory (browser sandbox and tests). */
import { assertBlobKey, putWhole, type BlobRead, type BlobStore } from './types.ts'

export function createMemoryBlobs(): BlobStore {
  const blobs = new Map<string, Uint8Array>()
  const store: BlobStore = {
    async open(key) {
      assertBlobKey(key)
      let chunks: Uint8Array[] = []
      let size = 0
      return {
        async write(chunk) {
          chunks.push(chunk.slice())
          size += chunk.byteLength
        },
        async commit() {
          const whole = new Uint8Array(size)
          let offset = 0
          for (const chunk of chunks) {
            whole.set(chunk, offset)
            offset += chunk.byteLength
          }
          chunks = []
          blobs.set(key, whole)
        },
        async abort() {
          chunks = []
        },
      }
    },
    put: (key, data) => putWhole(store, key, data),
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
  return store
}
