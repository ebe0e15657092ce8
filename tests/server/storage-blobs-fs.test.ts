// backend-matrix: sqlite-only — the file-system blob store itself
import assert from 'node:assert/strict'
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { openFsBlobs } from '../../server/storage/blobs/blobs-fs.ts'
import { runStorageContract } from './storage-contract.ts'

runStorageContract('blobs-fs', {
  blobs: async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ferry-blobs-'))
    return { blobs: await openFsBlobs(dir), cleanup: () => rm(dir, { recursive: true, force: true }) }
  },
})

test('blobs-fs: a write interrupted by a crash leaves only a temp file, removed once older than the threshold', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ferry-blobs-'))
  try {
    const blobs = await openFsBlobs(dir)
    await blobs.put('art_ok', new TextEncoder().encode('whole'))
    // What a crash between write and rename leaves: a temp file, never a file under its key.
    await writeFile(join(dir, '.tmp', 'art_half.123.1'), 'half')
    const hourAgo = new Date(Date.now() - 3600_000)
    await utimes(join(dir, '.tmp', 'art_half.123.1'), hourAgo, hourAgo)
    assert.deepEqual(
      (await blobs.list()).map((b) => b.key),
      ['art_ok'],
    )
    // Another instance sharing the folder is still writing this one.
    const writing = await blobs.open('art_writing')
    await writing.write(new TextEncoder().encode('first half'))

    const reopened = await openFsBlobs(dir)
    assert.equal(await reopened.abortStaleUploads(new Date(Date.now() - 60_000)), 1)
    assert.equal((await readdir(join(dir, '.tmp'))).length, 1, 'the young temp file is kept')
    await writing.write(new TextEncoder().encode(', second half'))
    await writing.commit()
    assert.deepEqual(
      (await reopened.list()).map((b) => b.key),
      ['art_ok', 'art_writing'],
    )
    assert.equal(await reopened.size('art_writing'), 'first half, second half'.length)
    assert.deepEqual(await readdir(join(dir, '.tmp')), [])
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
