/**
 * The S3 blob store against a real S3 server: radosgw started for this file (see s3-server.ts),
 * or the endpoint named by FERRY_TEST_S3_* (AWS S3, R2, MinIO…). Without either these tests
 * fail, saying how to install radosgw. The mid-upload outage test puts a TCP relay in front of
 * the endpoint, so it needs a plain-HTTP one (radosgw, a local MinIO); against https it fails
 * saying so.
 */
import assert from 'node:assert/strict'
import { createHash, randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer, connect, type Server, type Socket } from 'node:net'
import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import { after, before, test } from 'node:test'
import { CreateMultipartUploadCommand, UploadPartCommand } from '@aws-sdk/client-s3'
import { createApp } from '../../server/app.ts'
import type { S3Location } from '../../server/runtime/config.ts'
import { DEFAULT_PART_BYTES, openS3Blobs, type S3BlobStore } from '../../server/storage/blobs/blobs-s3.ts'
import { BlobStoreStartupError } from '../../server/storage/blobs/open-blobs-node.ts'
import { removeOrphanBlobs } from '../../server/storage/blobs/orphan-blobs.ts'
import { openNodeDb } from '../../server/storage/drivers/sqlite-node.ts'
import type { BlobStore } from '../../server/core/storage.ts'
import { runStorageContract, seedArtifactRow } from './storage-contract.ts'
import {
  JWT_SECRET,
  SIGNUP_KEY,
  TEST_ITERATIONS,
  bearer,
  expectProblem,
  expectSpec,
  httpFetch,
  prepareUploadTeam,
  startTestServer,
  testServerConfig,
  uploadForm,
  type Fetch,
} from './helpers.ts'
import { startS3, type S3TestServer } from '../../services/s3-server.ts'
import { startLocalServer } from '../../services/ferry-server.ts'

const MiB = 1024 * 1024
const PART = 5 * MiB
let s3: S3TestServer

before(
  async () => {
    s3 = await startS3()
  },
  { timeout: 60_000 },
)
after(async () => s3?.stop())

let stores = 0
const fresh = (name: string, extra: Partial<Parameters<typeof openS3Blobs>[0]> = {}) => {
  const location = s3.location(`${name}-${++stores}`)
  return { location, blobs: openS3Blobs({ ...location, ...extra }) }
}

runStorageContract('blobs-s3', {
  blobs: async () => {
    const { blobs } = fresh('contract')
    return { blobs, cleanup: async () => blobs.close() }
  },
})

/** A deterministic 256 KiB chunk per index, so the bytes read back can be checked by hash. */
const chunkOf = (i: number) => new Uint8Array(256 * 1024).fill(i % 251)

/** Live memory after a full GC: what the process really holds, not garbage waiting for collection. */
const liveMemory = (() => {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  return () => {
    gc()
    const usage = process.memoryUsage()
    return usage.heapUsed + usage.arrayBuffers
  }
})()

async function readAll(blobs: S3BlobStore, key: string, range?: { start: number; end: number }) {
  const got = await blobs.get(key, range)
  assert.ok(got, `no blob ${key}`)
  return new Uint8Array(await new Response(got.body).arrayBuffer())
}

test('a 64 MiB blob streams up in parts with bounded memory, invisible until commit', { timeout: 60_000 }, async () => {
  const { location, blobs } = fresh('large', { partBytes: PART })
  try {
    const baseline = liveMemory()
    let peak = 0
    const hash = createHash('sha256')
    const writer = await blobs.open('art_large')
    for (let i = 0; i < 256; i++) {
      const chunk = chunkOf(i)
      hash.update(chunk)
      await writer.write(chunk)
      if (i % 16 === 15) peak = Math.max(peak, liveMemory() - baseline)
    }
    assert.deepEqual(await s3.objects(location), [], 'nothing visible before commit')
    assert.deepEqual(await s3.uploads(location), ['art_large'], 'the parts are one multipart upload')
    await writer.commit()
    // Three parts (one filling, two uploading) plus the client's own buffers; half the blob at most.
    assert.ok(
      peak < 32 * MiB,
      `the writer held ${(peak / MiB).toFixed(1)} MiB of a 64 MiB blob (parts of ${PART / MiB} MiB)`,
    )
    assert.deepEqual(await s3.uploads(location), [], 'the multipart upload is complete')
    assert.equal(await blobs.size('art_large'), 64 * MiB)
    const back = await blobs.get('art_large')
    assert.ok(back)
    const check = createHash('sha256')
    const reader = back.body.getReader()
    for (let r = await reader.read(); !r.done; r = await reader.read()) check.update(r.value)
    assert.equal(check.digest('hex'), hash.digest('hex'))
    assert.deepEqual(
      await readAll(blobs, 'art_large', { start: 64 * MiB - 3, end: 64 * MiB - 1 }),
      new Uint8Array(3).fill(255 % 251),
    )
  } finally {
    blobs.close()
  }
})

