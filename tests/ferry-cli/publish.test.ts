/**
 * `ferry publish` against a real server: electron-builder and Tauri outputs become one version per
 * platform/arch that the updaters are then offered; re-runs are no-ops; changed files, missing
 * catalog entries, bad flags and an unreachable server fail with the exit code a CI can act on.
 * Backends: `npm test` runs it on SQLite and files only; its server comes from `startTestServer`,
 * so `npx tsx tests/server/run-on-postgres.ts <this file>` runs it on PostgreSQL + S3 (not in CI).
 */
import assert from 'node:assert/strict'
import { createServer } from 'node:net'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { electronUpdaterCheck } from '../server/clients/electron-updater.ts'
import { parseReleases } from '../server/clients/squirrel-windows.ts'
import { bearer, httpFetch, jsonBody, signup, startTestServer, type Fetch, type TestServer } from '../server/helpers.ts'
import { electronBuilderDist, ferry, tauriBundle, write } from './fixtures.ts'

let server: TestServer
let f: Fetch
let admin: string
let env: Record<string, string>
let work: string

interface Listed {
  id: string
  version: string
  channel: string
  platform: string
  arch: string
  published: boolean
  critical: boolean
  rolloutPercentage: number
  changelog: string
  artifacts: Array<{ fileName: string }>
}

async function versions(app: string): Promise<Listed[]> {
  const res = await f(`/v1/apps/${app}/versions?limit=100`, bearer(admin))
  assert.equal(res.status, 200)
  const body: { items: Listed[] } = await res.json()
  return body.items
}

const targets = (list: Listed[]) => list.map((v) => `${v.version} ${v.channel} ${v.platform}/${v.arch}`).sort()

