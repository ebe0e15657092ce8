/**
 * @module Blob store on the local file system (Node only). A blob is written to
 * `<dir>/.tmp/`, fsynced, then renamed into `<dir>/<key>`: a crash leaves either the
 * whole file or only a temp file, which `abortStaleUploads` removes once it is old enough (the
 * folder may be shared by instances whose writes are still going).
 */
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { markFileBody, type FileSpan } from './file-body.ts'
import { assertBlobKey, putWhole, type SweepableBlobStore } from '../../core/storage.ts'

const READ_CHUNK = 1024 * 1024

/**
 * A stream of `span` that opens the file on its first read only (high-water mark 0), so a
 * runtime that sends the marked file itself, a HEAD or a 304 never opens it.
 */
function lazyFileStream(span: FileSpan): ReadableStream<Uint8Array> {
  let handle: FileHandle | undefined
  let position = span.start
  const close = async () => {
    const open = handle
    handle = undefined
    await open?.close()
  }
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const want = Math.min(READ_CHUNK, span.end + 1 - position)
        if (want <= 0) {
          await close()
          controller.close()
          return
        }
        handle ??= await open(span.path, 'r')
        const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(want), 0, want, position)
        if (bytesRead === 0) {
          await close()
          throw new Error(`${span.path} ended at byte ${position}, before byte ${span.end}`)
        }
        position += bytesRead
        controller.enqueue(bytesRead === want ? buffer : buffer.subarray(0, bytesRead))
      },
      cancel: close,
    },
    { highWaterMark: 0 },
  )
}

export async function openFsBlobs(dir: string): Promise<SweepableBlobStore> {
  const tmpDir = join(dir, '.tmp')
  await mkdir(tmpDir, { recursive: true })
  let counter = 0
  const pathOf = (key: string) => {
    assertBlobKey(key)
    return join(dir, key)
  }
  const syncDir = async () => {
    const dirHandle = await open(dir, 'r')
    try {
      await dirHandle.sync()
    } finally {
      await dirHandle.close()
    }
  }
  const store: SweepableBlobStore = {
    async open(key) {
      const target = pathOf(key)
      const tmp = join(tmpDir, `${key}.${process.pid}.${++counter}`)
      const handle = await open(tmp, 'w', 0o600)
      let closed = false
      const close = async () => {
        if (closed) return
        closed = true
        await handle.close()
      }
      return {
        async write(chunk) {
          let offset = 0
          while (offset < chunk.byteLength) offset += (await handle.write(chunk, offset)).bytesWritten
        },
        async commit() {
          await handle.sync()
          await close()
          await rename(tmp, target)
          await syncDir()
        },
        async abort() {
          await close().catch(() => undefined)
          await rm(tmp, { force: true })
        },
      }
    },
    put: (key, data) => putWhole(store, key, data),
    async get(key, range) {
      const path = pathOf(key)
      let size: number
      try {
        size = (await stat(path)).size
      } catch {
        return null
      }
      const span = { path, start: range?.start ?? 0, end: range ? range.end : size - 1 }
      return { size, body: markFileBody(lazyFileStream(span), span) }
    },
    async size(key) {
      try {
        return (await stat(pathOf(key))).size
      } catch {
        return null
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true })
    },
    async list() {
      const names = (await readdir(dir)).filter((name) => name !== '.tmp').sort()
      const entries = await Promise.all(
        names.map(async (key) => {
          try {
            return { key, modifiedAt: (await stat(join(dir, key))).mtime }
          } catch {
            return null // deleted since readdir
          }
        }),
      )
      return entries.filter((e) => e !== null)
    },
    async ping() {
      await stat(tmpDir)
    },
    async abortStaleUploads(olderThan) {
      let removed = 0
      // Every write touches its temp file, so an old modification time means its writer died.
      for (const name of await readdir(tmpDir)) {
        const path = join(tmpDir, name)
        const modified = await stat(path).then(
          (s) => s.mtime,
          () => null,
        )
        if (!modified || modified > olderThan) continue
        await rm(path, { force: true })
        removed++
      }
      return removed
    },
  }
  return store
}