test('abort after uploaded parts leaves no object and no multipart upload', async () => {
  const { location, blobs } = fresh('abort', { partBytes: PART })
  try {
    const writer = await blobs.open('art_dropped')
    for (let i = 0; i < 48; i++) await writer.write(chunkOf(i))
    assert.deepEqual(await s3.uploads(location), ['art_dropped'], 'parts were uploaded')
    await writer.abort()
    assert.deepEqual(await s3.uploads(location), [])
    assert.deepEqual(await s3.objects(location), [])
    assert.equal(await blobs.get('art_dropped'), null)
  } finally {
    blobs.close()
  }
})

test('start-up tidying: stale multipart uploads are aborted; young uploads and young unrecorded blobs are kept', async () => {
  const { location, blobs } = fresh('stale')
  const db = await openNodeDb(':memory:')
  try {
    // What a writer killed mid-upload leaves: an upload with a part, never completed or aborted.
    const { UploadId } = await s3.client.send(
      new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: `${location.prefix}art_dead` }),
    )
    await s3.client.send(
      new UploadPartCommand({
        Bucket: s3.bucket,
        Key: `${location.prefix}art_dead`,
        UploadId,
        PartNumber: 1,
        Body: chunkOf(1),
      }),
    )
    assert.equal(await blobs.abortStaleUploads(new Date(Date.now() - 3600_000)), 0, 'younger than an hour: kept')
    assert.deepEqual(await s3.uploads(location), ['art_dead'])
    assert.equal(await blobs.abortStaleUploads(new Date(Date.now() + 60_000)), 1)
    assert.deepEqual(await s3.uploads(location), [])

    await seedArtifactRow(db, 'art_recorded')
    await blobs.put('art_recorded', new Uint8Array([1]))
    await blobs.put('art_unrecorded', new Uint8Array([1, 2, 3]))
    assert.deepEqual(
      await removeOrphanBlobs(db, blobs, { minAgeMs: 3600_000 }),
      { removed: [] },
      'another instance may still record it',
    )
    assert.deepEqual(await s3.objects(location), ['art_recorded', 'art_unrecorded'])
    const later = new Date(Date.now() + 2 * 3600_000)
    assert.deepEqual(await removeOrphanBlobs(db, blobs, { minAgeMs: 3600_000, now: later }), {
      removed: ['art_unrecorded'],
    })
    assert.deepEqual(await s3.objects(location), ['art_recorded'])
  } finally {
    blobs.close()
    await db.destroy()
  }
})

test('list pages through ListObjectsV2 and ignores objects that are not blobs', async () => {
  const { location, blobs } = fresh('many', { listPageSize: 2 })
  const nested = openS3Blobs({ ...location, prefix: `${location.prefix}nested/` })
  try {
    const keys = ['art_a', 'art_b', 'art_c', 'art_d', 'art_e']
    await Promise.all(keys.map((k) => blobs.put(k, new Uint8Array([1]))))
    await nested.put('art_deeper', new Uint8Array([2]))
    assert.deepEqual(
      (await blobs.list()).map((b) => b.key),
      keys,
    )
  } finally {
    blobs.close()
    nested.close()
  }
})

