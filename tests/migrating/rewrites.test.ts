/**
 * The nginx rules of the migration guides, run in Debian's nginx in front of a real Ferry: every
 * old client URL a guide maps must answer what that client expects, read with the clients' own
 * code where the repository has it (electron-updater's generic provider, Squirrel.Windows'
 * RELEASES parser).
 *
 * The rules are taken from the guides' ```nginx blocks (one server block per guide), so the page
 * and the test cannot drift. The one substitution: the guides proxy to Ferry at 127.0.0.1:8080,
 * as production-deploy does; the test replaces that address with the test server's. Each server
 * block ends with `location / { return 404; }`, so a path no rule maps answers 404 (where a guide
 * tells readers to pass the rest to the old server).
 * Backends: `npm test` runs it on SQLite and files only; its server comes from `startTestServer`,
 * so `npx tsx tests/server/run-on-postgres.ts <this file>` runs it on PostgreSQL + S3 (not in CI).
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { pageBlocks } from '../../lib/docs-runner/pages.ts'
import { electronUpdaterCheck } from '../server/clients/electron-updater.ts'
import { parseReleases, squirrelUpdate } from '../server/clients/squirrel-windows.ts'
import { httpFetch, jsonBody, signup, startTestServer, type TestServer } from '../server/helpers.ts'
import { ferry, releaseAssets } from '../ferry-cli/fixtures.ts'
import { freePort, startNginx, type Nginx } from '../../services/nginx-server.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const GUIDES = 'pages/docs/migrating'
/** The upstream the guides write; the test's Ferry listens elsewhere. */
const GUIDE_UPSTREAM = '127.0.0.1:8080'

/** Each migration guide's nginx rules, by page name. */
function guideRules(): Map<string, string> {
  const rules = new Map<string, string>()
  for (const file of readdirSync(join(ROOT, GUIDES)).filter((f) => f.endsWith('.mdx'))) {
    const blocks = pageBlocks(ROOT, `${GUIDES}/${file}`).filter((b) => b.lang === 'nginx')
    if (blocks.length) rules.set(file.replace(/\.mdx$/, ''), blocks.map((b) => b.code).join('\n'))
  }
  return rules
}

const VERSIONS = ['1.0.0', '1.1.0', '1.2.0']
const body = (name: string) => `bytes of ${name}\n`

let ferryServer: TestServer
let nginx: Nginx
let work: string
const ports = new Map<string, number>()
const rules = guideRules()

/** A URL on the nginx server block of `guide`. */
const on = (guide: string, path: string) => `http://127.0.0.1:${ports.get(guide) ?? 0}${path}`

async function text(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; body: string; location: string | null }> {
  const res = await fetch(url, init)
  return { status: res.status, body: await res.text(), location: res.headers.get('location') }
}

/** Follows a download to its bytes, as an updater does (redirects included). */
async function download(url: string): Promise<string> {
  const res = await fetch(url)
  assert.equal(res.status, 200, `${url} → ${res.status}`)
  return res.text()
}

/** Squirrel.Mac: 200 with the newest version's zip for an old client, 204 for the newest. */
async function assertSquirrelMac(url: (version: string) => string) {
  const old = await fetch(url('1.0.0'))
  assert.equal(old.status, 200, url('1.0.0'))
  const update: { name: string; url: string } = await old.json()
  assert.equal(update.name, '1.2.0')
  assert.equal(await download(update.url), body('Notes-1.2.0-mac.zip'))
  assert.equal((await fetch(url('1.2.0'))).status, 204, url('1.2.0'))
}

/** Squirrel.Windows: `<feed>/RELEASES?…` names the newest, and each package downloads from `<feed>/<file>` with the SHA-1 listed. */
async function assertSquirrelWindows(feed: string) {
  const res = await text(`${feed}/RELEASES?id=Notes&localVersion=1.0.0&arch=amd64`)
  assert.equal(res.status, 200, `${feed}/RELEASES`)
  const entries = parseReleases(res.body)
  assert.equal(squirrelUpdate(entries, '1.0.0'), '1.2.0', res.body)
  const newest = entries.find((e) => e.version === '1.2.0')
  assert.ok(newest)
  const bytes = await download(new URL(newest.fileName, `${feed}/`).href)
  assert.equal(createHash('sha1').update(bytes).digest('hex').toUpperCase(), newest.sha1.toUpperCase())
  assert.equal(Buffer.byteLength(bytes), newest.size)
}

/** A download-latest link: a redirect whose target is the newest build's file. */
async function assertLatest(url: string, file: string) {
  const res = await text(url, { redirect: 'manual' })
  assert.equal(res.status, 302, `${url} → ${res.status} ${res.body}`)
  assert.equal(await download(res.location ?? ''), body(file), url)
}