before(async () => {
  server = await startTestServer()
  f = httpFetch(server.url)
  admin = (await signup(f, 'ci@notes.test')).token
  for (const [path, body] of [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/channels', { name: 'beta' }],
    ['/v1/platforms', { name: 'windows', updater: 'electron-updater' }],
    ['/v1/platforms', { name: 'darwin', updater: 'electron-updater' }],
    ['/v1/platforms', { name: 'linux', updater: 'tauri' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/archs', { name: 'arm64' }],
    ['/v1/apps', { slug: 'notes', name: 'Notes' }],
    ['/v1/apps', { slug: 'tapp', name: 'Tapp' }],
    ['/v1/apps', { slug: 'drafty', name: 'Drafty' }],
  ] as const) {
    const res = await f(path, jsonBody(body, admin))
    assert.equal(res.status, 201, await res.text())
  }
  const created = await f(
    '/v1/team/tokens',
    jsonBody({ name: 'ci', permissions: { apps: { upload: { enabled: true }, edit: { enabled: true } } } }, admin),
  )
  assert.equal(created.status, 201, await created.clone().text())
  const { token }: { token: string } = await created.json()
  env = { FERRY_URL: server.url, FERRY_TOKEN: token }
  work = mkdtempSync(join(tmpdir(), 'ferry-cli-'))
})
after(async () => {
  await server.stop()
  rmSync(work, { recursive: true, force: true })
})

function assertNoToken(...outputs: string[]) {
  for (const out of outputs) assert.ok(!out.includes(env.FERRY_TOKEN ?? 'unset'), `the token leaked:\n${out}`)
}

test('electron-builder dist/: one version per platform/arch, offered by electron-updater and Squirrel.Windows', async () => {
  const dist = join(work, 'eb-1.2.0')
  electronBuilderDist(dist, '1.2.0')
  const run = await ferry(['publish', dist, '--app', 'notes', '--notes', 'Tags for notes'], env)
  assert.equal(run.code, 0, run.stderr)
  assertNoToken(run.stdout, run.stderr)
  assert.match(run.stdout, /electron-builder output, version 1\.2\.0, channel stable/)
  for (const t of ['darwin/arm64', 'linux/x64', 'windows/x64'])
    assert.match(run.stdout, new RegExp(`^${t}: uploaded 1\\.2\\.0 .*published$`, 'm'))
  assert.match(run.stderr, /skipped Notes Setup 1\.0\.0\.exe \(version 1\.0\.0\)/)

  const list = await versions('notes')
  assert.deepEqual(targets(list), ['1.2.0 stable darwin/arm64', '1.2.0 stable linux/x64', '1.2.0 stable windows/x64'])
  const files = (platform: string) =>
    list
      .find((v) => v.platform === platform)
      ?.artifacts.map((a) => a.fileName)
      .sort()
  assert.deepEqual(files('windows'), [
    'Notes Setup 1.2.0.exe',
    'Notes Setup 1.2.0.exe.blockmap',
    'Notes-1.2.0-delta.nupkg',
    'Notes-1.2.0-full.nupkg',
  ])
  assert.deepEqual(files('darwin'), [
    'Notes-1.2.0-arm64-mac.zip',
    'Notes-1.2.0-arm64-mac.zip.blockmap',
    'Notes-1.2.0-arm64.dmg',
    'Notes-1.2.0-arm64.dmg.blockmap',
  ])
  assert.deepEqual(files('linux'), ['Notes-1.2.0.AppImage', 'notes_1.2.0_amd64.deb'])
  assert.ok(list.every((v) => v.published && v.changelog === 'Tags for notes'))

  // electron-updater's own provider downloads the files and checks their SHA-512 against the feed.
  for (const [platform, ferryPlatform, arch] of [
    ['win32', 'windows', 'x64'],
    ['darwin', 'darwin', 'arm64'],
  ] as const) {
    const check = await electronUpdaterCheck(
      `${server.url}/v1/apps/notes/electron-updater/stable/${ferryPlatform}/${arch}/1.0.0`,
      '1.0.0',
      platform,
    )
    assert.equal(check.available, true)
    assert.equal(check.info.version, '1.2.0')
    assert.ok(check.files.length > 0)
  }
  const releases = parseReleases(await (await f('/v1/apps/notes/squirrel/stable/x64/RELEASES')).text())
  assert.deepEqual(
    releases.map((r) => r.version),
    ['1.2.0', '1.2.0'],
  )
})

test('re-running publish uploads nothing and says "already published"', async () => {
  const before = await versions('notes')
  const run = await ferry(['publish', join(work, 'eb-1.2.0'), '--app', 'notes'], env)
  assert.equal(run.code, 0, run.stderr)
  for (const t of ['darwin/arm64', 'linux/x64', 'windows/x64'])
    assert.match(run.stdout, new RegExp(`^${t}: 1\\.2\\.0 already published`, 'm'))
  assert.deepEqual(targets(await versions('notes')), targets(before))
})

test('a changed file of a published version: exit 1 naming it, nothing uploaded', async () => {
  const dist = join(work, 'eb-1.2.0-rebuilt')
  electronBuilderDist(dist, '1.2.0', (name) =>
    name.endsWith('.AppImage') ? 'rebuilt AppImage\n' : `bytes of ${name}\n`,
  )
  const run = await ferry(['publish', dist, '--app', 'notes'], env)
  assert.equal(run.code, 1, run.stdout + run.stderr)
  assert.match(run.stderr, /linux\/x64: 1\.2\.0 is already on stable with other files/)
  assert.match(run.stderr, /Notes-1\.2\.0\.AppImage differs/)
  assert.doesNotMatch(run.stdout, /uploaded/)
  assert.equal((await versions('notes')).length, 3)
})

test('a file that does not match latest.yml: exit 2 before anything is sent', async () => {
  const dist = join(work, 'eb-mixed')
  electronBuilderDist(dist, '1.3.0')
  writeFileSync(join(dist, 'Notes-1.3.0.AppImage'), 'another build\n')
  const run = await ferry(['publish', dist, '--app', 'notes'], env)
  assert.equal(run.code, 2, run.stderr)
  assert.match(run.stderr, /Notes-1\.3\.0\.AppImage does not match latest-linux\.yml/)
})

test('a channel or architecture the team lacks: exit 1 naming it and the request that creates it', async () => {
  const dist = join(work, 'eb-nightly')
  electronBuilderDist(dist, '1.3.0')
  write(dist, 'Notes-1.3.0-armv7l.AppImage', 'arm\n')
  const run = await ferry(['publish', dist, '--app', 'notes', '--channel', 'nightly'], env)
  assert.equal(run.code, 1, run.stderr)
  assert.match(
    run.stderr,
    /channel "nightly"; create it with\n\s+curl -X POST http:\/\/127\.0\.0\.1:\d+\/v1\/channels .*"name":"nightly"/,
  )
  assert.match(run.stderr, /architecture "armv7l"; create it with\n\s+curl -X POST .*\/v1\/archs/)
  assert.doesNotMatch(run.stderr, /platform "/)
  assertNoToken(run.stdout, run.stderr)
})

test('beta.yml names the channel', async () => {
  const dist = join(work, 'eb-beta')
  electronBuilderDist(dist, '2.0.0-beta.1', undefined, 'beta')
  const run = await ferry(['publish', dist, '--app', 'notes'], env)
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /version 2\.0\.0-beta\.1, channel beta/)
  assert.equal((await versions('notes')).filter((v) => v.channel === 'beta').length, 3)
})

test('Tauri bundle/: signed bundles per platform, offered by the Tauri endpoint with their signature', async () => {
  const target = join(work, 'tauri', 'target', 'aarch64-apple-darwin', 'release')
  tauriBundle(target, '2.0.0')
  const run = await ferry(['publish', target, '--app', 'tapp', '--rollout', '100', '--critical'], env)
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /tauri output, version 2\.0\.0, channel stable/)
  const list = await versions('tapp')
  assert.deepEqual(targets(list), ['2.0.0 stable darwin/arm64', '2.0.0 stable linux/x64', '2.0.0 stable windows/x64'])
  const mac = list.find((v) => v.platform === 'darwin')
  assert.deepEqual(mac?.artifacts.map((a) => a.fileName).sort(), [
    'Tapp.app.tar.gz',
    'Tapp.app.tar.gz.sig',
    'Tapp_2.0.0_aarch64.dmg',
  ])
  assert.ok(list.every((v) => v.critical))
  for (const [target, arch, sig] of [
    ['darwin', 'aarch64', 'Tapp.app.tar.gz'],
    ['linux', 'x86_64', 'tapp_2.0.0_amd64.AppImage'],
    ['windows', 'x86_64', 'Tapp_2.0.0_x64-setup.exe'],
  ]) {
    const res = await f(`/v1/apps/tapp/tauri/stable/${target}/${arch}/1.0.0`)
    assert.equal(res.status, 200, `${target}/${arch}`)
    const body: { version: string; signature: string } = await res.json()
    assert.equal(body.version, '2.0.0')
    assert.equal(body.signature, `signature of ${sig}`)
  }
})

test('--draft, then promote, rollout and status', async () => {
  const dist = join(work, 'drafty')
  write(dist, 'Drafty Setup 3.1.0.exe', 'drafty\n')
  const draft = await ferry(['publish', dist, '--app', 'drafty', '--draft', '--rollout', '10'], env)
  assert.equal(draft.code, 0, draft.stderr)
  assert.match(draft.stdout, /windows\/x64: uploaded 3\.1\.0 \(1 file, 7 B\), draft/)
  const again = await ferry(['publish', dist, '--app', 'drafty'], env)
  assert.match(again.stdout, /already uploaded as a draft \(ferry promote publishes it\)/)
  assert.equal(
    (await f('/v1/apps/drafty/update?version=3.0.0&platform=windows&arch=x64&format=ferry')).status,
    204,
    'a draft is not offered',
  )

  const promoted = await ferry(['promote', 'drafty', '3.1.0', '--rollout', '50'], env)
  assert.equal(promoted.code, 0, promoted.stderr)
  assert.equal(promoted.stdout.trim(), 'windows/x64 on stable: 3.1.0 published, rollout 50 %')
  const twice = await ferry(['promote', 'drafty', '3.1.0'], env)
  assert.equal(twice.stdout.trim(), 'windows/x64 on stable: 3.1.0 is already published (rollout 50 %)')

  const rolled = await ferry(['rollout', 'drafty', '3.1.0', '100', '--platform', 'windows'], env)
  assert.equal(rolled.code, 0, rolled.stderr)
  assert.equal(rolled.stdout.trim(), 'windows/x64 on stable: 3.1.0 rollout 50 % → 100 %')
  const [version] = await versions('drafty')
  assert.equal(version?.published, true)
  assert.equal(version?.rolloutPercentage, 100)
  const offered = await f('/v1/apps/drafty/update?version=3.0.0&platform=windows&arch=x64&format=ferry')
  assert.equal(offered.status, 200)

  const missing = await ferry(['rollout', 'drafty', '9.9.9', '5'], env)
  assert.equal(missing.code, 1)
  assert.match(missing.stderr, /app drafty has no version 9\.9\.9/)

  const table = await ferry(['status', 'drafty'], env)
  assert.equal(table.code, 0, table.stderr)
  const lines = table.stdout.trimEnd().split('\n')
  assert.match(
    lines[0] ?? '',
    /^VERSION\s+CHANNEL\s+PLATFORM\/ARCH\s+PUBLISHED\s+ROLLOUT\s+CRITICAL\s+CREATED\s+STATE$/,
  )
  assert.match(lines[1] ?? '', /^3\.1\.0\s+stable\s+windows\/x64\s+yes\s+100 %\s+no\s+\d{4}-\d\d-\d\dT/)
  const json = await ferry(['status', 'drafty', '--json', '--channel', 'stable'], env)
  const parsed: Array<{
    version: string
    published: boolean
    rolloutPercentage: number
    files: Array<{ name: string; sha256: string }>
  }> = JSON.parse(json.stdout)
  assert.deepEqual(
    parsed.map((v) => [v.version, v.published, v.rolloutPercentage, v.files[0]?.name]),
    [['3.1.0', true, 100, 'Drafty Setup 3.1.0.exe']],
  )
  assertNoToken(draft.stdout, draft.stderr, promoted.stdout, table.stdout, json.stdout)

  // A ramp instead of a percentage; status tells where it stands, and that a paused one is paused.
  const ramped = await ferry(['rollout', 'drafty', '3.1.0', '5,50,100', '--every', '2h'], env)
  assert.equal(ramped.code, 0, ramped.stderr)
  assert.equal(ramped.stdout.trim(), 'windows/x64 on stable: 3.1.0 ramp 5 % → 50 % → 100 %, a step every 2 h; now 5 %')
  const rampTable = (await ferry(['status', 'drafty'], env)).stdout.trimEnd().split('\n')
  assert.match(rampTable[1] ?? '', /\s5 %\s.*ramp step 1\/3, next \d{4}-\d\d-\d\dT/)
  const [rampedVersion] = await versions('drafty')
  await f(`/v1/apps/drafty/versions/${rampedVersion?.id}/pause`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.FERRY_TOKEN}`, 'content-type': 'application/json' },
    body: '{"reason":"Crash reports"}',
  })
  const pausedTable = (await ferry(['status', 'drafty'], env)).stdout.trimEnd().split('\n')
  assert.match(pausedTable[1] ?? '', /\s0 %\s.*paused: Crash reports$/)
  const pausedJson: Array<{ rollout: { paused: { reason: string } | null } }> = JSON.parse(
    (await ferry(['status', 'drafty', '--json'], env)).stdout,
  )
  assert.equal(pausedJson[0]?.rollout.paused?.reason, 'Crash reports')
})

test('usage errors exit 2 and name the flag', async () => {
  const dist = join(work, 'eb-1.2.0')
  const cases: Array<[string[], Record<string, string>, RegExp]> = [
    [['publish', dist, '--app', 'notes', '--bogus'], env, /Unknown option '--bogus'/],
    [['publish', dist], env, /--app <slug> is required/],
    [['publish', dist, '--app', 'notes', '--rollout', '150'], env, /--rollout must be a whole number from 0 to 100/],
    [['rollout', 'notes', '1.2.0'], env, /missing <percent>/],
    [['rollout', 'notes', '1.2.0', '1,10', '--every', 'soon'], env, /--every must be a duration like 30m/],
    [['rollout', 'notes', '1.2.0', '50,10'], env, /must not decrease/],
    [['rollout', 'notes', '1.2.0', '10', '--every', '1h'], env, /--every applies to a ramp/],
    [['publish', dist, '--app', 'notes'], { FERRY_URL: server.url }, /set FERRY_TOKEN/],
    [['status', 'notes'], { FERRY_TOKEN: env.FERRY_TOKEN ?? '' }, /pass --url or set FERRY_URL/],
    [['status', 'notes'], { ...env, FERRY_URL: 'not a url' }, /FERRY_URL is not a URL/],
    [['publish', join(work, 'nowhere'), '--app', 'notes'], env, /is not a folder/],
    [['deploy'], env, /unknown command "deploy"/],
  ]
  for (const [args, e, message] of cases) {
    const run = await ferry(args, e)
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`)
    assert.match(run.stderr, message)
  }
  const help = await ferry(['publish', '--help'], {})
  assert.equal(help.code, 0)
  assert.match(help.stdout, /Usage: ferry publish <dir> --app <slug>/)
})

test('the server refuses: exit 1 with its problem; unreachable: exit 3; the token is never printed', async () => {
  const bad = await ferry(['status', 'notes'], { ...env, FERRY_TOKEN: 'ferry_0123456789abcdefghijABCDEFGHIJ01' })
  assert.equal(bad.code, 1)
  assert.match(
    bad.stderr,
    /GET \/v1\/apps\/notes\/versions: Authentication required \(401\): The API token is not known/,
  )
  assert.ok(!bad.stderr.includes('ferry_0123456789'))
  const unknownApp = await ferry(['status', 'nope'], env)
  assert.equal(unknownApp.code, 1)
  assert.match(unknownApp.stderr, /Not found \(404\)/)

  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
  const down = await ferry(['publish', join(work, 'eb-1.2.0'), '--app', 'notes'], {
    ...env,
    FERRY_URL: `http://127.0.0.1:${port}`,
  })
  assert.equal(down.code, 3, down.stderr)
  assert.match(down.stderr, /cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/)
  assertNoToken(down.stdout, down.stderr)
})
