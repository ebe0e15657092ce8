/**
 * `ferry import` against a real server: a folder per GitHub Release and a flat static folder become
 * published versions, oldest first, that old clients are then offered through their updaters' own
 * code; re-runs upload nothing, a changed file stops the import before any upload, a dry run sends
 * nothing, and an upload failing midway leaves a state the next run continues from.
 * Backends: `npm test` runs it on SQLite and files only; its server comes from `startTestServer`,
 * so `npx tsx tests/server/run-on-postgres.ts <this file>` runs it on PostgreSQL + S3 (not in CI).
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { electronUpdaterCheck } from '../server/clients/electron-updater.ts'
import { parseReleases, squirrelUpdate } from '../server/clients/squirrel-windows.ts'
import { bearer, httpFetch, jsonBody, signup, startTestServer, type Fetch, type TestServer } from '../server/helpers.ts'
import { ferry, releaseAssets, staticFolder, tauriBundle, write } from './fixtures.ts'

/** Small enough that one test can make an upload fail midway with a large file. */
const MAX_UPLOAD = 16 * 1024

let server: TestServer
let f: Fetch
let admin: string
let env: Record<string, string>
let work: string

interface Listed {
  version: string
  channel: string
  platform: string
  arch: string
  published: boolean
  rolloutPercentage: number
  createdAt: string
  artifacts: Array<{ fileName: string }>
}

async function versions(app: string): Promise<Listed[]> {
  const res = await f(`/v1/apps/${app}/versions?limit=100`, bearer(admin))
  assert.equal(res.status, 200)
  const body: { items: Listed[] } = await res.json()
  return body.items
}

const targets = (list: Listed[]) => list.map((v) => `${v.version} ${v.platform}/${v.arch}`).sort()
/** The `version channel platform/arch` of every line of the run that says `word`, in output order. */
const lines = (stdout: string, word: string) =>
  stdout
    .split('\n')
    .filter((l) => l.includes(`: ${word}`))
    .map((l) => l.split(':')[0])

before(async () => {
  server = await startTestServer(MAX_UPLOAD)
  f = httpFetch(server.url)
  admin = (await signup(f, 'ops@notes.test')).token
  for (const [path, body] of [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'squirrel-windows' }],
    ['/v1/platforms', { name: 'darwin', updater: 'electron-builtin' }],
    ['/v1/platforms', { name: 'linux', updater: 'electron-updater' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/archs', { name: 'arm64' }],
    ['/v1/apps', { slug: 'hist', name: 'Notes' }],
    ['/v1/apps', { slug: 'tapp', name: 'Tapp' }],
    ['/v1/apps', { slug: 'flat', name: 'Notes' }],
    ['/v1/apps', { slug: 'stop', name: 'Notes' }],
  ] as const) {
    const res = await f(path, jsonBody(body, admin))
    assert.equal(res.status, 201, await res.text())
  }
  const created = await f(
    '/v1/team/tokens',
    jsonBody({ name: 'import', permissions: { apps: { upload: { enabled: true } } } }, admin),
  )
  assert.equal(created.status, 201, await created.clone().text())
  const { token }: { token: string } = await created.json()
  env = { FERRY_URL: server.url, FERRY_TOKEN: token }
  work = mkdtempSync(join(tmpdir(), 'ferry-import-'))
})
after(async () => {
  await server.stop()
  rmSync(work, { recursive: true, force: true })
})

const releasesDir = () => join(work, 'releases')

test('one folder per release: imported oldest first in semver order, and old clients are offered the newest', async () => {
  // Name order is v1.10.0, v1.2.0, v1.9.0; semver order is 1.2.0, 1.9.0, 1.10.0.
  for (const v of ['1.10.0', '1.2.0', '1.9.0']) releaseAssets(join(releasesDir(), `v${v}`), v)
  write(releasesDir(), 'docs/README.md', 'release notes\n')
  const run = await ferry(['import', releasesDir(), '--app', 'hist'], env)
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /one folder per release, 3 versions \(1\.2\.0, 1\.9\.0, 1\.10\.0\), oldest first/)
  const order = lines(run.stdout, 'imported').map((l) => l?.split(' ')[0])
  assert.deepEqual(order, ['1.2.0', '1.2.0', '1.2.0', '1.9.0', '1.9.0', '1.9.0', '1.10.0', '1.10.0', '1.10.0'])
  assert.match(
    run.stdout,
    /^imported 3 versions \(9 uploads, .*\); already there 0 uploads; skipped 1 file:\n {2}docs\/ \(no installers, packages or bundles in it\)$/m,
  )

  const list = await versions('hist')
  assert.equal(list.length, 9)
  assert.ok(list.every((v) => v.published && v.rolloutPercentage === 100))
  const windows = list.find((v) => v.version === '1.2.0' && v.platform === 'windows')
  assert.deepEqual(windows?.artifacts.map((a) => a.fileName).sort(), [
    'Notes-1.2.0-full.nupkg',
    'Notes-Setup-1.2.0.exe',
    'Notes-Setup-1.2.0.exe.blockmap',
  ])

  // electron-updater on 1.2.0 finds 1.10.0 and the file it downloads has the SHA-512 the feed names.
  const check = await electronUpdaterCheck(
    `${server.url}/v1/apps/hist/electron-updater/stable/windows/x64/1.2.0`,
    '1.2.0',
    'win32',
  )
  assert.equal(check.available, true)
  assert.equal(check.info.version, '1.10.0')
  const [file] = check.files
  assert.ok(file)
  const bytes = Buffer.from(await (await fetch(file.url)).arrayBuffer())
  assert.equal(createHash('sha512').update(bytes).digest('base64'), file.info.sha512)
  assert.equal(bytes.toString(), 'bytes of Notes-Setup-1.10.0.exe\n')

  // Squirrel.Windows reads every imported package and picks the newest.
  const releases = parseReleases(
    await (await f('/v1/apps/hist/squirrel/stable/x64/RELEASES?localVersion=1.2.0')).text(),
  )
  assert.deepEqual(
    releases.map((r) => r.version),
    ['1.2.0', '1.9.0', '1.10.0'],
  )
  assert.equal(squirrelUpdate(releases, '1.2.0'), '1.10.0')
  const mac = await f('/v1/apps/hist/squirrel-mac/stable/x64?version=1.9.0')
  const macBody: { name: string; url: string } = await mac.json()
  assert.equal(macBody.name, '1.10.0')
  assert.match(macBody.url, /\/download$/)
})