/** A TCP relay to the S3 server that can be taken down and brought back: a real outage. */
async function outageProxy(
  target: URL,
): Promise<{ endpoint: string; down(): Promise<void>; up(): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  let server: Server
  let port = 0
  const listen = () =>
    new Promise<void>((done) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port), target.hostname)
        for (const s of [client, upstream]) {
          sockets.add(s)
          s.on('close', () => sockets.delete(s))
          s.on('error', () => undefined)
        }
        client.pipe(upstream).pipe(client)
      }).listen(port, '127.0.0.1', () => {
        const address = server.address()
        port = typeof address === 'object' && address ? address.port : port
        done()
      })
    })
  await listen()
  const down = async () => {
    await new Promise<void>((done) => {
      server.close(() => done())
      for (const s of sockets) s.destroy()
    })
  }
  return { endpoint: `http://127.0.0.1:${port}`, down, up: listen, close: down }
}

const FIELDS = { version: '1.0.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }

async function uploadOk(
  f: Fetch,
  token: string,
  slug: string,
  version: string,
  files: Array<[string, Uint8Array]>,
  extra: Record<string, string> = {},
) {
  const res = await f(
    `/v1/apps/${slug}/versions`,
    bearer(token, { method: 'POST', body: uploadForm({ ...FIELDS, version, ...extra }, files) }),
  )
  assert.equal(res.status, 201, await res.clone().text())
  return (await res.json()) as { id: string; artifacts: Array<{ id: string; sha256: string; downloadUrl: string }> }
}

const payload = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7) % 256)

test(
  'API on S3: upload, update check, download with CDN headers, ranges, conditional requests',
  { timeout: 30_000 },
  async () => {
    const location = s3.location('api')
    const server = await startTestServer(32 * MiB, { blobs: location })
    try {
      const f = httpFetch(server.url)
      const token = await prepareUploadTeam(f, 'cloud-app')
      const bytes = payload(10 * MiB + 123)
      const v = await uploadOk(f, token, 'cloud-app', '2.0.0', [['Cloud-2.0.0.exe', bytes]])
      assert.deepEqual(await s3.objects(location), [v.artifacts[0]?.id], 'the artifact is one object under the prefix')

      const check = await f('/v1/apps/cloud-app/update?version=1.0.0&platform=windows&arch=x64')
      assert.equal(check.status, 200)
      const offer = (await check.json()) as {
        version: string
        artifacts: Array<{ downloadUrl: string; sha256: string }>
      }
      assert.equal(offer.version, '2.0.0')
      const url = offer.artifacts[0]?.downloadUrl ?? ''
      const dl = await fetch(url)
      assert.equal(dl.status, 200)
      assert.equal(dl.headers.get('cache-control'), 'public, max-age=31536000, immutable')
      assert.equal(dl.headers.get('etag'), `"${offer.artifacts[0]?.sha256}"`)
      assert.equal(dl.headers.get('content-length'), String(bytes.byteLength))
      assert.match(dl.headers.get('content-disposition') ?? '', /filename="Cloud-2\.0\.0\.exe"/)
      assert.deepEqual(new Uint8Array(await dl.arrayBuffer()), bytes)

      const notModified = await fetch(url, { headers: { 'if-none-match': `W/"x", "${offer.artifacts[0]?.sha256}"` } })
      assert.equal(notModified.headers.get('etag'), `"${offer.artifacts[0]?.sha256}"`)
      await expectSpec('downloadArtifact', notModified, 304)
      const changed = await fetch(url, { headers: { 'if-none-match': '"another-hash"' } })
      assert.equal(changed.status, 200)
      await changed.body?.cancel()

      for (const [range, start, end] of [
        ['bytes=-5', bytes.byteLength - 5, bytes.byteLength - 1],
        ['bytes=3-7', 3, 7],
        [`bytes=${10 * MiB}-`, 10 * MiB, bytes.byteLength - 1],
      ] as const) {
        const part = await fetch(url, { headers: { range } })
        assert.equal(part.status, 206, range)
        assert.equal(part.headers.get('content-range'), `bytes ${start}-${end}/${bytes.byteLength}`, range)
        assert.deepEqual(new Uint8Array(await part.arrayBuffer()), bytes.subarray(start, end + 1), range)
      }

      const draft = await uploadOk(f, token, 'cloud-app', '3.0.0', [['Cloud-3.0.0.exe', payload(100)]], {
        published: 'false',
      })
      const draftDl = await f(new URL(draft.artifacts[0]?.downloadUrl ?? '').pathname, bearer(token))
      assert.equal(draftDl.status, 200)
      assert.equal(draftDl.headers.get('cache-control'), 'private, no-store')
      assert.deepEqual(new Uint8Array(await draftDl.arrayBuffer()), payload(100))
      assert.equal(
        (await f(new URL(draft.artifacts[0]?.downloadUrl ?? '').pathname)).status,
        401,
        'drafts still need credentials',
      )

      const del = await f(`/v1/apps/cloud-app/versions/${v.id}`, bearer(token, { method: 'DELETE' }))
      assert.equal(del.status, 204)
      assert.deepEqual(await s3.objects(location), [draft.artifacts[0]?.id], 'deleting the version deletes its object')
    } finally {
      await server.stop()
    }
  },
)

