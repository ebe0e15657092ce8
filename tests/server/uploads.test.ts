/** Streamed uploads: large files arrive intact, with the digests clients verify against. */
import assert from 'node:assert/strict'
import { createHash, randomFillSync } from 'node:crypto'
import { test } from 'node:test'
import { jsDigestStream } from '../../server/transfer/digests.ts'
import { nodeDigestStream } from '../../server/runtime/digests-node.ts'
import {
  bearer,
  memoryApp,
  unfinishedWrites,
  uploadForm,
  type Fetch,
  prepareUploadTeam,
  withUploadTeam,
} from './helpers.ts'

const FIELDS = { version: '1.0.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }
const hex = (algorithm: string, data: Uint8Array) => createHash(algorithm).update(data).digest('hex')

const prepare = (f: Fetch) => prepareUploadTeam(f, 'big-app')

const team = withUploadTeam('big-app', 64 * 1024 * 1024)
const { f } = team

test('a 20 MiB installer and its blockmap: sizes, SHA-256 and SHA-512 match, bytes download intact', async () => {
  const installer = randomFillSync(new Uint8Array(20 * 1024 * 1024))
  const blockmap = randomFillSync(new Uint8Array(3000))
  const res = await f(
    '/v1/apps/big-app/versions',
    bearer(team.token, {
      method: 'POST',
      body: uploadForm(FIELDS, [
        ['Big Setup 1.0.0.exe', installer],
        ['Big Setup 1.0.0.exe.blockmap', blockmap],
      ]),
    }),
  )
  assert.equal(res.status, 201, await res.clone().text())
  const version = (await res.json()) as {
    artifacts: Array<{ fileName: string; size: number; sha256: string; sha512: string; downloadUrl: string }>
  }
  for (const [name, data] of [
    ['Big Setup 1.0.0.exe', installer],
    ['Big Setup 1.0.0.exe.blockmap', blockmap],
  ] as const) {
    const artifact = version.artifacts.find((a) => a.fileName === name)
    assert.ok(artifact, name)
    assert.equal(artifact.size, data.byteLength)
    assert.equal(artifact.sha256, hex('sha256', data))
    assert.equal(artifact.sha512, hex('sha512', data))
    const download = new Uint8Array(await (await fetch(artifact.downloadUrl)).arrayBuffer())
    assert.equal(hex('sha256', download), artifact.sha256, `${name} downloads byte for byte`)
  }
  assert.deepEqual(await unfinishedWrites(team.server), [], 'no temp file or multipart upload left')
})

test('the Squirrel feed names the SHA-1 the server computed while streaming', async () => {
  const app = await memoryApp({ maxUploadBytes: 8 * 1024 * 1024 })
  const t = await prepare(app.fetch)
  const nupkg = randomFillSync(new Uint8Array(1024 * 1024 + 17))
  const res = await app.fetch(
    '/v1/apps/big-app/versions',
    bearer(t, { method: 'POST', body: uploadForm(FIELDS, [['big-1.0.0-full.nupkg', nupkg]]) }),
  )
  assert.equal(res.status, 201, await res.clone().text())
  const releases = await (await app.fetch('/v1/apps/big-app/squirrel/stable/x64/RELEASES')).text()
  assert.equal(releases.trim(), `${hex('sha1', nupkg).toUpperCase()} big-1.0.0-full.nupkg ${nupkg.byteLength}`)
})

test('the portable digests equal node:crypto for any chunking', () => {
  const data = randomFillSync(new Uint8Array(200_003))
  const expected = { sha1: hex('sha1', data), sha256: hex('sha256', data), sha512: hex('sha512', data) }
  for (const factory of [jsDigestStream, nodeDigestStream]) {
    for (const size of [1, 63, 64 * 1024, data.byteLength]) {
      const stream = factory()
      for (let i = 0; i < data.byteLength; i += size) stream.update(data.subarray(i, i + size))
      assert.deepEqual(stream.digest(), expected, `chunks of ${size}`)
    }
    assert.deepEqual(factory().digest(), {
      sha1: hex('sha1', new Uint8Array()),
      sha256: hex('sha256', new Uint8Array()),
      sha512: hex('sha512', new Uint8Array()),
    })
  }
})