test('re-running the import uploads nothing and reports every upload as already there', async () => {
  const before = await versions('hist')
  const run = await ferry(['import', releasesDir(), '--app', 'hist'], env)
  assert.equal(run.code, 0, run.stderr)
  assert.equal(lines(run.stdout, 'already there').length, 9)
  assert.deepEqual(lines(run.stdout, 'imported ('), [])
  assert.match(run.stdout, /^imported 0 versions \(0 uploads, 0 B\); already there 9 uploads/m)
  assert.deepEqual(targets(await versions('hist')), targets(before))
})

test('a release whose file changed since it was imported: exit 1 naming the file, nothing uploaded', async () => {
  const dir = join(work, 'changed')
  releaseAssets(join(dir, 'v1.9.0'), '1.9.0', (name) =>
    name.endsWith('.AppImage') ? 'rebuilt AppImage\n' : `bytes of ${name}\n`,
  )
  releaseAssets(join(dir, 'v1.11.0'), '1.11.0')
  const run = await ferry(['import', dir, '--app', 'hist'], env)
  assert.equal(run.code, 1, run.stdout + run.stderr)
  assert.match(
    run.stderr,
    /nothing uploaded: .*\n {2}linux\/x64: 1\.9\.0 is already on stable with other files:\n {4}Notes-1\.9\.0\.AppImage differs/,
  )
  assert.equal(
    (await versions('hist')).filter((v) => v.version === '1.11.0').length,
    0,
    'the new version was not uploaded either',
  )
})

