/** @module Blob store in memory (browser sandbox and tests). */
import { assertBlobKey, putWhole, type BlobRead, type BlobStore } from '../../core/storage.ts'

export function createMemoryBlobs(now: () => Date = () => new Date()): BlobStore {
  const blobs = new Map<string, { data: Uint8Array; modifiedAt: Date }>()
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
          blobs.set(key, { data: whole, modifiedAt: now() })
        },
        async abort() {
          chunks = []
        },
      }
    },
    put: (key, data) => putWhole(store, key, data),
    async get(key, range): Promise<BlobRead | null> {
      const data = blobs.get(key)?.data
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
      return blobs.get(key)?.data.byteLength ?? null
    },
    async delete(key) {
      blobs.delete(key)
    },
    async list() {
      return [...blobs].map(([key, { modifiedAt }]) => ({ key, modifiedAt })).sort((a, b) => (a.key < b.key ? -1 : 1))
    },
    async ping() {},
  }
  return store
}
