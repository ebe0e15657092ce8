// backend-matrix: sqlite-only — the browser runtime's own SQLite (wasm) and memory blobs; PostgreSQL does not run in a browser
/** The browser runtime, run in Node: sql.js + memory blobs + demo seed answer like the real server. */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { after, before, test } from 'node:test'
import { DEMO_LOGIN, DEMO_USER, createSandbox } from '../../server/runtime/browser.ts'
import { expectSpec } from './helpers.ts'

let sandbox: Awaited<ReturnType<typeof createSandbox>>
before(async () => {
  sandbox = await createSandbox()
})
after(async () => sandbox.close())

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

test('the documented demo logins work', async () => {
  const admin = (await expectSpec('login', await sandbox.request('/v1/auth/login', json(DEMO_LOGIN)), 200)) as {
    user: { role: string }
    token: string
  }
  assert.equal(admin.user.role, 'admin')
  const user = (await expectSpec('login', await sandbox.request('/v1/auth/login', json(DEMO_USER)), 200)) as {
    user: { role: string }
  }
  assert.equal(user.user.role, 'user')
  const apps = (await expectSpec(
    'listApps',
    await sandbox.request('/v1/apps', { headers: { authorization: `Bearer ${admin.token}` } }),
    200,
  )) as { items: Array<{ slug: string; private: boolean }> }
  assert.deepEqual(
    apps.items.map((a) => [a.slug, a.private]),
    [
      ['harbor-notes', false],
      ['lighthouse-admin', true],
      ['tidewatch', false],
    ],
  )
})

test('update checks answer from the seed: intermediate, then critical, then up to date', async () => {
  const check = (v: string) =>
    sandbox.request(`/v1/apps/harbor-notes/update?version=${v}&platform=windows&arch=x64&format=ferry`)
  const first = (await expectSpec('checkForUpdate', await check('1.0.0'), 200)) as {
    version: string
    intermediate: boolean
  }
  assert.deepEqual([first.version, first.intermediate], ['1.1.0', true])
  const second = (await expectSpec('checkForUpdate', await check('1.1.0'), 200)) as {
    version: string
    critical: boolean
  }
  assert.deepEqual([second.version, second.critical], ['1.2.0', true])
  await expectSpec('checkForUpdate', await check('1.2.0'), 204)
})

test('the seed shows a ramp in progress and a version its health reports paused', async () => {
  const { token } = (await (await sandbox.request('/v1/auth/login', json(DEMO_LOGIN))).json()) as { token: string }
  const list = async (app: string) =>
    (
      (await expectSpec(
        'searchAppVersions',
        await sandbox.request(`/v1/apps/${app}/versions?limit=100`, { headers: { authorization: `Bearer ${token}` } }),
        200,
      )) as {
        items: Array<{
          version: string
          platform: string
          rolloutPercentage: number
          rollout: {
            ramp: { currentStep: number | null; nextStepAt: string | null } | null
            paused: { automatic: boolean; reason: string } | null
          }
        }>
      }
    ).items
  const ramped = (await list('harbor-notes')).find((v) => v.version === '1.2.1')
  assert.deepEqual(
    [ramped?.rolloutPercentage, ramped?.rollout.ramp?.currentStep, ramped?.rollout.ramp?.nextStepAt !== null],
    [5, 0, true],
  )
  const paused = (await list('tidewatch')).find((v) => v.version === '1.1.0')
  assert.equal(paused?.rollout.paused?.automatic, true)
  assert.match(paused?.rollout.paused?.reason ?? '', /3 of 5 devices failed/)
  // Devices on 1.0.0 are not offered the paused 1.1.0.
  await expectSpec('getTauriUpdate', await sandbox.request('/v1/apps/tidewatch/tauri/stable/darwin/aarch64/1.0.0'), 204)
})

