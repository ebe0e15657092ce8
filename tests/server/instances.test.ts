/**
 * Two Ferry processes on one PostgreSQL and one artifact folder behave as one server: requests
 * alternate between them with no balancer, writes land on one and reads on the other, and an
 * update answer cached by one is not served stale after the other's write.
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { bearer, httpFetch, jsonBody, signup, startTestServer, uploadForm, type Fetch, type TestServer } from './helpers.ts'
import { startPostgres, type TestPostgres } from './postgres-server.ts'

let pg: TestPostgres
let dataDir: string
const servers: TestServer[] = []
let nodes: Fetch[] = []
before(async () => {
  pg = await startPostgres()
  dataDir = await mkdtemp(join(tmpdir(), 'ferry-instances-'))
  const databaseUrl = await pg.createDatabase()
  for (let i = 0; i < 2; i++) servers.push(await startTestServer(1024 * 1024, { databaseUrl, dataDir }))
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

async function offered(f: Fetch): Promise<string | undefined> {
  const res = await f('/v1/apps/shared-app/update?version=1.0.0&platform=windows&arch=x64&format=ferry')
  if (res.status === 204) return undefined
  assert.equal(res.status, 200, await res.clone().text())
  return ((await res.json()) as { version: string }).version
}

test('requests alternate between two instances: a session, uploads and downloads work across them', async () => {
  const { token } = await signup(next, 'admin@instances.test')
  assert.equal((await next('/v1/whoami', bearer(token))).status, 200, 'a token issued by one instance is accepted by the other')
  for (const [path, name] of [['/v1/channels', 'stable'], ['/v1/platforms', 'windows'], ['/v1/archs', 'x64']] as const) {
    assert.equal((await next(path, jsonBody({ name }, token))).status, 201)
  }
  assert.equal((await next('/v1/apps', jsonBody({ slug: 'shared-app', name: 'Shared' }, token))).status, 201)
  const upload = await next('/v1/apps/shared-app/versions', bearer(token, { method: 'POST', body: uploadForm({ ...FIELDS, version: '1.1.0' }, [['app-1.1.0.exe', 'one-one-zero']]) }))
  assert.equal(upload.status, 201, await upload.clone().text())
  const { artifacts } = await upload.json() as { artifacts: Array<{ downloadUrl: string }> }
  for (const f of nodes) {
    const path = new URL(artifacts[0]!.downloadUrl).pathname
    const res = await f(path)
    assert.equal(await res.text(), 'one-one-zero', 'each instance serves the file the other stored')
  }

  // Both instances cache the answer "1.1.0"; a write on one must reach the other's cache.
  for (const f of nodes) assert.equal(await offered(f), '1.1.0')
  const [writer, reader] = nodes as [Fetch, Fetch]
  const newer = await writer('/v1/apps/shared-app/versions', bearer(token, { method: 'POST', body: uploadForm({ ...FIELDS, version: '1.2.0' }, [['app-1.2.0.exe', 'one-two-zero']]) }))
  assert.equal(newer.status, 201)
  assert.equal(await eventually(() => offered(reader), '1.2.0'), '1.2.0', 'the other instance stopped serving its cached 1.1.0')
  const { id } = await newer.json() as { id: string }
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