/** electron-updater's generic provider on `platform`: 1.2.0 for a client on 1.0.0, its file intact; nothing for one on 1.2.0. */
async function assertElectronUpdater(feed: string, platform: NodeJS.Platform, file: string) {
  const check = await electronUpdaterCheck(feed, '1.0.0', platform)
  assert.equal(check.available, true, `${feed} on ${platform}: ${JSON.stringify(check.info)}`)
  assert.equal(check.info.version, '1.2.0')
  const [first] = check.files
  assert.ok(first)
  const bytes = await download(first.url.href)
  assert.equal(bytes, body(file))
  assert.equal(createHash('sha512').update(bytes).digest('base64'), first.info.sha512)
  assert.equal((await electronUpdaterCheck(feed, '1.2.0', platform)).available, false)
}

before(async () => {
  assert.ok(rules.size > 0, `no nginx blocks in ${GUIDES}`)
  for (const guide of rules.keys()) ports.set(guide, await freePort())
  // Download links in Ferry's answers point at the proxy, as FERRY_PUBLIC_URL does in production.
  const publicUrl = `http://127.0.0.1:${[...ports.values()][0] ?? 0}`
  ferryServer = await startTestServer(10 * 1024 * 1024, { publicUrl })
  const f = httpFetch(ferryServer.url)
  const admin = (await signup(f, 'ops@harbor.test')).token
  for (const [path, payload] of [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'squirrel-windows' }],
    ['/v1/platforms', { name: 'darwin', updater: 'electron-builtin' }],
    ['/v1/platforms', { name: 'linux', updater: 'electron-updater' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/apps', { slug: 'harbor-notes', name: 'Harbor Notes' }],
  ] as const) {
    const res = await f(path, jsonBody(payload, admin))
    assert.equal(res.status, 201, await res.text())
  }
  const created = await f(
    '/v1/team/tokens',
    jsonBody({ name: 'import', permissions: { apps: { upload: { enabled: true } } } }, admin),
  )
  const { token }: { token: string } = await created.json()
  // The releases the guides import: three versions for Windows (NSIS and Squirrel), macOS and Linux.
  work = mkdtempSync(join(tmpdir(), 'ferry-rewrites-'))
  for (const v of VERSIONS) releaseAssets(join(work, `v${v}`), v, body)
  const imported = await ferry(['import', work, '--app', 'harbor-notes'], {
    FERRY_URL: ferryServer.url,
    FERRY_TOKEN: token,
  })
  assert.equal(imported.code, 0, imported.stderr)

  const upstream = new URL(ferryServer.url).host
  nginx = await startNginx(
    [...rules].map(([guide, code]) => ({
      port: ports.get(guide) ?? 0,
      body: `${code.replaceAll(GUIDE_UPSTREAM, upstream)}\nlocation / { return 404; }`,
    })),
  )
})

after(async () => {
  await nginx?.stop()
  await ferryServer?.stop()
  if (work) rmSync(work, { recursive: true, force: true })
})

describe('GitHub Releases guide: Hazel and Nuts URLs', () => {
  const guide = 'github-releases'
  test('Squirrel.Mac: /update/{platform}/{version} in the platform spellings Hazel and Nuts accept, and Nuts channels', async () => {
    for (const platform of ['darwin', 'osx', 'mac', 'darwin_x64', 'osx_64'])
      await assertSquirrelMac((v) => on(guide, `/update/${platform}/${v}`))
    await assertSquirrelMac((v) => on(guide, `/update/channel/stable/osx/${v}`))
    assert.equal(
      (await fetch(on(guide, '/update/darwin_arm64/1.0.0'))).status,
      204,
      'no arm64 build imported: no update rather than an x64 one',
    )
  })
  test('Squirrel.Windows: RELEASES and packages under /update/win32/{version}, with and without a Nuts channel', async () => {
    await assertSquirrelWindows(on(guide, '/update/win32/1.0.0'))
    await assertSquirrelWindows(on(guide, '/update/channel/stable/win32/1.0.0'))
  })
  test("Hazel's /download/{platform} links", async () => {
    await assertLatest(on(guide, '/download/mac'), 'Notes-1.2.0.dmg')
    await assertLatest(on(guide, '/download/darwin'), 'Notes-1.2.0-mac.zip')
    await assertLatest(on(guide, '/download/win32'), 'Notes-Setup-1.2.0.exe')
    await assertLatest(on(guide, '/download/appimage'), 'Notes-1.2.0.AppImage')
  })
})

