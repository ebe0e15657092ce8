import assert from 'node:assert/strict'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { openFsBlobs } from '../../server/storage/blobs-fs.ts'
import { runStorageContract } from './storage-contract.ts'

runStorageContract('blobs-fs', {
  blobs: async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ferry-blobs-'))
    return { blobs: await openFsBlobs(dir), cleanup: () => rm(dir, { recursive: true, force: true }) }
  },
})

test('blobs-fs: a write interrupted by a crash leaves only a temp file, removed at the next open', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ferry-blobs-'))
  try {
    const blobs = await openFsBlobs(dir)
    await blobs.put('art_ok', new TextEncoder().encode('whole'))
    // What a crash between write and rename leaves: a temp file, never a file under its key.
    await writeFile(join(dir, '.tmp', 'art_half.123.1'), 'half')
    assert.deepEqual((await blobs.list()).map((b) => b.key), ['art_ok'])
    const reopened = await openFsBlobs(dir)
    assert.deepEqual(await readdir(join(dir, '.tmp')), [])
    assert.deepEqual((await reopened.list()).map((b) => b.key), ['art_ok'])
    assert.equal(await reopened.size('art_ok'), 5)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
