// backend-matrix: sqlite-only — the browser runtime's persisted SQLite (wasm); PostgreSQL does not run in a browser
/** The saved browser sandbox, run in Node with an in-memory state store instead of IndexedDB. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { DEMO_LOGIN, type SandboxState } from '../../server/runtime/browser.ts'
import { openPersistentSandbox, type StateStore } from '../../server/runtime/browser-persist.ts'

function memoryStore() {
  let state: SandboxState | undefined
  let saves = 0
  const store: StateStore = {
    load: async () => state,
    save: async (s) => {
      saves++
      state = structuredClone(s)
    },
    clear: async () => {
      state = undefined
    },
  }
  return { store, saves: () => saves, has: () => state !== undefined }
}

const base = 'http://sandbox.ferry.test'
const call = (sb: { fetch(r: Request): Promise<Response> }, path: string, init?: RequestInit) =>
  sb.fetch(new Request(base + path, init))
const json = (method: string, body: unknown, token?: string): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: JSON.stringify(body),
})

async function login(sb: { fetch(r: Request): Promise<Response> }) {
  const res = await call(sb, '/v1/auth/login', json('POST', DEMO_LOGIN))
  assert.equal(res.status, 200)
  return ((await res.json()) as { token: string }).token
}

async function uploadDraft(sb: { fetch(r: Request): Promise<Response> }, token: string) {
  const form = new FormData()
  for (const [k, v] of Object.entries({
    version: '9.0.0',
    channel: 'stable',
    platform: 'windows',
    arch: 'x64',
    published: 'false',
  }))
    form.set(k, v)
  form.append('files', new File(['new build bytes'], 'HarborNotes-Setup-9.0.0.exe'))
  const res = await call(sb, '/v1/apps/harbor-notes/versions', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  assert.equal(res.status, 201)
  return (await res.json()) as { id: string; artifacts: Array<{ id: string }> }
}

test('changes survive a restart from the saved state: versions, artifact bytes and tokens', async () => {
  const { store } = memoryStore()
  const first = await openPersistentSandbox({ store })
  assert.equal(first.restored, false)
  const token = await login(first)
  const version = await uploadDraft(first, token)
  await first.flushed()

  const second = await openPersistentSandbox({ store })
  assert.equal(second.restored, true)
  // The token from before the restart still works: the secrets were saved with the data.
  const listed = await call(second, '/v1/apps/harbor-notes/versions?published=false', {
    headers: { authorization: `Bearer ${token}` },
  })
  assert.equal(listed.status, 200)
  const items = ((await listed.json()) as { items: Array<{ version: string }> }).items
  assert.ok(items.some((v) => v.version === '9.0.0'))
  const dl = await call(
    second,
    `/v1/apps/harbor-notes/versions/${version.id}/artifacts/${version.artifacts[0]?.id}/download`,
    { headers: { authorization: `Bearer ${token}` } },
  )
  assert.equal(dl.status, 200)
  assert.equal(await dl.text(), 'new build bytes')
})

test('reads, logins and rejected requests do not save; accepted writes do', async () => {
  const mem = memoryStore()
  const sb = await openPersistentSandbox({ store: mem.store })
  const events: string[] = []
  sb.subscribe((e) => events.push(e.type))
  await call(sb, '/v1/health')
  const denied = await call(sb, '/v1/apps', json('POST', { slug: 'nope-app', name: 'Nope' }))
  assert.equal(denied.status, 401)
  const token = await login(sb)
  await sb.flushed()
  assert.equal(mem.saves(), 0)
  await call(sb, '/v1/apps', json('POST', { slug: 'new-app', name: 'New app' }, token))
  await sb.flushed()
  assert.ok(mem.saves() >= 1)
  assert.deepEqual(events.filter((e) => e === 'changed' || e === 'saved').slice(-2), ['changed', 'saved'])
})

test('reset returns to the seed and forgets the saved state', async () => {
  const mem = memoryStore()
  const sb = await openPersistentSandbox({ store: mem.store })
  const token = await login(sb)
  assert.equal(
    (await call(sb, '/v1/apps/harbor-notes', { method: 'DELETE', headers: { authorization: `Bearer ${token}` } }))
      .status,
    204,
  )
  await sb.flushed()
  assert.ok(mem.has())
  await sb.reset()
  assert.equal(mem.has(), false)
  const fresh = await login(sb)
  const apps = await call(sb, '/v1/apps', { headers: { authorization: `Bearer ${fresh}` } })
  assert.deepEqual(
    ((await apps.json()) as { items: Array<{ slug: string }> }).items.map((a) => a.slug),
    ['harbor-notes', 'lighthouse-admin', 'tidewatch'],
  )
})

test('a saved state that cannot be opened is replaced by the seed', async () => {
  const mem = memoryStore()
  await mem.store.save({
    database: new TextEncoder().encode('not an sqlite file at all, sorry'),
    blobs: [],
    signupKey: 'k'.repeat(32),
    jwtSecret: 's'.repeat(64),
  })
  const sb = await openPersistentSandbox({ store: mem.store })
  assert.equal(sb.restored, false)
  assert.equal(mem.has(), false)
  await login(sb)
})

test('a change is announced once, however many reads its listeners make', async () => {
  const mem = memoryStore()
  const sb = await openPersistentSandbox({ store: mem.store })
  const token = await login(sb)
  let changes = 0
  // Like the dashboard: every announcement makes the listener read the data again.
  sb.subscribe((e) => {
    if (e.type !== 'changed') return
    changes++
    if (changes < 50) void call(sb, '/v1/apps', { headers: { authorization: `Bearer ${token}` } })
  })
  await call(sb, '/v1/apps', json('POST', { slug: 'once-app', name: 'Once' }, token))
  await new Promise((resolve) => setTimeout(resolve, 200))
  await sb.flushed()
  assert.equal(changes, 1)
  assert.ok(mem.has())
})
