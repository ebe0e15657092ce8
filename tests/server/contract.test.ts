/**
 * Contract test: the real Node server on an ephemeral port, every operation of the spec called
 * over HTTP, every response checked against the status codes and schemas the spec lists.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { operations } from '../../server/http/spec.ts'
import { startReceiver, verify } from './webhooks/receiver.ts'
import { rolloutBucket } from '../../server/updates/update-logic.ts'
import {
  PASSWORD,
  SIGNUP_KEY,
  bearer,
  blobKeys,
  checked,
  expectSpec,
  httpFetch,
  jsonBody,
  signup,
  startTestServer,
  uploadForm,
  type Fetch,
  type TestServer,
} from './helpers.ts'
import { buildDeb, buildRpm } from './linux-package-fixtures.ts'
import { prepareUploadTeam } from './helpers.ts'
import { newKey, onlineKeyOf, postTuf, uploadArtifact } from './tuf-fixtures.ts'
import { buildRoot, expiresInDays, nextTargets, signWith } from '../../lib/ferry-cli/tuf-metadata.ts'
import { gunzipSync } from 'node:zlib'

let server: TestServer
let f: Fetch
let token: string
const ids: Record<string, string> = {}
const exe = new Uint8Array(3000).map((_, i) => i % 251)
const nupkg = new TextEncoder().encode('nupkg bytes for squirrel')

before(async () => {
  // Webhooks may reach the test's receiver on 127.0.0.1.
  server = await startTestServer(undefined, { webhookAllowPrivate: true })
  f = httpFetch(server.url)
})
after(async () => server.stop())

const patch = (body: unknown, t = token): RequestInit => ({ ...jsonBody(body, t), method: 'PATCH' })
const del = (t = token): RequestInit => bearer(t, { method: 'DELETE' })
const get = (t = token): RequestInit => bearer(t)

test('health reports database and storage', async () => {
  const body = (await expectSpec('getHealth', await f('/v1/health'), 200)) as {
    status: string
    checks: { database: { status: string } }
  }
  assert.equal(body.status, 'ok')
  assert.equal(body.checks.database.status, 'ok')
})

test('signup, login, whoami', async () => {
  const body = { teamName: 'Acme', name: 'Ada', email: 'ada@acme.test', password: PASSWORD }
  const session = (await expectSpec(
    'signup',
    await f('/v1/auth/signup', jsonBody(body, undefined, { 'x-ferry-signup-key': SIGNUP_KEY })),
    201,
  )) as { token: string; user: { role: string } }
  assert.equal(session.user.role, 'admin')
  token = session.token
  await expectSpec(
    'signup',
    await f('/v1/auth/signup', jsonBody(body, undefined, { 'x-ferry-signup-key': SIGNUP_KEY })),
    409,
  )
  await expectSpec(
    'signup',
    await f('/v1/auth/signup', jsonBody(body, undefined, { 'x-ferry-signup-key': 'wrong' })),
    401,
  )
  await expectSpec(
    'signup',
    await f(
      '/v1/auth/signup',
      jsonBody({ ...body, password: 'short' }, undefined, { 'x-ferry-signup-key': SIGNUP_KEY }),
    ),
    400,
  )

  const login = (await expectSpec(
    'login',
    await f('/v1/auth/login', jsonBody({ email: 'ADA@acme.test', password: PASSWORD })),
    200,
  )) as { token: string }
  assert.ok(login.token)
  await expectSpec(
    'login',
    await f('/v1/auth/login', jsonBody({ email: 'ada@acme.test', password: 'not-the-password' })),
    401,
  )
  await expectSpec('login', await f('/v1/auth/login', jsonBody({ email: 'not-an-email' })), 400)

  const me = (await expectSpec('whoami', await f('/v1/whoami', get()), 200)) as {
    user: { email: string }
    team: { name: string }
  }
  assert.equal(me.user.email, 'ada@acme.test')
  assert.equal(me.team.name, 'Acme')
  await expectSpec('whoami', await f('/v1/whoami'), 401)
  await expectSpec('whoami', await f('/v1/whoami', get('not.a.jwt')), 401)
})

test('catalogs: create, list with cursor, update, delete', async () => {
  for (const [path, op, bodies] of [
    ['/v1/channels', 'createChannel', [{ name: 'stable' }, { name: 'beta', description: 'Early' }, { name: 'tmp' }]],
    [
      '/v1/platforms',
      'createPlatform',
      [{ name: 'windows', updater: 'squirrel-windows' }, { name: 'darwin' }, { name: 'tmp' }],
    ],
    ['/v1/archs', 'createArch', [{ name: 'x64' }, { name: 'arm64' }, { name: 'tmp' }]],
  ] as const) {
    for (const body of bodies) {
      const created = (await expectSpec(op, await f(path, jsonBody(body, token)), 201)) as { id: string; name: string }
      ids[`${path}:${created.name}`] = created.id
    }
    await expectSpec(op, await f(path, jsonBody(bodies[0], token)), 409)
    await expectSpec(op, await f(path, jsonBody({ name: 'Bad Name!' }, token)), 400)
    await expectSpec(op, await f(path, jsonBody(bodies[0])), 401)
  }
  const listOps = {
    '/v1/channels': 'listChannels',
    '/v1/platforms': 'listPlatforms',
    '/v1/archs': 'listArchs',
  } as const
  for (const [path, op] of Object.entries(listOps)) {
    const names: string[] = []
    let cursor: string | null = null
    do {
      const res = await f(`${path}?limit=2${cursor ? `&cursor=${cursor}` : ''}`, get())
      const body = (await expectSpec(op as 'listChannels', res, 200)) as {
        items: Array<{ name: string }>
        nextCursor: string | null
      }
      names.push(...body.items.map((i) => i.name))
      cursor = body.nextCursor
    } while (cursor)
    assert.deepEqual(names, [...names].sort(), `${path} ordered by name`)
    assert.equal(names.length, 3)
    await expectSpec(op as 'listChannels', await f(`${path}?limit=101`, get()), 400)
    await expectSpec(op as 'listChannels', await f(`${path}?cursor=garbage`, get()), 400)
    await expectSpec(op as 'listChannels', await f(path), 401)
  }
  const beta = ids['/v1/channels:beta']
  const upd = (await expectSpec(
    'updateChannel',
    await f(`/v1/channels/${beta}`, patch({ description: 'Weekly' })),
    200,
  )) as { description: string }
  assert.equal(upd.description, 'Weekly')
  await expectSpec('updateChannel', await f(`/v1/channels/${beta}`, patch({ name: 'stable' })), 409)
  await expectSpec('updateChannel', await f('/v1/channels/ch_missing', patch({ name: 'x1' })), 404)
  await expectSpec('updateChannel', await f(`/v1/channels/${beta}`, patch({})), 400)
  const pl = (await expectSpec(
    'updatePlatform',
    await f(`/v1/platforms/${ids['/v1/platforms:darwin']}`, patch({ updater: 'electron-builtin' })),
    200,
  )) as { updater: string }
  assert.equal(pl.updater, 'electron-builtin')
  await expectSpec(
    'updatePlatform',
    await f(`/v1/platforms/${ids['/v1/platforms:darwin']}`, patch({ name: 'windows' })),
    409,
  )
  const ar = (await expectSpec(
    'updateArch',
    await f(`/v1/archs/${ids['/v1/archs:arm64']}`, patch({ name: 'aarch64' })),
    200,
  )) as { name: string }
  assert.equal(ar.name, 'aarch64')
  await expectSpec('updateArch', await f(`/v1/archs/${ids['/v1/archs:arm64']}`, patch({ name: 'x64' })), 409)
  for (const [path, op] of [
    ['/v1/channels', 'deleteChannel'],
    ['/v1/platforms', 'deletePlatform'],
    ['/v1/archs', 'deleteArch'],
  ] as const) {
    await expectSpec(op, await f(`${path}/${ids[`${path}:tmp`]}`, del()), 204)
    await expectSpec(op, await f(`${path}/${ids[`${path}:tmp`]}`, del()), 404)
  }
})

test('apps: create, list, update', async () => {
  const res = await f('/v1/apps', jsonBody({ slug: 'harbor-notes', name: 'Harbor Notes' }, token))
  assert.equal(res.headers.get('location'), '/v1/apps/harbor-notes')
  const app = (await expectSpec('createApp', res, 201)) as { private: boolean; description: string }
  assert.equal(app.private, false)
  assert.equal(app.description, '')
  await expectSpec(
    'createApp',
    await f('/v1/apps', jsonBody({ slug: 'lighthouse', name: 'Lighthouse', private: true }, token)),
    201,
  )
  await expectSpec('createApp', await f('/v1/apps', jsonBody({ slug: 'harbor-notes', name: 'Again' }, token)), 409)
  const bad = (await expectSpec(
    'createApp',
    await f('/v1/apps', jsonBody({ slug: 'Bad Slug', name: '' }, token)),
    400,
  )) as { errors: Array<{ pointer: string }> }
  assert.deepEqual(bad.errors.map((e) => e.pointer).sort(), ['/name', '/slug'])
  const list = (await expectSpec('listApps', await f('/v1/apps?limit=1', get()), 200)) as {
    items: Array<{ slug: string }>
    nextCursor: string
  }
  assert.equal(list.items[0]?.slug, 'harbor-notes')
  const next = (await expectSpec('listApps', await f(`/v1/apps?cursor=${list.nextCursor}`, get()), 200)) as {
    items: Array<{ slug: string }>
    nextCursor: null
  }
  assert.deepEqual(
    next.items.map((a) => a.slug),
    ['lighthouse'],
  )
  assert.equal(next.nextCursor, null)
  await expectSpec('listApps', await f('/v1/apps?limit=abc', get()), 400)
  const upd = (await expectSpec(
    'updateApp',
    await f('/v1/apps/harbor-notes', patch({ description: 'Notes.' })),
    200,
  )) as { description: string; name: string }
  assert.equal(upd.description, 'Notes.')
  assert.equal(upd.name, 'Harbor Notes')
  await expectSpec('updateApp', await f('/v1/apps/nope-app', patch({ name: 'X' })), 404)
  await expectSpec('updateApp', await f('/v1/apps/harbor-notes', patch({ private: 'yes' })), 400)
})

async function upload(
  slug: string,
  version: string,
  extra: Record<string, string> = {},
  files: Array<[string, Uint8Array]> = [
    [`Harbor-${version}.exe`, exe],
    [`harbor-${version}-full.nupkg`, nupkg],
  ],
) {
  const form = uploadForm(
    { version, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true', ...extra },
    files,
  )
  return f(`/v1/apps/${slug}/versions`, bearer(token, { method: 'POST', body: form }))
}

test('versions: upload, list, search, edit', async () => {
  const res = await upload('harbor-notes', '1.0.0', { changelog: 'First' })
  const v1 = (await expectSpec('uploadVersion', res, 201)) as {
    id: string
    artifacts: Array<{ id: string; sha256: string; size: number; packageType: string; downloadUrl: string }>
  }
  assert.equal(res.headers.get('location'), `/v1/apps/harbor-notes/versions/${v1.id}`)
  assert.equal(v1.artifacts[0]?.sha256, createHash('sha256').update(exe).digest('hex'))
  assert.equal(v1.artifacts[0]?.size, exe.byteLength)
  assert.deepEqual(
    v1.artifacts.map((a) => a.packageType),
    ['exe', 'nupkg'],
  )
  ids.v1 = v1.id
  ids.v1exe = v1.artifacts[0]?.id ?? ''
  ids.v1nupkg = v1.artifacts[1]?.id ?? ''
  const v11 = (await expectSpec(
    'uploadVersion',
    await upload('harbor-notes', '1.1.0', { intermediate: 'true' }),
    201,
  )) as { id: string }
  ids.v11 = v11.id
  const v2 = (await expectSpec(
    'uploadVersion',
    await upload('harbor-notes', '2.0.0', { critical: 'false', published: 'false' }),
    201,
  )) as { id: string; published: boolean; publishedAt: null }
  assert.equal(v2.published, false)
  assert.equal(v2.publishedAt, null)
  ids.v2 = v2.id
  await expectSpec('uploadVersion', await upload('harbor-notes', '1.0.0'), 409)
  await expectSpec('uploadVersion', await upload('harbor-notes', 'one'), 400)
  await expectSpec('uploadVersion', await upload('nope-app', '1.0.0'), 404)
  const priv = (await expectSpec(
    'uploadVersion',
    await upload('lighthouse', '3.0.0', { platform: 'darwin', arch: 'x64' }, [['Lighthouse-3.0.0.dmg', exe]]),
    201,
  )) as { id: string; artifacts: Array<{ downloadUrl: string }> }
  ids.priv = priv.id
  assert.match(priv.artifacts[0]?.downloadUrl ?? '', /\?expires=\d+&signature=[0-9a-f]{64}$/)

  const all = (await expectSpec('listVersions', await f('/v1/versions?limit=2', get()), 200)) as {
    items: Array<{ version: string }>
    nextCursor: string
  }
  assert.deepEqual(
    all.items.map((v) => v.version),
    ['3.0.0', '2.0.0'],
    'newest first',
  )
  const rest = (await expectSpec(
    'listVersions',
    await f(`/v1/versions?limit=10&cursor=${all.nextCursor}`, get()),
    200,
  )) as { items: Array<{ version: string }> }
  assert.deepEqual(
    rest.items.map((v) => v.version),
    ['1.1.0', '1.0.0'],
  )
  const filtered = (await expectSpec(
    'listVersions',
    await f('/v1/versions?app=harbor-notes&published=false', get()),
    200,
  )) as { items: Array<{ version: string }> }
  assert.deepEqual(
    filtered.items.map((v) => v.version),
    ['2.0.0'],
  )
  await expectSpec('listVersions', await f('/v1/versions?published=maybe', get()), 400)

  const search = (await expectSpec(
    'searchAppVersions',
    await f('/v1/apps/harbor-notes/versions?channel=stable&platform=windows&arch=x64&limit=2', get()),
    200,
  )) as { items: Array<{ version: string }>; nextCursor: string }
  assert.deepEqual(
    search.items.map((v) => v.version),
    ['2.0.0', '1.1.0'],
  )
  const page2 = (await expectSpec(
    'searchAppVersions',
    await f(`/v1/apps/harbor-notes/versions?limit=2&cursor=${search.nextCursor}`, get()),
    200,
  )) as { items: Array<{ version: string }>; nextCursor: null }
  assert.deepEqual(
    page2.items.map((v) => v.version),
    ['1.0.0'],
  )
  assert.equal(page2.nextCursor, null)
  const crit = (await expectSpec(
    'searchAppVersions',
    await f('/v1/apps/harbor-notes/versions?critical=true', get()),
    200,
  )) as { items: unknown[] }
  assert.equal(crit.items.length, 0)
  await expectSpec('searchAppVersions', await f('/v1/apps/nope-app/versions', get()), 404)

  const edited = (await expectSpec(
    'updateVersion',
    await f(
      `/v1/apps/harbor-notes/versions/${ids.v2}`,
      patch({ published: true, critical: true, rolloutPercentage: 100 }),
    ),
    200,
  )) as { published: boolean; publishedAt: string; critical: boolean }
  assert.equal(edited.published, true)
  assert.ok(edited.publishedAt)
  await expectSpec(
    'updateVersion',
    await f(`/v1/apps/harbor-notes/versions/${ids.v2}`, patch({ rolloutPercentage: 101 })),
    400,
  )
  await expectSpec(
    'updateVersion',
    await f('/v1/apps/harbor-notes/versions/ver_missing', patch({ critical: false })),
    404,
  )
})

test('update check, latest build, Squirrel feed', async () => {
  const q = (v: string, extra = '') =>
    `/v1/apps/harbor-notes/update?version=${v}&platform=windows&arch=x64&format=ferry${extra}`
  const step = (await expectSpec('checkForUpdate', await f(q('1.0.0')), 200)) as {
    version: string
    intermediate: boolean
    critical: boolean
  }
  assert.equal(step.version, '1.1.0', 'intermediate first')
  assert.equal(step.intermediate, true)
  const last = (await expectSpec('checkForUpdate', await f(q('1.1.0')), 200)) as { version: string; critical: boolean }
  assert.equal(last.version, '2.0.0')
  assert.equal(last.critical, true)
  await expectSpec('checkForUpdate', await f(q('2.0.0')), 204)
  await expectSpec('checkForUpdate', await f(q('1.0.0', '&channel=beta')), 204)
  await expectSpec('checkForUpdate', await f('/v1/apps/harbor-notes/update?version=1.0&platform=windows&arch=x64'), 400)
  await expectSpec('checkForUpdate', await f('/v1/apps/nope-app/update?version=1.0.0&platform=windows&arch=x64'), 404)

  const latest = await f('/v1/apps/harbor-notes/latest?packageType=exe&platform=windows&arch=x64')
  await expectSpec('getLatestBuild', latest.clone(), 302)
  assert.match(
    latest.headers.get('location') ?? '',
    new RegExp(`/v1/apps/harbor-notes/versions/${ids.v2}/artifacts/art_\\w+/download$`),
  )
  await expectSpec(
    'getLatestBuild',
    await f('/v1/apps/harbor-notes/latest?packageType=dmg&platform=windows&arch=x64'),
    404,
  )
  await expectSpec(
    'getLatestBuild',
    await f('/v1/apps/harbor-notes/latest?packageType=iso&platform=windows&arch=x64'),
    400,
  )

  const feed = (await expectSpec(
    'getSquirrelReleases',
    await f('/v1/apps/harbor-notes/squirrel/stable/x64/RELEASES'),
    200,
  )) as string
  const sha1 = createHash('sha1').update(nupkg).digest('hex').toUpperCase()
  assert.deepEqual(
    feed.trim().split('\n'),
    ['1.0.0', '1.1.0', '2.0.0'].map((v) => `${sha1} harbor-${v}-full.nupkg ${nupkg.byteLength}`),
  )
  await expectSpec('getSquirrelReleases', await f('/v1/apps/nope-app/squirrel/stable/x64/RELEASES'), 404)
  // Squirrel fetches packages relative to the feed: redirected to the download.
  const pkg = await f('/v1/apps/harbor-notes/squirrel/stable/x64/harbor-1.0.0-full.nupkg')
  await expectSpec('getSquirrelPackage', pkg.clone(), 302)
  const bytes = await fetch(pkg.headers.get('location') ?? '')
  assert.deepEqual(new Uint8Array(await bytes.arrayBuffer()), nupkg)
  await expectSpec('getSquirrelPackage', await f('/v1/apps/harbor-notes/squirrel/stable/x64/other.nupkg'), 404)
  await expectSpec('getSquirrelPackage', await f('/v1/apps/harbor-notes/squirrel/stable/x64/setup.exe'), 400)
})

test('updater protocols: Squirrel.Mac, electron-updater, Tauri, formats of the update check; telemetry', async () => {
  const files: Array<[string, Uint8Array]> = [
    ['Harbor-1.5.0-mac.zip', exe],
    ['Harbor.app.tar.gz', nupkg],
    ['Harbor.app.tar.gz.sig', new TextEncoder().encode('c2lnbmF0dXJl')],
  ]
  await expectSpec(
    'uploadVersion',
    await upload('harbor-notes', '1.5.0', { platform: 'darwin', arch: 'x64' }, files),
    201,
  )
  const device = { headers: { 'x-ferry-device-id': 'contract-device-0001' } }
  const mac = (await expectSpec(
    'getSquirrelMacUpdate',
    await f('/v1/apps/harbor-notes/squirrel-mac/stable/x64?version=1.0.0', device),
    200,
  )) as { name: string }
  assert.equal(mac.name, '1.5.0')
  await expectSpec('getSquirrelMacUpdate', await f('/v1/apps/harbor-notes/squirrel-mac/stable/x64?version=1.5.0'), 204)
  await expectSpec('getSquirrelMacUpdate', await f('/v1/apps/harbor-notes/squirrel-mac/stable/x64?version=one'), 400)
  await expectSpec('getSquirrelMacUpdate', await f('/v1/apps/nope-app/squirrel-mac/stable/x64?version=1.0.0'), 404)
  const yml = (await expectSpec(
    'getElectronUpdaterFeed',
    await f('/v1/apps/harbor-notes/electron-updater/stable/darwin/x64/1.0.0/latest-mac.yml'),
    200,
  )) as string
  assert.match(yml, /^version: '1\.5\.0'$/m)
  await expectSpec(
    'getElectronUpdaterFeed',
    await f('/v1/apps/harbor-notes/electron-updater/stable/darwin/x64/1.0/latest-mac.yml'),
    400,
  )
  await expectSpec(
    'getElectronUpdaterFeed',
    await f('/v1/apps/nope-app/electron-updater/stable/darwin/x64/1.0.0/latest-mac.yml'),
    404,
  )
  const tauri = (await expectSpec(
    'getTauriUpdate',
    await f('/v1/apps/harbor-notes/tauri/stable/darwin/x86_64/1.0.0'),
    200,
  )) as { signature: string }
  assert.equal(tauri.signature, 'c2lnbmF0dXJl')
  await expectSpec('getTauriUpdate', await f('/v1/apps/harbor-notes/tauri/stable/darwin/x86_64/1.5.0'), 204)
  await expectSpec('getTauriUpdate', await f('/v1/apps/harbor-notes/tauri/stable/darwin/sparc/1.0.0'), 400)
  await expectSpec('getTauriUpdate', await f('/v1/apps/nope-app/tauri/stable/darwin/x86_64/1.0.0'), 404)
  // The platform's updater is the default format; `format` overrides it.
  await expectSpec(
    'checkForUpdate',
    await f('/v1/apps/harbor-notes/update?version=1.0.0&platform=darwin&arch=x64'),
    200,
  )
  const asYaml = await f('/v1/apps/harbor-notes/update?version=1.0.0&platform=darwin&arch=x64&format=electron-updater')
  assert.equal(asYaml.headers.get('content-type'), 'application/x-yaml; charset=utf-8')
  await expectSpec('checkForUpdate', asYaml, 200)
  await expectSpec(
    'checkForUpdate',
    await f('/v1/apps/harbor-notes/update?version=1.0.0&platform=windows&arch=x64'),
    200,
  )
  await expectSpec(
    'checkForUpdate',
    await f('/v1/apps/harbor-notes/update?version=1.0.0&platform=windows&arch=x64&format=nuts'),
    400,
  )
  const asAppcast = await f('/v1/apps/harbor-notes/update?version=1.0.0&platform=darwin&arch=x64&format=sparkle')
  assert.equal(asAppcast.headers.get('content-type'), 'application/rss+xml; charset=utf-8')
  await expectSpec('checkForUpdate', asAppcast, 200)
  await expectSpec(
    'checkForUpdate',
    await f('/v1/apps/harbor-notes/update?version=1.0.0&platform=darwin&arch=x64&format=velopack'),
    200,
  )
  // Velopack: the feed needs localVersion; a package name that is not published is a 404.
  const velopack = (await expectSpec(
    'getVelopackFile',
    await f('/v1/apps/harbor-notes/velopack/stable/darwin/x64/releases.osx.json?localVersion=1.0.0&id=Harbor'),
    200,
  )) as { Assets: unknown[] }
  assert.deepEqual(velopack.Assets, [], 'no .nupkg in 1.5.0: nothing Velopack can install')
  await expectSpec(
    'getVelopackFile',
    await f('/v1/apps/harbor-notes/velopack/stable/darwin/x64/releases.osx.json'),
    400,
  )
  await expectSpec(
    'getVelopackFile',
    await f('/v1/apps/harbor-notes/velopack/stable/darwin/x64/releases.osx.json?localVersion=1.0'),
    400,
  )
  await expectSpec(
    'getVelopackFile',
    await f('/v1/apps/harbor-notes/velopack/stable/darwin/x64/Harbor-1.5.0-full.nupkg'),
    404,
  )
  await expectSpec(
    'getVelopackFile',
    await f('/v1/apps/nope-app/velopack/stable/darwin/x64/releases.osx.json?localVersion=1.0.0'),
    404,
  )
  // Sparkle
  const appcast = (await expectSpec(
    'getSparkleAppcast',
    await f('/v1/apps/harbor-notes/sparkle/stable/darwin/x64/appcast.xml?version=1.0.0'),
    200,
  )) as string
  assert.match(appcast, /<sparkle:version>1\.5\.0<\/sparkle:version>/)
  await expectSpec(
    'getSparkleAppcast',
    await f('/v1/apps/harbor-notes/sparkle/stable/darwin/x64/appcast.xml?version=one'),
    400,
  )
  await expectSpec(
    'getSparkleAppcast',
    await f('/v1/apps/nope-app/sparkle/stable/darwin/x64/appcast.xml?version=1.0.0'),
    404,
  )
  // electron-updater's files by version (blockmaps are files too)
  const zipUrl = '/v1/apps/harbor-notes/electron-updater/stable/darwin/x64/files/1.5.0/Harbor-1.5.0-mac.zip'
  assert.ok(yml.includes(zipUrl), `the channel file links to ${zipUrl}`)
  await expectSpec('getElectronUpdaterFile', await f(zipUrl), 200)
  await expectSpec('getElectronUpdaterFile', await f(zipUrl, { headers: { range: 'bytes=0-9' } }), 206)
  await expectSpec('getElectronUpdaterFile', await f(`${zipUrl}.blockmap`), 404)
  await expectSpec(
    'getElectronUpdaterFile',
    await f('/v1/apps/harbor-notes/electron-updater/stable/darwin/x64/files/1.0/Harbor-1.5.0-mac.zip'),
    400,
  )

  const today = new Date().toISOString().slice(0, 10)
  const report = (await expectSpec('getTelemetry', await f(`/v1/telemetry?from=${today}&to=${today}`, get()), 200)) as {
    items: Array<{ platform: string; checks: number; devices: number }>
  }
  assert.deepEqual(
    report.items.map((i) => [i.platform, i.checks, i.devices]),
    [['darwin', 1, 1]],
  )
  await expectSpec('getTelemetry', await f(`/v1/telemetry?from=${today}&to=2000-01-01`, get()), 400)
  await expectSpec('getTelemetry', await f(`/v1/telemetry?from=${today}&to=${today}`), 401)
})

test('rollouts: ramp, pause, resume, pull, health reports, explain', async () => {
  const search = (await expectSpec(
    'searchAppVersions',
    await f('/v1/apps/harbor-notes/versions?platform=darwin', get()),
    200,
  )) as { items: Array<{ id: string; version: string }> }
  const id = search.items.find((v) => v.version === '1.5.0')?.id ?? ''
  const path = `/v1/apps/harbor-notes/versions/${id}`
  const ramp = {
    steps: [
      { percentage: 5, afterMinutes: 0 },
      { percentage: 100, afterMinutes: 60 },
    ],
  }
  const ramped = (await expectSpec(
    'updateVersion',
    await f(path, patch({ ramp, healthPolicy: { maxFailureRatio: 0.1, minReports: 5 } })),
    200,
  )) as { rolloutPercentage: number; rollout: { ramp: { currentStep: number }; health: { defaultPolicy: boolean } } }
  assert.deepEqual(
    [ramped.rolloutPercentage, ramped.rollout.ramp.currentStep, ramped.rollout.health.defaultPolicy],
    [5, 0, false],
  )
  await expectSpec('updateVersion', await f(path, patch({ ramp, rolloutPercentage: 10 })), 400)
  await expectSpec(
    'updateVersion',
    await f(
      path,
      patch({
        ramp: {
          steps: [
            { percentage: 50, afterMinutes: 0 },
            { percentage: 10, afterMinutes: 5 },
          ],
        },
      }),
    ),
    400,
  )
  const paused = (await expectSpec(
    'pauseVersion',
    await f(`${path}/pause`, jsonBody({ reason: 'QA' }, token)),
    200,
  )) as { rolloutPercentage: number; rollout: { paused: { reason: string } } }
  assert.deepEqual([paused.rolloutPercentage, paused.rollout.paused.reason], [0, 'QA'])
  await expectSpec('pauseVersion', await f(`${path}/pause`, jsonBody({ reason: 'x'.repeat(501) }, token)), 400)
  await expectSpec(
    'pauseVersion',
    await f('/v1/apps/harbor-notes/versions/ver_missing/pause', jsonBody({}, token)),
    404,
  )
  await expectSpec('pauseVersion', await f(`${path}/pause`, jsonBody({})), 401)
  const resumed = (await expectSpec(
    'resumeVersion',
    await f(`${path}/resume`, bearer(token, { method: 'POST' })),
    200,
  )) as { rolloutPercentage: number }
  assert.equal(resumed.rolloutPercentage, 5)
  await expectSpec(
    'resumeVersion',
    await f('/v1/apps/harbor-notes/versions/ver_missing/resume', bearer(token, { method: 'POST' })),
    404,
  )
  const pulled = (await expectSpec(
    'pullVersion',
    await f(`${path}/pull`, jsonBody({ reason: 'Bad build' }, token)),
    200,
  )) as { rollout: { pulled: { reason: string } } }
  assert.equal(pulled.rollout.pulled.reason, 'Bad build')
  await expectSpec('resumeVersion', await f(`${path}/resume`, bearer(token, { method: 'POST' })), 200)
  // A gated ramp: its gate state in `rollout.ramp`, and adoption of the version.
  const gated = (await expectSpec(
    'updateVersion',
    await f(path, patch({ ramp: { ...ramp, gate: { minInstalls: 3 } } })),
    200,
  )) as { rollout: { ramp: { gate: { minInstalls: number; maxFailureRatio: number; met: boolean } } } }
  assert.deepEqual(
    [gated.rollout.ramp.gate.minInstalls, gated.rollout.ramp.gate.maxFailureRatio, gated.rollout.ramp.gate.met],
    [3, 0.05, false],
  )
  await expectSpec('updateVersion', await f(path, patch({ ramp: { ...ramp, gate: { minInstalls: 0 } } })), 400)
  await expectSpec('getVersionAdoption', await f(`${path}/adoption?from=2026-01-01&to=2026-01-31`, get(token)), 200)
  await expectSpec('getVersionAdoption', await f(`${path}/adoption?from=2026-01-31&to=2026-01-01`, get(token)), 400)
  await expectSpec('getVersionAdoption', await f(`${path}/adoption`), 401)
  await expectSpec(
    'getVersionAdoption',
    await f('/v1/apps/harbor-notes/versions/ver_missing/adoption', get(token)),
    404,
  )

  const explain = (q: string, t?: string) => f(`/v1/apps/harbor-notes/update/explain?${q}`, t ? get(t) : {})
  const why = (await expectSpec(
    'explainUpdate',
    await explain('version=1.0.0&platform=darwin&arch=x64&deviceId=contract-device-0001', token),
    200,
  )) as { offered: string | null; versions: Array<{ version: string; rule: string }> }
  assert.ok(why.versions.some((v) => v.version === '1.5.0'))
  await expectSpec('explainUpdate', await explain('version=1.0.0&platform=darwin&arch=x64', token), 400)
  await expectSpec(
    'explainUpdate',
    await explain('version=1.0.0&platform=darwin&arch=x64&deviceId=contract-device-0001'),
    401,
  )
  await expectSpec(
    'explainUpdate',
    await f(
      '/v1/apps/nope-app/update/explain?version=1.0.0&platform=darwin&arch=x64&deviceId=contract-device-0001',
      get(),
    ),
    404,
  )

  // Devices per updater key (key rotation): the app holds no key here, so the list is empty.
  const keys = (await expectSpec(
    'getUpdateKeyDevices',
    await f('/v1/apps/harbor-notes/update-keys', get(token)),
    200,
  )) as { keys: unknown[] }
  assert.deepEqual(keys.keys, [])
  await expectSpec('getUpdateKeyDevices', await f('/v1/apps/harbor-notes/update-keys'), 401)

  const report = (deviceId: string, body: Record<string, unknown> = {}, slug = 'harbor-notes') =>
    f(
      `/v1/apps/${slug}/health-reports`,
      jsonBody({
        deviceId,
        version: '1.5.0',
        channel: 'stable',
        platform: 'darwin',
        arch: 'x64',
        outcome: 'installed',
        ...body,
      }),
    )
  // Only a device the update check offered 1.5.0 counts: one inside the ramp's 5 %.
  let offeredDevice = ''
  for (let i = 0; !offeredDevice; i++) {
    const id = `contract-offered-${String(i).padStart(4, '0')}`
    if ((await rolloutBucket(id, '1.5.0')) < 5) offeredDevice = id
  }
  const offer = (await expectSpec(
    'explainUpdate',
    await explain(`version=1.0.0&platform=darwin&arch=x64&deviceId=${offeredDevice}`, token),
    200,
  )) as { offered: string | null }
  assert.equal(offer.offered, '1.5.0')
  assert.equal(
    (
      await f('/v1/apps/harbor-notes/update?version=1.0.0&platform=darwin&arch=x64', {
        headers: { 'x-ferry-device-id': offeredDevice },
      })
    ).status,
    200,
  )
  const receipt = (await expectSpec('reportUpdateOutcome', await report(offeredDevice), 202)) as { counted: boolean }
  assert.equal(receipt.counted, true)
  const unoffered = (await expectSpec('reportUpdateOutcome', await report('contract-never-checked'), 202)) as {
    counted: boolean
  }
  assert.equal(unoffered.counted, false)
  await expectSpec('reportUpdateOutcome', await report('contract-device-0001', { outcome: 'exploded' }), 400)
  await expectSpec('reportUpdateOutcome', await report('contract-device-0001', {}, 'nope-app'), 404)
  for (let i = 0; i < 10; i++) await report('contract-device-0002')
  const limited = await report('contract-device-0002')
  assert.ok(Number(limited.headers.get('retry-after')) >= 1)
  await expectSpec('reportUpdateOutcome', limited, 429)
})

test('download: public, range, private with token or signed link', async () => {
  const path = `/v1/apps/harbor-notes/versions/${ids.v1}/artifacts/${ids.v1exe}/download`
  const res = await f(path)
  assert.equal(res.headers.get('content-length'), String(exe.byteLength))
  assert.equal(res.headers.get('content-disposition')?.startsWith('attachment; filename="Harbor-1.0.0.exe"'), true)
  assert.equal(res.headers.get('digest'), `sha-256=${createHash('sha256').update(exe).digest('base64')}`)
  const bytes = new Uint8Array(await res.clone().arrayBuffer())
  assert.deepEqual(bytes, exe)
  await expectSpec('downloadArtifact', res, 200)
  const part = await f(path, { headers: { range: 'bytes=10-19' } })
  assert.equal(part.headers.get('content-range'), `bytes 10-19/${exe.byteLength}`)
  assert.deepEqual(new Uint8Array(await part.clone().arrayBuffer()), exe.slice(10, 20))
  await expectSpec('downloadArtifact', part, 206)
  await expectSpec(
    'downloadArtifact',
    await f(`/v1/apps/harbor-notes/versions/${ids.v1}/artifacts/art_missing/download`),
    404,
  )

  const version = (await (await f(`/v1/apps/lighthouse/versions`, get())).json()) as {
    items: Array<{ artifacts: Array<{ downloadUrl: string }> }>
  }
  const signed = new URL(version.items[0]?.artifacts[0]?.downloadUrl ?? '')
  assert.equal(signed.origin, server.url)
  await expectSpec('downloadArtifact', await f(signed.pathname + signed.search), 200)
  await expectSpec('downloadArtifact', await f(signed.pathname), 401)
  await expectSpec('downloadArtifact', await f(signed.pathname, get()), 200)
  const tampered = signed.search.replace(/signature=./, (m) =>
    m.endsWith('0') ? `${m.slice(0, -1)}1` : `${m.slice(0, -1)}0`,
  )
  await expectSpec('downloadArtifact', await f(signed.pathname + tampered), 403)
  const expired = `?expires=1000&signature=${'0'.repeat(64)}`
  await expectSpec('downloadArtifact', await f(signed.pathname + expired), 403)
})

test('team users and the admin password', async () => {
  const created = (await expectSpec(
    'createTeamUser',
    await f(
      '/v1/team/users',
      jsonBody(
        {
          email: 'grace@acme.test',
          name: 'Grace',
          password: PASSWORD,
          permissions: { apps: { upload: { enabled: true, allowed: ['harbor-notes'] } } },
        },
        token,
      ),
    ),
    201,
  )) as {
    id: string
    role: string
    permissions: { apps: { upload: { allowed: string[] }; delete: { enabled: boolean } } }
  }
  assert.equal(created.role, 'user')
  assert.deepEqual(created.permissions.apps.upload.allowed, ['harbor-notes'])
  assert.equal(created.permissions.apps.delete.enabled, false)
  await expectSpec(
    'createTeamUser',
    await f('/v1/team/users', jsonBody({ email: 'grace@acme.test', name: 'G', password: PASSWORD }, token)),
    409,
  )
  await expectSpec(
    'createTeamUser',
    await f('/v1/team/users', jsonBody({ email: 'x@acme.test', name: 'G', password: 'short' }, token)),
    400,
  )
  const list = (await expectSpec('listTeamUsers', await f('/v1/team/users', get()), 200)) as {
    items: Array<{ email: string }>
  }
  assert.deepEqual(
    list.items.map((u) => u.email),
    ['grace@acme.test'],
    'the admin is not listed',
  )
  const grace = (await (
    await f('/v1/auth/login', jsonBody({ email: 'grace@acme.test', password: PASSWORD }))
  ).json()) as { token: string }
  await expectSpec('listTeamUsers', await f('/v1/team/users', get(grace.token)), 403)
  const upd = (await expectSpec(
    'updateTeamUser',
    await f(`/v1/team/users/${created.id}`, patch({ name: 'Grace H', password: 'another-long-password' })),
    200,
  )) as { name: string }
  assert.equal(upd.name, 'Grace H')
  await expectSpec('whoami', await f('/v1/whoami', get(grace.token)), 401)
  await expectSpec('updateTeamUser', await f('/v1/team/users/usr_missing', patch({ name: 'X' })), 404)
  await expectSpec('deleteTeamUser', await f(`/v1/team/users/${created.id}`, del()), 204)
  await expectSpec('deleteTeamUser', await f(`/v1/team/users/${created.id}`, del()), 404)

  await expectSpec(
    'updateAdminPassword',
    await f('/v1/team/admin', patch({ currentPassword: 'wrong-password!', newPassword: 'a-brand-new-password' })),
    400,
  )
  await expectSpec(
    'updateAdminPassword',
    await f('/v1/team/admin', patch({ currentPassword: PASSWORD, newPassword: 'a-brand-new-password' })),
    204,
  )
  await expectSpec('whoami', await f('/v1/whoami', get()), 401)
  await expectSpec(
    'updateAdminPassword',
    await f('/v1/team/admin', patch({ currentPassword: PASSWORD, newPassword: 'x' }, 'bad')),
    401,
  )
  token = (
    (await (
      await f('/v1/auth/login', jsonBody({ email: 'ada@acme.test', password: 'a-brand-new-password' }))
    ).json()) as { token: string }
  ).token
})

test('API tokens: create, use, list, revoke', async () => {
  const created = (await expectSpec(
    'createApiToken',
    await f(
      '/v1/team/tokens',
      jsonBody(
        {
          name: 'ci',
          permissions: { apps: { download: { enabled: true } } },
          expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        },
        token,
      ),
    ),
    201,
  )) as { id: string; token: string }
  await expectSpec('createApiToken', await f('/v1/team/tokens', jsonBody({ name: '' }, token)), 400)
  await expectSpec('createApiToken', await f('/v1/team/tokens', jsonBody({ name: 'ci' })), 401)
  await expectSpec('createApiToken', await f('/v1/team/tokens', jsonBody({ name: 'again' }, created.token)), 403)
  const me = (await expectSpec('whoami', await f('/v1/whoami', get(created.token)), 200)) as {
    permissions: { apps: { download: { enabled: boolean }; upload: { enabled: boolean } } }
  }
  assert.deepEqual([me.permissions.apps.download.enabled, me.permissions.apps.upload.enabled], [true, false])
  const list = (await expectSpec('listApiTokens', await f('/v1/team/tokens', get()), 200)) as {
    items: Array<{ id: string }>
  }
  assert.deepEqual(
    list.items.map((t) => t.id),
    [created.id],
  )
  await expectSpec('listApiTokens', await f('/v1/team/tokens?limit=0', get()), 400)
  await expectSpec('listApiTokens', await f('/v1/team/tokens'), 401)
  await expectSpec('listApiTokens', await f('/v1/team/tokens', get(created.token)), 403)
  await expectSpec('revokeApiToken', await f(`/v1/team/tokens/${created.id}`, del(created.token)), 403)
  await expectSpec('revokeApiToken', await f(`/v1/team/tokens/${created.id}`, del()), 204)
  await expectSpec('revokeApiToken', await f(`/v1/team/tokens/${created.id}`, del()), 404)
  await expectSpec('revokeApiToken', await f(`/v1/team/tokens/${created.id}`, del('not.a.jwt')), 401)
  await expectSpec('whoami', await f('/v1/whoami', get(created.token)), 401)
})

test('deletes: artifact, version, catalog in use, app with its files', async () => {
  const before = await blobKeys(server)
  assert.ok(before.includes(ids.v1exe ?? ''))
  await expectSpec(
    'deleteArtifact',
    await f(`/v1/apps/harbor-notes/versions/${ids.v1}/artifacts/${ids.v1exe}`, del()),
    204,
  )
  assert.ok(!(await blobKeys(server)).includes(ids.v1exe ?? ''), 'blob removed with its artifact')
  await expectSpec(
    'deleteArtifact',
    await f(`/v1/apps/harbor-notes/versions/${ids.v1}/artifacts/${ids.v1nupkg}`, del()),
    409,
  )
  await expectSpec(
    'deleteArtifact',
    await f(`/v1/apps/harbor-notes/versions/${ids.v1}/artifacts/art_missing`, del()),
    404,
  )
  await expectSpec('deleteVersion', await f(`/v1/apps/harbor-notes/versions/${ids.v1}`, del()), 204)
  assert.ok(!(await blobKeys(server)).includes(ids.v1nupkg ?? ''))
  await expectSpec('deleteVersion', await f(`/v1/apps/harbor-notes/versions/${ids.v1}`, del()), 404)
  await expectSpec('deleteChannel', await f(`/v1/channels/${ids['/v1/channels:stable']}`, del()), 409)
  await expectSpec('deletePlatform', await f(`/v1/platforms/${ids['/v1/platforms:windows']}`, del()), 409)
  await expectSpec('deleteArch', await f(`/v1/archs/${ids['/v1/archs:x64']}`, del()), 409)
  await expectSpec('deleteApp', await f('/v1/apps/harbor-notes', del()), 204)
  await expectSpec('deleteApp', await f('/v1/apps/harbor-notes', del()), 404)
  await expectSpec('deleteApp', await f('/v1/apps/lighthouse', del()), 204)
  assert.deepEqual(await blobKeys(server), [], 'every blob deleted with its app')
  await expectSpec('deleteChannel', await f(`/v1/channels/${ids['/v1/channels:stable']}`, del()), 204)
})

test('webhooks: create, list, get, update, test event, delivery log, redeliver, delete', async () => {
  const receiver = await startReceiver()
  try {
    const created = (await expectSpec(
      'createWebhook',
      await f(
        '/v1/webhooks',
        jsonBody({ url: receiver.url, events: ['version.published'], description: 'contract' }, token),
      ),
      201,
    )) as { id: string; secret: string }
    await expectSpec(
      'createWebhook',
      await f('/v1/webhooks', jsonBody({ url: 'ftp://hooks.example.org/', events: ['version.published'] }, token)),
      400,
    )
    await expectSpec('createWebhook', await f('/v1/webhooks', jsonBody({ url: receiver.url, events: [] }, token)), 400)
    await expectSpec(
      'createWebhook',
      await f(
        '/v1/webhooks',
        jsonBody({ url: receiver.url, events: ['version.published'], apps: ['no-such-app'] }, token),
      ),
      400,
    )
    await expectSpec('listWebhooks', await f('/v1/webhooks'), 401)
    const list = (await expectSpec('listWebhooks', await f('/v1/webhooks', get()), 200)) as {
      items: Array<{ id: string }>
    }
    assert.ok(list.items.some((w) => w.id === created.id))
    await expectSpec('getWebhook', await f(`/v1/webhooks/${created.id}`, get()), 200)
    await expectSpec('getWebhook', await f('/v1/webhooks/whk_missing', get()), 404)
    await expectSpec(
      'updateWebhook',
      await f(`/v1/webhooks/${created.id}`, patch({ events: ['version.published', 'version.pulled'] })),
      200,
    )
    await expectSpec('updateWebhook', await f(`/v1/webhooks/${created.id}`, patch({})), 400)
    await expectSpec('updateWebhook', await f(`/v1/webhooks/${created.id}`, patch({ events: ['*'] })), 200)
    await expectSpec(
      'updateWebhook',
      await f(`/v1/webhooks/${created.id}`, patch({ events: ['*', 'token.created'] })),
      400,
    )
    const ping = (await expectSpec(
      'testWebhook',
      await f(`/v1/webhooks/${created.id}/test`, jsonBody({}, token)),
      202,
    )) as { id: string }
    await receiver.arrived(1)
    verify(created.secret, receiver.received[0]!)
    const log = (await expectSpec(
      'listWebhookDeliveries',
      await f(`/v1/webhooks/${created.id}/deliveries?limit=1`, get()),
      200,
    )) as { items: Array<{ id: string }> }
    assert.equal(log.items[0]?.id, ping.id)
    await expectSpec('listWebhookDeliveries', await f(`/v1/webhooks/${created.id}/deliveries?cursor=nope`, get()), 400)
    await expectSpec(
      'redeliverWebhook',
      await f(`/v1/webhooks/${created.id}/deliveries/${ping.id}/redeliver`, jsonBody({}, token)),
      202,
    )
    await expectSpec(
      'redeliverWebhook',
      await f(`/v1/webhooks/${created.id}/deliveries/dlv_missing/redeliver`, jsonBody({}, token)),
      404,
    )
    await receiver.arrived(2)
    await expectSpec('updateWebhook', await f(`/v1/webhooks/${created.id}`, patch({ enabled: false })), 200)
    await expectSpec('testWebhook', await f(`/v1/webhooks/${created.id}/test`, jsonBody({}, token)), 409)
    await expectSpec('deleteWebhook', await f(`/v1/webhooks/${created.id}`, del()), 204)
    await expectSpec('deleteWebhook', await f(`/v1/webhooks/${created.id}`, del()), 404)
  } finally {
    await receiver.close()
  }
})

test('rules: list, create each kind, refuse bad members, delete; audited and sent as webhook events', async () => {
  await expectSpec('createApp', await f('/v1/apps', jsonBody({ slug: 'ruled-app', name: 'Ruled' }, token)), 201)
  const receiver = await startReceiver()
  try {
    const hook = (await expectSpec(
      'createWebhook',
      await f('/v1/webhooks', jsonBody({ url: receiver.url, events: ['rule.created', 'rule.deleted'] }, token)),
      201,
    )) as { id: string; secret: string }
    const rules = '/v1/apps/ruled-app/rules'
    const pin = (await expectSpec(
      'createRule',
      await f(rules, jsonBody({ kind: 'pin', cohort: 'acme-corp', range: '1.4.x', reason: 'QA' }, token)),
      201,
    )) as { id: string; range: string }
    assert.equal(pin.range, '1.4.x')
    await expectSpec(
      'createRule',
      await f(rules, jsonBody({ kind: 'hold', reason: 'wait', expiresAt: '2099-01-01T00:00:00Z' }, token)),
      201,
    )
    await expectSpec(
      'createRule',
      await f(
        rules,
        jsonBody(
          {
            kind: 'target',
            version: '2.0.0',
            cohorts: ['beta'],
            deny: ['device-00000001'],
            conditions: [{ attribute: 'edition', oneOf: ['pro'] }],
          },
          token,
        ),
      ),
      201,
    )
    const badRange = (await expectSpec(
      'createRule',
      await f(rules, jsonBody({ kind: 'pin', cohort: 'acme-corp', range: 'one point four' }, token)),
      400,
    )) as { errors: Array<{ field: string }> }
    assert.deepEqual(
      badRange.errors.map((e) => e.field),
      ['/range'],
    )
    const misplaced = (await expectSpec(
      'createRule',
      await f(rules, jsonBody({ kind: 'hold', reason: 'x', range: '1.x' }, token)),
      400,
    )) as { errors: Array<{ field: string; message: string }> }
    assert.deepEqual(misplaced.errors, [{ field: '/range', message: 'does not apply to a hold' }])
    await expectSpec('createRule', await f(rules, jsonBody({ kind: 'target', version: '2.0.0' }, token)), 400)
    await expectSpec(
      'createRule',
      await f(
        rules,
        jsonBody(
          { kind: 'target', version: '2.0.0', conditions: [{ attribute: 'os', equals: 'a', range: '1' }] },
          token,
        ),
      ),
      400,
    )
    await expectSpec(
      'createRule',
      await f(rules, jsonBody({ kind: 'hold', reason: 'x', expiresAt: '2000-01-01T00:00:00Z' }, token)),
      400,
    )
    await expectSpec(
      'createRule',
      await f('/v1/apps/no-such-app/rules', jsonBody({ kind: 'hold', reason: 'x' }, token)),
      404,
    )
    await expectSpec('createRule', await f(rules, jsonBody({ kind: 'hold', reason: 'x' })), 401)
    const list = (await expectSpec('listRules', await f(rules, get()), 200)) as { items: Array<{ kind: string }> }
    assert.deepEqual(
      list.items.map((r) => r.kind),
      ['pin', 'hold', 'target'],
    )
    await expectSpec('listRules', await f('/v1/apps/no-such-app/rules', get()), 404)
    await expectSpec('deleteRule', await f(`${rules}/${pin.id}`, del()), 204)
    await expectSpec('deleteRule', await f(`${rules}/${pin.id}`, del()), 404)
    await receiver.arrived(4)
    const events = receiver.received.map((r) => {
      verify(hook.secret, r)
      return JSON.parse(r.body) as { type: string; data: { app: string; rule: { id: string; kind: string } } }
    })
    // Deliveries go out side by side: compared in a fixed order.
    assert.deepEqual(events.map((e) => [e.type, e.data.app, e.data.rule.kind]).sort(), [
      ['rule.created', 'ruled-app', 'hold'],
      ['rule.created', 'ruled-app', 'pin'],
      ['rule.created', 'ruled-app', 'target'],
      ['rule.deleted', 'ruled-app', 'pin'],
    ])
    assert.equal(events.find((e) => e.type === 'rule.deleted')?.data.rule.id, pin.id)
    const audit = (await expectSpec('listAuditEntries', await f('/v1/audit?action=rule.', get()), 200)) as {
      items: Array<{ action: string }>
    }
    assert.deepEqual(
      audit.items.map((e) => e.action),
      ['rule.delete', 'rule.create', 'rule.create', 'rule.create'],
    )
    await expectSpec('deleteWebhook', await f(`/v1/webhooks/${hook.id}`, del()), 204)
    const cohorts = '/v1/apps/ruled-app/cohorts'
    await expectSpec(
      'getElectronUpdaterCohortFeed',
      await f(`${cohorts}/acme-corp/electron-updater/stable/windows/x64/1.0.0/latest.yml`),
      200,
    )
    await expectSpec(
      'getElectronUpdaterCohortFeed',
      await f(`${cohorts}/acme!corp/electron-updater/stable/windows/x64/1.0.0/latest.yml`),
      400,
    )
    await expectSpec(
      'getSparkleCohortAppcast',
      await f(`${cohorts}/acme-corp/sparkle/stable/darwin/arm64/appcast.xml?version=1.0.0`),
      200,
    )
    await expectSpec(
      'getSparkleCohortAppcast',
      await f(`${cohorts}/acme-corp/sparkle/stable/darwin/arm64/appcast.xml?version=1.0.0&attributes=bad`),
      400,
    )
  } finally {
    await receiver.close()
  }
})

test("another team sees none of this team's resources", async () => {
  await f('/v1/apps', jsonBody({ slug: 'team-a-app', name: 'A' }, token))
  const other = await signup(f, 'other@else.test', 'Else')
  await expectSpec('updateApp', await f('/v1/apps/team-a-app', patch({ name: 'Mine' }, other.token)), 404)
  await expectSpec('deleteApp', await f('/v1/apps/team-a-app', del(other.token)), 404)
  const list = (await expectSpec('listApps', await f('/v1/apps', get(other.token)), 200)) as { items: unknown[] }
  assert.equal(list.items.length, 0)
  await expectSpec(
    'updateChannel',
    await f(`/v1/channels/${ids['/v1/channels:beta']}`, patch({ name: 'mine' }, other.token)),
    404,
  )
})

test("the audit log lists this server's writes newest first, in the contract's shape", async () => {
  const first = (await expectSpec('listAuditEntries', await f('/v1/audit?limit=5', get()), 200)) as {
    items: Array<{ action: string; actor: { email: string | null } }>
    nextCursor: string | null
  }
  assert.equal(first.items.length, 5)
  assert.ok(first.nextCursor, 'more than one page of writes')
  assert.ok(first.items.every((e) => e.actor.email === 'ada@acme.test'))
  const signups = (await expectSpec('listAuditEntries', await f('/v1/audit?action=team.', get()), 200)) as {
    items: Array<{ action: string }>
  }
  assert.deepEqual(
    signups.items.map((e) => e.action),
    ['team.create'],
  )
  await expectSpec('listAuditEntries', await f('/v1/audit?action=Bad Action', get()), 400)
  await expectSpec('listAuditEntries', await f('/v1/audit?limit=101', get()), 400)
  await expectSpec('listAuditEntries', await f('/v1/audit'), 401)
})

test('every operation of the spec has a route', async () => {
  const sample: Record<string, string> = {
    app: 'team-a-app',
    version: 'ver_x',
    artifact: 'art_x',
    id: 'usr_x',
    channel: 'stable',
    arch: 'x64',
  }
  for (const op of operations) {
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => sample[name] ?? 'x')
    const res = await f(path, { method: op.method.toUpperCase() })
    const text = await res.text()
    assert.ok(
      !text.includes('No route for'),
      `${op.operationId} (${op.method.toUpperCase()} ${op.path}) has no route: ${text}`,
    )
  }
  const res = await f('/v1/no-such-thing')
  assert.match(await res.text(), /No route for GET \/v1\/no-such-thing/)
})

test('apt and rpm repositories: key, indexes and package files', async () => {
  const linuxToken = await prepareUploadTeam(f, 'contract-linux')
  const deb = buildDeb('contract-linux', '1.0.0', 'amd64', 'gzip')
  const rpm = buildRpm('contract-linux', '1.0.0')
  const form = uploadForm(
    { version: '1.0.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' },
    [
      ['contract-linux_1.0.0_amd64.deb', deb],
      ['contract-linux-1.0.0-1.noarch.rpm', rpm],
    ],
  )
  const uploaded = await f('/v1/apps/contract-linux/versions', bearer(linuxToken, { method: 'POST', body: form }))
  assert.equal(uploaded.status, 201, await uploaded.clone().text())
  const base = '/v1/apps/contract-linux'
  await expectSpec('getRepositoryKey', await f(`${base}/repository-key.asc`), 200)
  await expectSpec('getRepositoryKey', await f('/v1/apps/nope-app/repository-key.asc'), 404)
  assert.match(
    (await expectSpec('getAptRelease', await f(`${base}/apt/dists/stable/InRelease`), 200)) as string,
    /^-----BEGIN PGP SIGNED MESSAGE-----/,
  )
  await expectSpec('getAptRelease', await f(`${base}/apt/dists/nightly/Release`), 404)
  const packages = (await expectSpec(
    'getAptPackages',
    await f(`${base}/apt/dists/stable/main/binary-amd64/Packages`),
    200,
  )) as string
  await expectSpec('getAptPackages', await f(`${base}/apt/dists/stable/main/amd64/Packages`), 400)
  await expectSpec('getAptPackages', await f(`${base}/apt/dists/stable/main/binary-mips/Packages`), 404)
  const release = await (await f(`${base}/apt/dists/stable/Release`)).text()
  const xz = / ([0-9a-f]{64}) +\d+ main\/binary-amd64\/Packages\.xz\n/.exec(release)?.[1] ?? ''
  const byHash = `${base}/apt/dists/stable/main/binary-amd64/by-hash/SHA256`
  const xzRes = await f(`${byHash}/${xz}`)
  assert.equal(xzRes.headers.get('content-type'), 'application/x-xz')
  await expectSpec('getAptIndexByHash', xzRes, 200)
  await expectSpec('getAptIndexByHash', await f(`${byHash}/${'0'.repeat(64)}`), 404)
  await expectSpec('getAptIndexByHash', await f(`${byHash}/${'0'.repeat(63)}`), 400)
  const filename = /Filename: (\S+)/.exec(packages)?.[1] ?? ''
  const debRes = await f(`${base}/apt/${filename}`)
  assert.deepEqual(new Uint8Array(await debRes.clone().arrayBuffer()), new Uint8Array(deb))
  await expectSpec('getAptPackageFile', debRes, 200)
  await expectSpec('getAptPackageFile', await f(`${base}/apt/pool/art_doesnotexist/x.deb`), 404)
  await expectSpec('getAptPackageFile', await f(`${base}/apt/pool/art_doesnotexist/x.exe`), 400)
  const repomd = (await expectSpec('getRpmMetadata', await f(`${base}/rpm/stable/repodata/repomd.xml`), 200)) as string
  assert.match(repomd, /<data type="primary">/)
  await expectSpec('getRpmMetadata', await f(`${base}/rpm/nightly/repodata/repomd.xml`), 404)
  const primary = gunzipSync(
    new Uint8Array(await (await f(`${base}/rpm/stable/repodata/primary.xml.gz`)).arrayBuffer()),
  ).toString()
  const href = /<location href="([^"]+)"/.exec(primary)?.[1] ?? ''
  const rpmRes = await f(`${base}/rpm/stable/${href}`)
  assert.deepEqual(new Uint8Array(await rpmRes.clone().arrayBuffer()), new Uint8Array(rpm))
  await expectSpec('getRpmPackageFile', rpmRes, 200)
  await expectSpec('getRpmPackageFile', await f(`${base}/rpm/stable/packages/art_doesnotexist/x.rpm`), 404)
})

test("MSIX: Electron's feed, the App Installer file and the package", async () => {
  const msixToken = await prepareUploadTeam(f, 'contract-msix')
  const msix = new Uint8Array(readFileSync(join(import.meta.dirname, 'fixtures', 'msix', 'HelloMSIX_V1.msix')))
  const form = uploadForm(
    { version: '1.0.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' },
    [['HelloMSIX-1.0.0.msix', msix]],
  )
  const uploaded = await f('/v1/apps/contract-msix/versions', bearer(msixToken, { method: 'POST', body: form }))
  assert.equal(uploaded.status, 201, await uploaded.clone().text())
  const base = '/v1/apps/contract-msix/msix'
  const offer = (await expectSpec('getMsixUpdate', await f(`${base}/stable/x64?version=0.9.0`), 200)) as { url: string }
  await expectSpec('getMsixUpdate', await f(`${base}/stable/x64?version=1.0.0`), 204)
  await expectSpec('getMsixUpdate', await f(`${base}/stable/x64?version=one`), 400)
  await expectSpec('getMsixUpdate', await f('/v1/apps/nope-app/msix/stable/x64?version=1.0.0'), 404)
  const xml = (await expectSpec(
    'getMsixAppInstaller',
    await f(`${base}/stable/x64/app.appinstaller?hoursBetweenUpdateChecks=8`),
    200,
  )) as string
  assert.match(xml, /<MainPackage Name="com\.electron\.myapp" Publisher="CN=Electron MSIX" Version="1\.0\.0\.0"/)
  await expectSpec('getMsixAppInstaller', await f(`${base}/stable/x64/app.appinstaller?showPrompt=maybe`), 400)
  await expectSpec('getMsixAppInstaller', await f(`${base}/nightly/x64/app.appinstaller`), 404)
  const pkg = await f(new URL(offer.url).pathname)
  assert.deepEqual(new Uint8Array(await pkg.clone().arrayBuffer()), msix)
  await expectSpec('getMsixPackage', pkg, 200)
  await expectSpec('getMsixPackage', await f(new URL(offer.url).pathname, { headers: { range: 'bytes=0-1' } }), 206)
  await expectSpec('getMsixPackage', await f(new URL(offer.url).pathname.replace(/[^/]+$/, 'other.msix')), 404)
})

test('signed metadata (TUF): the files, and root and targets stored or refused', async () => {
  const tufToken = await prepareUploadTeam(f, 'contract-tuf')
  const app = 'contract-tuf'
  const base = `/v1/apps/${app}/tuf`
  await expectSpec('getTufMetadata', await f(`${base}/timestamp.json`), 404)
  await expectSpec('getTufMetadata', await f(`${base}/1.timestamp.json`), 400)
  await expectSpec('getTufMetadata', await f('/v1/apps/nope-app/tuf/online-key.json'), 404)
  const online = await onlineKeyOf(f, app)
  const rootKey = await newKey()
  const release = await newKey()
  const root = buildRoot({
    version: 1,
    expires: expiresInDays(365),
    root: { keys: [rootKey], threshold: 1 },
    targets: { keys: [release], threshold: 1 },
    online,
  })
  signWith(root, [rootKey])
  await expectSpec('publishTufMetadata', await f(`${base}/snapshot.json`, jsonBody(root.toJSON(), tufToken)), 400)
  await expectSpec('publishTufMetadata', await f(`${base}/root.json`, jsonBody(root.toJSON())), 401)
  await expectSpec('publishTufMetadata', await f(`${base}/targets.json`, jsonBody(root.toJSON(), tufToken)), 400)
  await expectSpec('publishTufMetadata', await postTuf(f, tufToken, app, 'root.json', root), 200)
  await expectSpec('publishTufMetadata', await postTuf(f, tufToken, app, 'root.json', root), 409)
  const artifact = await uploadArtifact(f, tufToken, app, '1.0.0', 'contract installer')
  const targets = nextTargets(undefined, [artifact], expiresInDays(30))
  signWith(targets, [release])
  await expectSpec('publishTufMetadata', await postTuf(f, tufToken, app, 'targets.json', targets), 200)
  for (const file of ['1.root.json', 'root.json', '1.targets.json', '1.snapshot.json', 'timestamp.json'])
    await expectSpec('getTufMetadata', await f(`${base}/${file}`), 200)
  await expectSpec('publishTufMetadata', await postTuf(f, tufToken, 'nope-app', 'targets.json', targets), 404)
})

test('/mcp: a JSON-RPC answer, an accepted notification, and each refusal as the contract describes it', async () => {
  const mcp = (message: unknown, headers: Record<string, string> = {}) =>
    f('/mcp', {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
      body: JSON.stringify(message),
    })
  const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' }
  await expectSpec('callMcp', await mcp(list), 200)
  await expectSpec('callMcp', await mcp({ jsonrpc: '2.0', method: 'notifications/initialized' }), 202)
  await expectSpec('callMcp', await mcp([list, list]), 400)
  await expectSpec('callMcp', await mcp(list, { authorization: 'Bearer ferry_NotARealToken0123456789abcdefgh' }), 401)
  await expectSpec('callMcp', await mcp(list, { origin: 'http://evil.example' }), 403)
  await expectSpec('callMcp', await mcp(list, { accept: 'application/json' }), 400)
  await expectSpec('callMcp', await mcp({ jsonrpc: '2.0', id: 2 }), 400)
})

test('every operation had at least one response checked against the spec', () => {
  const missing = operations.filter((op) => ![...checked].some((k) => k.startsWith(`${op.operationId} `)))
  assert.deepEqual(
    missing.map((op) => op.operationId),
    [],
  )
})