test(
  'redirect mode: 302 to a presigned URL that serves the bytes; a tampered one is refused',
  { timeout: 30_000 },
  async () => {
    const server = await startTestServer(8 * MiB, { blobs: s3.location('redirect'), downloadMode: 'redirect' })
    try {
      const f = httpFetch(server.url)
      const token = await prepareUploadTeam(f, 'direct-app')
      const bytes = payload(300_000)
      const v = await uploadOk(f, token, 'direct-app', '1.0.0', [['Direct Setup 1.0.0.exe', bytes]])
      const path = new URL(v.artifacts[0]?.downloadUrl ?? '').pathname
      const res = await f(path)
      assert.equal(res.headers.get('cache-control'), 'no-store')
      const location = res.headers.get('location') ?? ''
      await expectSpec('downloadArtifact', res, 302)
      assert.ok(location.startsWith(s3.endpoint ?? 'https://'), location)

      const direct = await fetch(location)
      assert.equal(direct.status, 200)
      assert.equal(direct.headers.get('cache-control'), 'public, max-age=31536000, immutable')
      assert.match(direct.headers.get('content-disposition') ?? '', /filename="Direct Setup 1\.0\.0\.exe"/)
      assert.deepEqual(new Uint8Array(await direct.arrayBuffer()), bytes)
      const suffix = await fetch(location, { headers: { range: 'bytes=-10' } })
      assert.equal(suffix.status, 206)
      assert.deepEqual(new Uint8Array(await suffix.arrayBuffer()), bytes.subarray(bytes.byteLength - 10))

      const url = new URL(location)
      url.searchParams.set('response-content-disposition', 'attachment; filename="evil.exe"')
      assert.equal((await fetch(url)).status, 403, 'changing a signed parameter breaks the signature')
      const forged = new URL(location)
      const signature = forged.searchParams.get('X-Amz-Signature') ?? ''
      forged.searchParams.set('X-Amz-Signature', (signature[0] === '0' ? '1' : '0') + signature.slice(1))
      assert.equal((await fetch(forged)).status, 403, 'a changed signature is refused')

      const followed = await fetch(`${server.url}${path}`)
      assert.deepEqual(
        new Uint8Array(await followed.arrayBuffer()),
        bytes,
        'clients that follow redirects get the file',
      )
    } finally {
      await server.stop()
    }
  },
)

