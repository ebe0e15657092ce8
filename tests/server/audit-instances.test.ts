/**
 * Two Ferry processes on one PostgreSQL take parallel writes (creates, racing edits of the same
 * apps, duplicate creates that one of them must refuse): the audit log holds exactly one entry
 * per successful write, none for the refused ones, whichever instance served it.
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { bearer, httpFetch, jsonBody, signup, testBlobLocation, type Fetch } from './helpers.ts'
import { startPostgres, type TestPostgres } from '../../services/postgres-server.ts'
import { startServerProcess, type ServerProcess } from './server-process.ts'

let pg: TestPostgres
let dataDir: string
const servers: ServerProcess[] = []
let nodes: Fetch[] = []
before(async () => {
  pg = await startPostgres()
  dataDir = await mkdtemp(join(tmpdir(), 'ferry-audit-instances-'))
  const databaseUrl = await pg.createDatabase()
  const blobs = testBlobLocation()
  for (let i = 0; i < 2; i++) servers.push(await startServerProcess({ databaseUrl, dataDir, blobs }))
  nodes = servers.map((s) => httpFetch(s.url))
})
after(async () => {
  await Promise.all(servers.map((s) => s.stop()))
  await rm(dataDir, { recursive: true, force: true })
  await pg.stop()
})

const patch = (body: unknown, token: string): RequestInit => ({ ...jsonBody(body, token), method: 'PATCH' })

test('parallel writes on two instances: one audit entry per successful write, none for refused ones', async () => {
  const [a, b] = nodes as [Fetch, Fetch]
  const { token } = await signup(a, 'admin@audit-instances.test')
  const writes: Array<Promise<Response>> = []
  for (let i = 0; i < 40; i++) {
    const node = i % 2 === 0 ? a : b
    // Each slug is created on both instances at once: exactly one of each pair succeeds.
    writes.push(a('/v1/apps', jsonBody({ slug: `app-${i % 20}`, name: `App ${i}` }, token)))
    writes.push(b('/v1/apps', jsonBody({ slug: `app-${i % 20}`, name: `App ${i}` }, token)))
    writes.push(node('/v1/channels', jsonBody({ name: `ch-${i}` }, token)))
  }
  const first = await Promise.all(writes)
  // Edits of the same apps race on both instances.
  const edits = await Promise.all(
    Array.from({ length: 60 }, (_, i) =>
      (i % 2 ? a : b)(`/v1/apps/app-${i % 20}`, patch({ description: `edit ${i}` }, token)),
    ),
  )
  const responses = [...first, ...edits]
  const ok = responses.filter((r) => r.status < 300).length
  const refused = responses.filter((r) => r.status === 409).length
  assert.equal(
    ok + refused,
    responses.length,
    `every write either succeeded or was refused as a duplicate: ${responses.map((r) => r.status).join(',')}`,
  )
  assert.equal(
    responses.filter((r) => r.status === 201 && r.url.endsWith('/v1/apps')).length,
    20,
    'one create per slug succeeded',
  )
  assert.ok(refused >= 60, 'the duplicate creates were refused')

  let listed = 0
  let cursor: string | null = null
  do {
    const res = await (listed % 2 ? b : a)(`/v1/audit?limit=100${cursor ? `&cursor=${cursor}` : ''}`, bearer(token))
    assert.equal(res.status, 200)
    const body = (await res.json()) as { items: unknown[]; nextCursor: string | null }
    listed += body.items.length
    cursor = body.nextCursor
  } while (cursor)
  assert.equal(listed, ok + 1, `${ok} successful writes and the signup, ${listed} entries`)
})
