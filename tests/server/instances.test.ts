/**
 * Two Ferry processes (each `server/runtime/node.ts`, the `npm run server` entry, configured by
 * FERRY_* variables) on one PostgreSQL and one artifact store (a shared folder, or under
 * `npm run test:unit:pg` a bucket) behave as one server: requests alternate between them with no
 * balancer, writes land on one and reads on the other, an update answer cached by one is not
 * served stale after the other's write, and one killed mid-upload costs the other nothing.
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import {
  bearer,
  halfThenWait,
  httpFetch,
  jsonBody,
  killHard,
  openTestBlobs,
  prepareUploadTeam,
  signup,
  testBlobLocation,
  uploadForm,
  type Fetch,
} from './helpers.ts'
import { startPostgres, type TestPostgres } from '../../services/postgres-server.ts'
import { startServerProcess, type ServerProcess } from './server-process.ts'

let pg: TestPostgres
let dataDir: string
const servers: ServerProcess[] = []
let nodes: Fetch[] = []
before(async () => {
  pg = await startPostgres()
  dataDir = await mkdtemp(join(tmpdir(), 'ferry-instances-'))
  const databaseUrl = await pg.createDatabase()
  // One database and one blob store (a folder both can reach, or a bucket prefix) for both.
  const blobs = testBlobLocation()
  for (let i = 0; i < 2; i++) servers.push(await startServerProcess({ databaseUrl, dataDir, blobs }))
  nodes = servers.map((s) => httpFetch(s.url))
})
after(async () => {
  await Promise.all(servers.map((s) => s.stop()))
  await rm(dataDir, { recursive: true, force: true })
  await pg.stop()
})

/** Round-robin over the instances, like a balancer without affinity. */
let turn = 0
const next: Fetch = (path, init) => nodes[turn++ % nodes.length]!(path, init)
const patch = (body: unknown, token: string): RequestInit => ({ ...jsonBody(body, token), method: 'PATCH' })
const FIELDS = { channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }

async function offered(f: Fetch, app = 'shared-app', current = '1.0.0'): Promise<string | undefined> {
  const res = await f(`/v1/apps/${app}/update?version=${current}&platform=windows&arch=x64&format=ferry`)
  if (res.status === 204) return undefined
  assert.equal(res.status, 200, await res.clone().text())
  return ((await res.json()) as { version: string }).version
}

test('requests alternate between two instances: a session, uploads and downloads work across them', async () => {
  const { token } = await signup(next, 'admin@instances.test')
  assert.equal(
    (await next('/v1/whoami', bearer(token))).status,
    200,
    'a token issued by one instance is accepted by the other',
  )
  for (const [path, name] of [
    ['/v1/channels', 'stable'],
    ['/v1/platforms', 'windows'],
    ['/v1/archs', 'x64'],
  ] as const) {
    assert.equal((await next(path, jsonBody({ name }, token))).status, 201)
  }
  assert.equal((await next('/v1/apps', jsonBody({ slug: 'shared-app', name: 'Shared' }, token))).status, 201)
  const upload = await next(
    '/v1/apps/shared-app/versions',
    bearer(token, {
      method: 'POST',
      body: uploadForm({ ...FIELDS, version: '1.1.0' }, [['app-1.1.0.exe', 'one-one-zero']]),
    }),
  )
  assert.equal(upload.status, 201, await upload.clone().text())
  const { artifacts } = (await upload.json()) as { artifacts: Array<{ downloadUrl: string }> }
  for (const f of nodes) {
    const path = new URL(artifacts[0]!.downloadUrl).pathname
    const res = await f(path)
    assert.equal(await res.text(), 'one-one-zero', 'each instance serves the file the other stored')
  }

  // Both instances cache the answer "1.1.0"; a write on one must reach the other's cache.
  for (const f of nodes) assert.equal(await offered(f), '1.1.0')
  const [writer, reader] = nodes as [Fetch, Fetch]
  const newer = await writer(
    '/v1/apps/shared-app/versions',
    bearer(token, {
      method: 'POST',
      body: uploadForm({ ...FIELDS, version: '1.2.0' }, [['app-1.2.0.exe', 'one-two-zero']]),
    }),
  )
  assert.equal(newer.status, 201)
  assert.equal(
    await eventually(() => offered(reader), '1.2.0'),
    '1.2.0',
    'the other instance stopped serving its cached 1.1.0',
  )
  const { id } = (await newer.json()) as { id: string }
  assert.equal((await writer(`/v1/apps/shared-app/versions/${id}`, patch({ published: false }, token))).status, 200)
  assert.equal(await eventually(() => offered(reader), '1.1.0'), '1.1.0', 'an unpublish reaches the other instance too')
})