/** A port nothing listens on: the object store as an unreachable host looks to the SDK. */
async function closedEndpoint(): Promise<string> {
  const probe = createServer()
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done))
  const address = probe.address()
  await new Promise((done) => probe.close(done))
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 1}`
}

test(
  'object storage unreachable: 503 problems on download and upload, no version recorded, update checks still answer',
  { timeout: 60_000 },
  async () => {
    const location = s3.location('unreachable')
    const reachable = openS3Blobs(location)
    const unreachable = openS3Blobs({ ...location, endpoint: await closedEndpoint(), forcePathStyle: true })
    // The same app over two real stores: the bucket, then an endpoint where nothing answers.
    let current: S3BlobStore = reachable
    const switching: BlobStore = {
      open: (key) => current.open(key),
      put: (key, data) => current.put(key, data),
      get: (key, range) => current.get(key, range),
      size: (key) => current.size(key),
      delete: (key) => current.delete(key),
      list: () => current.list(),
      ping: () => current.ping(),
    }
    const db = await openNodeDb(':memory:')
    const logged: Array<{ msg: string | undefined; err: unknown }> = []
    const logger = {
      debug() {},
      info() {},
      warn() {},
      error: (obj: object, msg?: string) => logged.push({ msg, err: Reflect.get(obj, 'err') }),
    }
    const app = createApp({
      db,
      blobs: switching,
      logger,
      config: {
        signupKey: SIGNUP_KEY,
        allowedHosts: ['ferry.test'],
        jwtSecret: JWT_SECRET,
        maxUploadBytes: 16 * MiB,
        passwordIterations: TEST_ITERATIONS,
      },
    })
    const f: Fetch = async (path, init) => app.request(`http://ferry.test${path}`, init)
    try {
      const token = await prepareUploadTeam(f, 'outage-app')
      const v = await uploadOk(f, token, 'outage-app', '2.0.0', [['Outage-2.0.0.exe', payload(1000)]])
      const path = new URL(v.artifacts[0]?.downloadUrl ?? '').pathname
      const versions = async () =>
        (
          (await (await f('/v1/apps/outage-app/versions', bearer(token))).json()) as {
            items: Array<{ version: string }>
          }
        ).items.map((i) => i.version)

      current = unreachable
      const dl = await f(path)
      await expectSpec('downloadArtifact', dl.clone(), 503)
      assert.equal(
        dl.headers.get('retry-after'),
        '5',
        'an object-storage outage says when to retry, as a database outage does',
      )
      assert.match(
        (await expectProblem(dl, 503, 'unavailable')).detail,
        /artifact storage cannot be reached; retry shortly/,
      )
      // The log keeps what the store met: the refused connection, not only "unavailable".
      const causes = logged
        .filter((l) => l.msg === 'dependency unavailable')
        .map((l) => (l.err instanceof Error ? l.err.cause : undefined))
      assert.ok(
        causes.length > 0 && causes.every((c) => c instanceof Error),
        `logged: ${JSON.stringify(logged.map((l) => l.msg))}`,
      )
      // One PutObject at commit, and a multipart upload from the first part.
      for (const size of [1000, DEFAULT_PART_BYTES + MiB]) {
        const up = await f(
          '/v1/apps/outage-app/versions',
          bearer(token, {
            method: 'POST',
            body: uploadForm({ ...FIELDS, version: '3.0.0' }, [['Outage-3.0.0.exe', payload(size)]]),
          }),
        )
        await expectSpec('uploadVersion', up.clone(), 503)
        assert.equal(up.headers.get('retry-after'), '5')
        await expectProblem(up, 503, 'unavailable')
      }
      assert.deepEqual(await versions(), ['2.0.0'], 'no version row for the refused uploads')
      const health = (await (await f('/v1/health')).json()) as {
        status: string
        checks: { storage: { status: string } }
      }
      assert.deepEqual([health.status, health.checks.storage.status], ['degraded', 'failing'])
      const check = await f('/v1/apps/outage-app/update?version=1.0.0&platform=windows&arch=x64')
      assert.equal(check.status, 200, 'update checks read only the database')
      assert.equal(((await check.json()) as { version: string }).version, '2.0.0')

      current = reachable
      assert.deepEqual(
        new Uint8Array(await (await f(path)).arrayBuffer()),
        payload(1000),
        'downloads work again once the store is back',
      )
      assert.deepEqual(await s3.objects(location), [v.artifacts[0]?.id], 'nothing else reached the bucket')
    } finally {
      reachable.close()
      unreachable.close()
      await db.destroy()
    }
  },
)