test('a flat static folder: dry run plans per version from the file names, then the import serves old clients', async () => {
  const dir = join(work, 'static')
  staticFolder(dir, ['1.0.0', '1.1.0', '1.2.0'])

  const offline = await ferry(['import', dir, '--app', 'flat', '--dry-run'], {})
  assert.equal(offline.code, 0, offline.stderr)
  assert.match(offline.stdout, /one folder of several versions, 3 versions \(1\.0\.0, 1\.1\.0, 1\.2\.0\)/)
  assert.match(offline.stdout, /dry run: nothing is uploaded \(not compared with a server/)
  assert.deepEqual(lines(offline.stdout, 'would upload'), [
    '1.0.0 stable darwin/x64',
    '1.0.0 stable linux/x64',
    '1.0.0 stable windows/x64',
    '1.1.0 stable darwin/x64',
    '1.1.0 stable linux/x64',
    '1.1.0 stable windows/x64',
    '1.2.0 stable darwin/x64',
    '1.2.0 stable linux/x64',
    '1.2.0 stable windows/x64',
  ])
  assert.match(
    offline.stdout,
    /^1\.0\.0 stable windows\/x64: would upload \(3 files, \d+ B\)\n {4}Notes-1\.0\.0-full\.nupkg {2}\d+ B\n {4}Notes-Setup-1\.0\.0\.exe {2}\d+ B\n {4}Notes-Setup-1\.0\.0\.exe\.blockmap {2}\d+ B$/m,
  )
  assert.match(
    offline.stdout,
    /^would import 3 versions \(9 uploads, 561 B\); already there 0 uploads; skipped 2 files:\n {2}Notes-latest\.dmg \(no version in its name\)\n {2}Notes-Setup-0\.9\.0\.exe\.blockmap \(no installer or package of version 0\.9\.0 beside it\)$/m,
  )

  const planned = await ferry(['import', dir, '--app', 'flat', '--dry-run'], env)
  assert.equal(planned.code, 0, planned.stderr)
  assert.equal(lines(planned.stdout, 'would upload').length, 9)
  assert.equal((await versions('flat')).length, 0, 'a dry run uploads nothing')

  const run = await ferry(['import', dir, '--app', 'flat'], env)
  assert.equal(run.code, 0, run.stderr)
  assert.equal(lines(run.stdout, 'imported').length, 9)
  const list = await versions('flat')
  assert.deepEqual(
    list.filter((v) => v.platform === 'darwin').map((v) => v.artifacts.map((a) => a.fileName).sort()),
    [
      ['Notes-1.2.0-mac.zip', 'Notes-1.2.0.dmg'],
      ['Notes-1.1.0-mac.zip', 'Notes-1.1.0.dmg'],
      ['Notes-1.0.0-mac.zip', 'Notes-1.0.0.dmg'],
    ],
  )
  const check = await electronUpdaterCheck(
    `${server.url}/v1/apps/flat/electron-updater/stable/linux/x64/1.0.0`,
    '1.0.0',
    'linux',
  )
  assert.equal(check.info.version, '1.2.0')
  assert.equal(check.files[0]?.info.size, Buffer.byteLength('bytes of Notes-1.2.0.AppImage\n'))
  const after = await ferry(['import', dir, '--app', 'flat', '--dry-run'], env)
  assert.equal(lines(after.stdout, 'already there').length, 9)
})

test('one folder per release of Tauri bundles: versions from the dmg beside App.app.tar.gz, offered with their signatures', async () => {
  const dir = join(work, 'tauri-releases')
  for (const v of ['2.0.0', '2.1.0']) tauriBundle(join(dir, `app-v${v}`), v)
  const run = await ferry(['import', dir, '--app', 'tapp'], env)
  assert.equal(run.code, 0, run.stderr)
  assert.deepEqual(lines(run.stdout, 'imported'), [
    '2.0.0 stable darwin/arm64',
    '2.0.0 stable linux/x64',
    '2.0.0 stable windows/x64',
    '2.1.0 stable darwin/arm64',
    '2.1.0 stable linux/x64',
    '2.1.0 stable windows/x64',
  ])
  const res = await f('/v1/apps/tapp/tauri/stable/darwin/aarch64/2.0.0')
  assert.equal(res.status, 200)
  const update: { version: string; signature: string } = await res.json()
  assert.equal(update.version, '2.1.0')
  assert.equal(update.signature, 'signature of Tapp.app.tar.gz')
})

test('a folder with nothing importable: exit 2 saying what was expected', async () => {
  const empty = join(work, 'nothing')
  write(empty, 'README.md', 'our releases\n')
  const flat = await ferry(['import', empty, '--app', 'hist'], env)
  assert.equal(flat.code, 2, flat.stderr)
  assert.match(
    flat.stderr,
    /found nothing to import in .*nothing: expected one folder per release \(v1\.0\.0\/, v1\.1\.0\/, …/,
  )
  const nested = join(work, 'nested')
  write(nested, 'v1.0.0/notes.txt', 'no installers\n')
  const folders = await ferry(['import', nested, '--app', 'hist'], env)
  assert.equal(folders.code, 2, folders.stderr)
  assert.match(folders.stderr, /found nothing to import .*; v1\.0\.0\/ \(no installers, packages or bundles in it\)/)
  const missing = await ferry(['import', join(work, 'nowhere'), '--app', 'hist'], env)
  assert.equal(missing.code, 2)
  assert.match(missing.stderr, /nowhere is not a folder/)
  const noApp = await ferry(['import', empty], env)
  assert.equal(noApp.code, 2)
  assert.match(noApp.stderr, /--app <slug> is required/)
  assert.equal((await ferry(['import', '--help'], {})).code, 0)
})

test('an upload failing midway stops with what to do, and the next run continues where it stopped', async () => {
  const dir = join(work, 'midway')
  releaseAssets(join(dir, 'v1.0.0'), '1.0.0')
  const big = (name: string) => (name.endsWith('.AppImage') ? 'x'.repeat(MAX_UPLOAD * 2) : `bytes of ${name}\n`)
  releaseAssets(join(dir, 'v1.1.0'), '1.1.0', big)
  const run = await ferry(['import', dir, '--app', 'stop'], env)
  assert.equal(run.code, 1, run.stdout + run.stderr)
  assert.match(run.stderr, /import stopped at 1\.1\.0 stable linux\/x64: POST \/v1\/apps\/stop\/versions: .*\(413\)/)
  assert.match(run.stderr, /4 uploads before it went through and stay; run the same command again to continue/)
  assert.deepEqual(targets(await versions('stop')), [
    '1.0.0 darwin/x64',
    '1.0.0 linux/x64',
    '1.0.0 windows/x64',
    '1.1.0 darwin/x64',
  ])

  // The cause fixed (a smaller build of the same release), the same command finishes the job.
  rmSync(join(dir, 'v1.1.0'), { recursive: true })
  releaseAssets(join(dir, 'v1.1.0'), '1.1.0')
  const again = await ferry(['import', dir, '--app', 'stop'], env)
  assert.equal(again.code, 0, again.stderr)
  assert.deepEqual(lines(again.stdout, 'imported ('), ['1.1.0 stable linux/x64', '1.1.0 stable windows/x64'])
  assert.equal(lines(again.stdout, 'already there').length, 4)
  assert.equal((await versions('stop')).length, 6)
})
