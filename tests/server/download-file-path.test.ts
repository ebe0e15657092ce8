/**
 * Downloads from the disk store through the real Node server, which writes the file to the
 * socket itself (runtime/file-response-node.ts) in chunks of 2 MiB: a file of several chunks
 * arrives whole and in order, ranges across a chunk boundary, HEAD and 304 carry no body, and a
 * client that goes away mid-file leaves no open file behind.
 */
import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import { readdir, readlink } from 'node:fs/promises'
import { get } from 'node:http'
import { join } from 'node:path'
import { test } from 'node:test'
import { uploadOneFile, withUploadTeam } from './helpers.ts'

const BYTES = randomBytes(5 * 1024 * 1024 + 123)
const SHA256 = createHash('sha256').update(BYTES).digest('hex')
// The fast path is the disk store's, whatever store the backend matrix picks for other suites.
const team = withUploadTeam('big-file', undefined, { blobs: { kind: 'fs' } }, uploadBigFile)
const { f } = team
let downloadPath: string

/** The suite's one file, uploaded once the team exists. */
async function uploadBigFile() {
  downloadPath = await uploadOneFile(f, team.token, 'big-file', 'Big Setup.exe', BYTES)
}

test('a file of several read chunks arrives whole, with its length, ETag, digest and the security headers', async () => {
  const res = await f(downloadPath)
  assert.equal(res.status, 200)
  assert.equal(res.headers.get('content-length'), String(BYTES.byteLength))
  assert.equal(res.headers.get('etag'), `"${SHA256}"`)
  assert.equal(res.headers.get('digest'), `sha-256=${Buffer.from(SHA256, 'hex').toString('base64')}`)
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff')
  assert.equal(res.headers.get('transfer-encoding'), null)
  const body = Buffer.from(await res.arrayBuffer())
  assert.equal(createHash('sha256').update(body).digest('hex'), SHA256)
})

test('a range across a chunk boundary, and one at the end of the file', async () => {
  const boundary = 2 * 1024 * 1024
  const res = await f(downloadPath, { headers: { range: `bytes=${boundary - 10}-${boundary + 9}` } })
  assert.equal(res.status, 206)
  assert.equal(res.headers.get('content-range'), `bytes ${boundary - 10}-${boundary + 9}/${BYTES.byteLength}`)
  assert.deepEqual(Buffer.from(await res.arrayBuffer()), BYTES.subarray(boundary - 10, boundary + 10))
  const tail = await f(downloadPath, { headers: { range: 'bytes=-5' } })
  assert.equal(tail.status, 206)
  assert.deepEqual(Buffer.from(await tail.arrayBuffer()), BYTES.subarray(BYTES.byteLength - 5))
})

test('HEAD and a matching If-None-Match answer without a body', async () => {
  const head = await f(downloadPath, { method: 'HEAD' })
  assert.equal(head.status, 200)
  assert.equal(head.headers.get('content-length'), String(BYTES.byteLength))
  assert.equal((await head.arrayBuffer()).byteLength, 0)
  const cached = await f(downloadPath, { headers: { 'if-none-match': `"${SHA256}"` } })
  assert.equal(cached.status, 304)
  assert.equal((await cached.arrayBuffer()).byteLength, 0)
})

/** Descriptors of this process (the server runs in it) open on a file under the blob folder. */
async function openBlobFiles(): Promise<number> {
  const blobDir = join(team.server.dataDir, 'blobs')
  const links = await Promise.all(
    (await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')),
  )
  return links.filter((target) => target.startsWith(blobDir)).length
}

test('a client that disconnects mid-file leaves no open file, and the next download is whole', async () => {
  await new Promise<void>((done, fail) => {
    const req = get(`${team.server.url}${downloadPath}`, (res) => {
      res.once('data', () => {
        req.destroy()
        done()
      })
    })
    req.once('error', (error) => (req.destroyed ? undefined : fail(error)))
  })
  const deadline = Date.now() + 10_000
  while ((await openBlobFiles()) > 0) {
    assert.ok(Date.now() < deadline, 'the file stayed open 10 s after the client left')
    await new Promise((done) => setTimeout(done, 20))
  }
  const again = await f(downloadPath)
  assert.equal(
    createHash('sha256')
      .update(Buffer.from(await again.arrayBuffer()))
      .digest('hex'),
    SHA256,
  )
})