test(
  'the store going away mid-upload: 503, no version; the next start aborts the multipart upload left behind',
  { timeout: 60_000 },
  async () => {
    // A TCP relay can cut connections only to a plain-HTTP endpoint (radosgw, or a local MinIO).
    const endpoint = s3.endpoint ?? ''
    assert.ok(
      endpoint.startsWith('http://'),
      `this test relays plain HTTP; FERRY_TEST_S3_ENDPOINT is ${s3.endpoint ?? 'unset (AWS S3)'}`,
    )
    const proxy = await outageProxy(new URL(endpoint))
    const location: S3Location = { ...s3.location('cut'), endpoint: proxy.endpoint, forcePathStyle: true }
    const server = await startTestServer(32 * MiB, { blobs: location })
    try {
      const f = httpFetch(server.url)
      const token = await prepareUploadTeam(f, 'cut-app')
      const v = await uploadOk(f, token, 'cut-app', '1.0.0', [['Cut-1.0.0.exe', payload(1000)]])
      const path = new URL(v.artifacts[0]?.downloadUrl ?? '').pathname
      const versions = async () =>
        (
          (await (await f('/v1/apps/cut-app/versions', bearer(token))).json()) as { items: Array<{ version: string }> }
        ).items.map((i) => i.version)

      // The body stops after a full part has gone to the store; the store then goes away, so the
      // writer can neither finish nor abort its multipart upload.
      let release: () => void = () => undefined
      const released = new Promise<void>((r) => {
        release = r
      })
      const form = new Response(
        uploadForm({ ...FIELDS, version: '2.0.0' }, [['Cut-2.0.0.exe', payload(DEFAULT_PART_BYTES + 2 * MiB)]]),
      )
      const encoded = new Uint8Array(await form.arrayBuffer())
      let sent = 0
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent >= DEFAULT_PART_BYTES + MiB) await released
          if (sent >= encoded.byteLength) return controller.close()
          const chunk = encoded.subarray(sent, sent + 256 * 1024)
          sent += chunk.byteLength
          controller.enqueue(chunk)
        },
      })
      const pending = fetch(`${server.url}/v1/apps/cut-app/versions`, {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { authorization: `Bearer ${token}`, 'content-type': form.headers.get('content-type') ?? '' },
      } as RequestInit)
      while ((await s3.uploads(location)).length === 0) await new Promise((r) => setTimeout(r, 50))
      await proxy.down()
      release()
      await expectProblem(await pending, 503, 'unavailable')
      assert.deepEqual(await versions(), ['1.0.0'])
      await proxy.up()
      assert.equal((await s3.uploads(location)).length, 1, 'the multipart upload the writer could not abort')

      // The next start on the same database aborts multipart uploads older than the orphan age
      // (0 here) and keeps every blob an artifact points at.
      await server.close()
      const restarted = await startLocalServer(
        testServerConfig(server.dataDir, {
          databaseUrl: server.databaseUrl,
          blobs: location,
          orphanMinAgeSeconds: 0,
        }),
        TEST_ITERATIONS,
      )
      try {
        assert.deepEqual(await s3.uploads(location), [])
        assert.deepEqual(await s3.objects(location), [v.artifacts[0]?.id])
        assert.deepEqual(new Uint8Array(await (await fetch(`${restarted.url}${path}`)).arrayBuffer()), payload(1000))
      } finally {
        await restarted.close()
      }
    } finally {
      await server.stop()
      await proxy.close()
    }
  },
)

test('start-up fails with a clear message when the bucket cannot be used', { timeout: 30_000 }, async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'ferry-s3-start-'))
  const start = (blobs: S3Location) => startLocalServer(testServerConfig(dataDir, { blobs }), TEST_ITERATIONS)
  const refused = (pattern: RegExp) => (err: unknown) => {
    assert.ok(err instanceof BlobStoreStartupError, String(err))
    assert.match(err.message, /^FERRY_BLOB_URL: cannot use s3:\/\/[a-z0-9.-]+\/\S*startup\/ at \S+: /)
    assert.match(err.message, pattern)
    return true
  }
  try {
    const good = s3.location('startup')
    const wrongSecret = {
      accessKeyId: good.credentials?.accessKeyId ?? 'AKIAFERRYTESTWRONGKEY',
      secretAccessKey: 'not-the-secret',
    }
    await assert.rejects(
      start({ ...good, credentials: wrongSecret }),
      refused(/the credentials were refused \(check FERRY_S3_ACCESS_KEY_ID and FERRY_S3_SECRET_ACCESS_KEY\)/),
    )
    await assert.rejects(
      start({ ...good, bucket: `ferry-no-such-bucket-${randomUUID().slice(0, 8)}` }),
      refused(/the bucket does not exist/),
    )
    await assert.rejects(
      start({ ...good, endpoint: await closedEndpoint(), forcePathStyle: true }),
      refused(/the endpoint could not be reached \(ECONNREFUSED\)/),
    )
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
})