test('the seed serves every protocol: Tauri with its signature, Squirrel.Mac with a zip, RELEASES with a delta', async () => {
  const tauri = (await expectSpec(
    'getTauriUpdate',
    await sandbox.request('/v1/apps/tidewatch/tauri/stable/darwin/aarch64/0.9.0'),
    200,
  )) as { version: string; signature: string }
  assert.equal(tauri.version, '1.0.0')
  assert.equal(atob(tauri.signature), 'untrusted comment: demo signature of Tidewatch.app.tar.gz')
  const mac = (await expectSpec(
    'getSquirrelMacUpdate',
    await sandbox.request('/v1/apps/harbor-notes/squirrel-mac/stable/universal?version=1.1.0'),
    200,
  )) as { url: string }
  const zip = await sandbox.fetch(new Request(mac.url))
  assert.equal(await zip.text(), 'demo artifact HarborNotes-1.2.0-universal-mac.zip\n')
  const releases = (await expectSpec(
    'getSquirrelReleases',
    await sandbox.request('/v1/apps/harbor-notes/squirrel/stable/x64/RELEASES'),
    200,
  )) as string
  assert.match(releases, / harbor-notes-1\.2\.0-delta\.nupkg \d+\n/)
})

test('the private app answers with a signed link that downloads through the sandbox', async () => {
  const res = await sandbox.request(
    '/v1/apps/lighthouse-admin/update?version=1.0.0&platform=windows&arch=x64&format=ferry',
  )
  const body = (await expectSpec('checkForUpdate', res, 200)) as { artifacts: Array<{ downloadUrl: string }> }
  const url = body.artifacts[0]?.downloadUrl ?? ''
  assert.match(url, /signature=[0-9a-f]{64}/)
  const dl = await sandbox.fetch(new Request(url))
  assert.equal(dl.status, 200)
  assert.equal(await dl.text(), 'demo artifact LighthouseAdmin-2.0.0.msi\n')
})

test('an upload through the sandbox streams into memory blobs with the same digests, and publishing offers it', async () => {
  const { token } = (await (await sandbox.request('/v1/auth/login', json(DEMO_LOGIN))).json()) as { token: string }
  const installer = new Uint8Array(300_000).map((_, i) => (i * 7) % 256)
  const form = new FormData()
  for (const [k, v] of Object.entries({
    version: '9.0.0',
    channel: 'stable',
    platform: 'windows',
    arch: 'x64',
    published: 'true',
  }))
    form.append(k, v)
  form.append('files', new Blob([installer]), 'HarborNotes-9.0.0.exe')
  const created = (await expectSpec(
    'uploadVersion',
    await sandbox.request('/v1/apps/harbor-notes/versions', {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    }),
    201,
  )) as { artifacts: Array<{ size: number; sha256: string }> }
  assert.equal(created.artifacts[0]?.size, installer.byteLength)
  assert.equal(created.artifacts[0]?.sha256, createHash('sha256').update(installer).digest('hex'))
  const offered = (await expectSpec(
    'checkForUpdate',
    await sandbox.request('/v1/apps/harbor-notes/update?version=8.0.0&platform=windows&arch=x64&format=ferry'),
    200,
  )) as { version: string }
  assert.equal(offered.version, '9.0.0')
})

test('server code outside the Node edges imports nothing from node: or Node-only packages', async () => {
  const root = join(import.meta.dirname, '..', '..', 'server')
  const nodeOnly = new Set([
    'runtime/node.ts',
    'storage/blobs/blobs-fs.ts',
    'storage/blobs/blobs-s3.ts',
    'auth/login-limiter-stores.ts',
  ])
  const files: string[] = []
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path)
      else if (entry.name.endsWith('.ts')) files.push(relative(root, path))
    }
  }
  await walk(root)
  assert.ok(files.includes('app.ts') && files.includes('runtime/browser.ts'))
  const offenders: string[] = []
  // `*-node.ts` files are Node edges by name.
  for (const file of files.filter((f) => !nodeOnly.has(f) && !f.endsWith('-node.ts'))) {
    // Type-only imports load nothing (login-limiter-flexible.ts takes rate-limiter-flexible's types).
    const text = (await readFile(join(root, file), 'utf8')).replace(/^import type .*$/gm, '')
    for (const m of text.matchAll(/from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)) {
      const spec = m[1] ?? m[2] ?? ''
      if (
        spec.startsWith('node:') ||
        spec.startsWith('@aws-sdk/') ||
        ['better-sqlite3', 'pino', '@hono/node-server', 'fs', 'path', 'redis', 'rate-limiter-flexible'].includes(
          spec,
        ) ||
        spec.endsWith('-node.ts') ||
        spec.endsWith('blobs-s3.ts') ||
        spec.endsWith('blobs-fs.ts') ||
        spec.endsWith('runtime/node.ts') ||
        spec.endsWith('login-limiter-stores.ts')
      ) {
        offenders.push(`${file}: ${spec}`)
      }
    }
  }
  assert.deepEqual(offenders, [])
})