/** The value once `read` returns `want`, or its last value after a second: invalidations travel over the network. */
async function eventually<T>(read: () => Promise<T>, want: T): Promise<T> {
  let value = await read()
  for (let i = 0; i < 20 && value !== want; i++) {
    await new Promise((r) => setTimeout(r, 50))
    value = await read()
  }
  return value
}

test(
  'kill -9 of one instance mid-upload: the other keeps serving, its own upload survives the restart, nothing half-recorded',
  { timeout: 90_000 },
  async () => {
    const databaseUrl = await pg.createDatabase()
    const dir = await mkdtemp(join(tmpdir(), 'ferry-instances-kill-'))
    const blobs = testBlobLocation()
    const MiB = 1024 * 1024
    let a = await startServerProcess({ dataDir: dir, databaseUrl, blobs })
    const b = await startServerProcess({ dataDir: dir, databaseUrl, blobs })
    try {
      const fb = httpFetch(b.url)
      const token = await prepareUploadTeam(fb, 'crash-app')
      const upload = (f: Fetch, version: string, bytes: Uint8Array) =>
        f(
          '/v1/apps/crash-app/versions',
          bearer(token, { method: 'POST', body: uploadForm({ ...FIELDS, version }, [[`app-${version}.exe`, bytes]]) }),
        )
      const first = await upload(httpFetch(a.url), '1.0.0', new Uint8Array(1000).fill(1))
      assert.equal(first.status, 201, await first.clone().text())

      // Two uploads caught half-way, larger than one multipart part: one on each instance.
      let releaseB: () => void = () => undefined
      const dying = await halfThenWait(
        uploadForm({ ...FIELDS, version: '2.0.0' }, [['app-2.0.0.exe', new Uint8Array(20 * MiB).fill(2)]]),
        new Promise(() => undefined),
      )
      const living = await halfThenWait(
        uploadForm({ ...FIELDS, version: '1.1.0' }, [['app-1.1.0.exe', new Uint8Array(20 * MiB).fill(3)]]),
        new Promise<void>((r) => {
          releaseB = r
        }),
      )
      const dyingRes = fetch(`${a.url}/v1/apps/crash-app/versions`, dying.init(token)).catch((error: unknown) => error)
      const livingRes = fetch(`${b.url}/v1/apps/crash-app/versions`, living.init(token))
      await Promise.all([dying.halfSent(), living.halfSent()])

      await killHard(a.child)
      assert.ok((await dyingRes) instanceof Error, 'the client of the killed instance saw its connection drop')
      assert.equal(await offered(fb, 'crash-app', '0.9.0'), '1.0.0', 'the other instance answers update checks')
      const download = await fb(
        new URL(((await first.json()) as { artifacts: Array<{ downloadUrl: string }> }).artifacts[0]?.downloadUrl ?? '')
          .pathname,
      )
      assert.equal((await download.arrayBuffer()).byteLength, 1000, 'and serves downloads')

      // The restarted instance sweeps what dead uploads left, but not the other's upload in flight.
      a = await startServerProcess({ dataDir: dir, databaseUrl, blobs })
      releaseB()
      const kept = await livingRes
      assert.equal(kept.status, 201, await kept.clone().text())
      const fa = httpFetch(a.url)
      const listed = (await (await fa('/v1/apps/crash-app/versions', bearer(token))).json()) as {
        items: Array<{ version: string; artifacts: Array<{ id: string; size: number; downloadUrl: string }> }>
      }
      assert.deepEqual(
        listed.items.map((v) => v.version).sort(),
        ['1.0.0', '1.1.0'],
        'the killed upload left no version',
      )
      const newer = listed.items.find((v) => v.version === '1.1.0')?.artifacts[0]
      const bytes = new Uint8Array(await (await fa(new URL(newer?.downloadUrl ?? '').pathname)).arrayBuffer())
      assert.equal(bytes.byteLength, 20 * MiB)
      assert.ok(
        bytes.every((x) => x === 3),
        'the upload that outlived the restart is intact',
      )
      const store = await openTestBlobs(blobs, join(dir, 'blobs'))
      const recorded = listed.items.flatMap((v) => v.artifacts.map((x) => x.id)).sort()
      assert.deepEqual(
        (await store.list()).map((x) => x.key),
        recorded,
        'every blob has its artifact row and every row its blob',
      )
    } finally {
      await Promise.all([killHard(a.child), killHard(b.child)])
      await rm(dir, { recursive: true, force: true })
    }
  },
)