describe('electron-release-server guide', () => {
  const guide = 'electron-release-server'
  test('electron-updater: latest.yml, latest-mac.yml and the channel forms, read by electron-updater itself', async () => {
    await assertElectronUpdater(on(guide, '/update/win64/'), 'win32', 'Notes-Setup-1.2.0.exe')
    await assertElectronUpdater(on(guide, '/update/win/stable/'), 'win32', 'Notes-Setup-1.2.0.exe')
    await assertElectronUpdater(on(guide, '/update/osx/'), 'darwin', 'Notes-1.2.0-mac.zip')
    // autoUpdater.channel = 'stable' asks for stable.yml / stable-mac.yml.
    assert.match((await text(on(guide, '/update/win64/stable.yml'))).body, /^version: '1\.2\.0'$/m)
    const mac = (await text(on(guide, '/update/osx/stable-mac.yml'))).body
    assert.ok(mac.includes(createHash('sha512').update(body('Notes-1.2.0-mac.zip')).digest('base64')), mac)
  })
  test('Squirrel.Mac: /update/{platform}/{version}[/{channel}] in the platform names ERS accepts', async () => {
    for (const platform of ['osx', 'darwin', 'darwin_64', 'macos', 'mac'])
      await assertSquirrelMac((v) => on(guide, `/update/${platform}/${v}`))
    await assertSquirrelMac((v) => on(guide, `/update/osx/${v}/stable`))
  })
  test('Squirrel.Windows: RELEASES and packages with and without a channel, win32 and win64', async () => {
    await assertSquirrelWindows(on(guide, '/update/win32/1.0.0'))
    await assertSquirrelWindows(on(guide, '/update/win64/1.0.0/stable'))
    await assertSquirrelWindows(on(guide, '/update/windows_64/1.0.0'))
  })
  test('download links: /download/latest/{platform} and /download/channel/{channel}/{platform}', async () => {
    await assertLatest(on(guide, '/download/latest/osx'), 'Notes-1.2.0.dmg')
    await assertLatest(on(guide, '/download/latest/windows_64'), 'Notes-Setup-1.2.0.exe')
    await assertLatest(on(guide, '/download/latest/linux_64'), 'Notes-1.2.0.AppImage')
    await assertLatest(on(guide, '/download/channel/stable/osx'), 'Notes-1.2.0.dmg')
  })
})

describe('Nucleus guide', () => {
  const guide = 'nucleus'
  const channel = '/harbor-notes/d6f1a9c04e2b4b7f8a3c5e9d1f0b2a47'
  test('Squirrel.Windows: the feed /{app}/{channelId}/win32/{arch}, with and without a rollout folder', async () => {
    await assertSquirrelWindows(on(guide, `${channel}/win32/x64`))
    await assertSquirrelWindows(on(guide, `${channel}/win32/x64/47`))
  })
  test('latest-download links /{app}/{channelId}/latest/{platform}/{arch}/{appName}.{ext}', async () => {
    await assertLatest(on(guide, `${channel}/latest/darwin/x64/Harbor%20Notes.dmg`), 'Notes-1.2.0.dmg')
    await assertLatest(on(guide, `${channel}/latest/win32/x64/Harbor%20Notes.exe`), 'Notes-Setup-1.2.0.exe')
  })
  test('macOS RELEASES.json is not rewritten: its JSON-file format is not what Ferry answers', async () => {
    assert.equal((await fetch(on(guide, `${channel}/darwin/x64/RELEASES.json`))).status, 404)
    assert.equal(
      (await fetch(on(guide, `/harbor-notes/another-channel/win32/x64/RELEASES`))).status,
      404,
      'another channel id is not this one',
    )
  })
})

describe('static latest.yml folder guide', () => {
  const guide = 'static-folder'
  test('electron-updater reads latest.yml, latest-mac.yml and latest-linux.yml from the old folder URL', async () => {
    await assertElectronUpdater(on(guide, '/harbor-notes/'), 'win32', 'Notes-Setup-1.2.0.exe')
    await assertElectronUpdater(on(guide, '/harbor-notes/'), 'darwin', 'Notes-1.2.0-mac.zip')
    await assertElectronUpdater(on(guide, '/harbor-notes'), 'linux', 'Notes-1.2.0.AppImage')
  })
  test('a channel file (autoUpdater.channel) asks that channel, not stable', async () => {
    assert.match((await text(on(guide, '/harbor-notes/stable.yml'))).body, /^version: '1\.2\.0'$/m)
    // Nothing was published to beta: the answer names no newer version and no files.
    const beta = await text(on(guide, '/harbor-notes/beta-mac.yml'))
    assert.equal(beta.status, 200)
    assert.match(beta.body, /^version: '0\.0\.0'\nfiles: \[\]/)
  })
  test('Squirrel.Windows: RELEASES and the packages beside it', async () => {
    await assertSquirrelWindows(on(guide, '/harbor-notes'))
  })
  test('files the rules do not map are left to the old folder', async () => {
    assert.equal((await fetch(on(guide, '/harbor-notes/Notes-Setup-1.0.0.exe'))).status, 404)
  })
})
