/**
 * No upload can break a feed. Squirrel.Windows' RELEASES and Velopack's feed carry `.nupkg` names
 * as bare paths (and Squirrel reads the version from the name), so a name either client would
 * misread is refused at upload, naming the file and the rule; a name stored before that check is
 * left out of the feed instead of breaking it. Every other name is carried encoded: odd but legal
 * names reach each updater's own client code and download byte for byte.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { electronUpdaterCheck } from './clients/electron-updater.ts'
import { chooseItem, parseAppcast } from './clients/sparkle.ts'
import { parseReleases, squirrelUpdate } from './clients/squirrel-windows.ts'
import { checkForUpdate as tauriCheck } from './clients/tauri.ts'
import { velopackCheck, velopackDownload } from './clients/velopack.ts'
import {
  bearer,
  expectProblem,
  httpFetch,
  jsonBody,
  memoryApp,
  signup,
  startTestServer,
  uploadForm,
  type Fetch,
  type TestServer,
} from './helpers.ts'

let server: TestServer
let f: Fetch
let token: string
const bytes = (name: string) => `bytes of ${name}`

async function upload(
  version: string,
  platform: string,
  arch: string,
  files: string[],
  fetchApp: Fetch = f,
  auth = token,
) {
  return fetchApp(
    '/v1/apps/odd/versions',
    bearer(auth, {
      method: 'POST',
      body: uploadForm(
        { version, channel: 'stable', platform, arch, published: 'true' },
        files.map((n) => [n, n.endsWith('.sig') ? 'c2lnbmF0dXJl' : bytes(n)]),
      ),
    }),
  )
}

async function setUp(fetchApp: Fetch): Promise<string> {
  const auth = (await signup(fetchApp, 'odd@names.test')).token
  for (const [path, body] of [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'squirrel-windows' }],
    ['/v1/platforms', { name: 'darwin', updater: 'electron-builtin' }],
    ['/v1/platforms', { name: 'linux', updater: 'tauri' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/archs', { name: 'arm64' }],
    ['/v1/apps', { slug: 'odd', name: 'Odd' }],
  ] as const)
    assert.equal((await fetchApp(path, jsonBody(body, auth))).status, 201)
  return auth
}

before(async () => {
  server = await startTestServer()
  f = httpFetch(server.url)
  token = await setUp(f)
})
after(() => server.stop())

test('a .nupkg name a Squirrel.Windows or Velopack feed would misread is refused, naming the file and the rule', async () => {
  const charset = /may hold only letters, digits, '\.', '_', '\+' and '-'/
  const versioned = /must be named <id>-1\.0\.0\[-full\|-delta\]\.nupkg/
  const cases: Array<[string, RegExp]> = [
    ['odd 1.0.0-full.nupkg', charset],
    ['odd#1-1.0.0-full.nupkg', charset],
    ['odd%20x-1.0.0-full.nupkg', charset],
    ['odd?x-1.0.0-full.nupkg', charset],
    ['ödd-1.0.0-full.nupkg', charset],
    ['odd;x-1.0.0-full.nupkg', charset],
    ['-odd-1.0.0-full.nupkg', charset],
    ['odd\u00a0-1.0.0-full.nupkg', charset],
    ['odd-full.nupkg', versioned],
    ['odd-2.0.0-full.nupkg', versioned],
    ['odd-1.0.00-full.nupkg', versioned],
  ]
  for (const [name, rule] of cases) {
    const problem = await expectProblem(await upload('1.0.0', 'windows', 'x64', [name]), 400, 'validation')
    const message = problem.errors?.find((e) => e.field === 'files')?.message ?? ''
    assert.ok(message.includes(JSON.stringify(name)), `the problem names ${name}: ${message}`)
    assert.match(message, rule, name)
  }
  // Nothing of the refused uploads is listed: the feed is still empty, and a good name goes in.
  assert.equal(await (await f('/v1/apps/odd/squirrel/stable/x64/RELEASES')).text(), '')
  assert.equal((await upload('1.0.0', 'windows', 'x64', ['Odd_App.Core-1.0.0-full.nupkg'])).status, 201)
  assert.equal(
    (await upload('1.1.0', 'windows', 'x64', ['Odd_App.Core-1.1.0-full.nupkg', 'Odd_App.Core-1.1.0-delta.nupkg']))
      .status,
    201,
  )
  const entries = parseReleases(await (await f('/v1/apps/odd/squirrel/stable/x64/RELEASES?localVersion=1.0.0')).text())
  assert.deepEqual(
    entries.map((e) => [e.fileName, e.version]),
    [
      ['Odd_App.Core-1.0.0-full.nupkg', '1.0.0'],
      ['Odd_App.Core-1.1.0-delta.nupkg', '1.1.0'],
      ['Odd_App.Core-1.1.0-full.nupkg', '1.1.0'],
    ],
  )
  assert.equal(squirrelUpdate(entries, '1.0.0'), '1.1.0')
  const source = `${server.url}/v1/apps/odd/velopack/stable/windows/x64`
  const check = await velopackCheck(source, {
    id: 'Odd_App.Core',
    version: '1.0.0',
    channel: 'win',
    stagingId: 'velopack-odd-0001',
  })
  assert.ok(check.update)
  assert.equal(
    new TextDecoder().decode(await velopackDownload(source, check.update.TargetFullRelease)),
    bytes('Odd_App.Core-1.1.0-full.nupkg'),
  )
})

test('odd but legal names reach every other updater encoded, and download byte for byte', async () => {
  const odd = (ext: string) => `Odd App 2.0.0 #1 (100%) & ü?${ext}`
  const windows = [odd('.exe')]
  const mac = [odd('.zip'), `${odd('.zip')}.edsig`]
  const linux = [odd('.AppImage'), `${odd('.AppImage')}.sig`]
  for (const [platform, arch, files] of [
    ['windows', 'x64', windows],
    ['darwin', 'arm64', mac],
    ['linux', 'x64', linux],
  ] as const) {
    const res = await upload('2.0.0', platform, arch, [...files])
    assert.equal(res.status, 201, await res.clone().text())
  }
  const same = async (url: URL | string, name: string) => {
    const res = await fetch(url)
    assert.equal(res.status, 200, `${url}`)
    assert.equal(await res.text(), bytes(name), `${name} downloads from ${url}`)
  }
  // electron-updater's own generic provider resolves the file URL from latest.yml.
  const yml = await electronUpdaterCheck(
    `${server.url}/v1/apps/odd/electron-updater/stable/windows/x64/1.0.0`,
    '1.0.0',
    'win32',
  )
  assert.equal(yml.available, true)
  await same(yml.files[0]?.url ?? '', odd('.exe'))
  // Squirrel.Mac's JSON.
  const mac1 = (await (await f('/v1/apps/odd/squirrel-mac/stable/arm64?version=1.0.0')).json()) as { url: string }
  await same(mac1.url, odd('.zip'))
  // Sparkle's appcast, read with Sparkle's rules.
  const appcast = new URL(`${server.url}/v1/apps/odd/sparkle/stable/darwin/arm64/appcast.xml?version=1.0.0`)
  const choice = chooseItem(parseAppcast(await (await fetch(appcast)).text(), appcast), {
    version: '1.0.0',
    osVersion: '14.5',
  })
  assert.ok(choice.item)
  await same(choice.item.fileURL, odd('.zip'))
  // Tauri's updater plugin.
  const tauri = await tauriCheck(`${server.url}/v1/apps/odd/tauri/stable/{{target}}/{{arch}}/{{current_version}}`, {
    currentVersion: '1.0.0',
    target: 'linux',
    arch: 'x86_64',
  })
  assert.ok(tauri)
  await same(tauri.downloadUrl, odd('.AppImage'))
})

test('a package name stored before uploads were checked is left out of the feeds, not breaking them', async () => {
  const m = await memoryApp()
  const auth = await setUp(m.fetch)
  assert.equal((await upload('1.0.0', 'windows', 'x64', ['odd-1.0.0-full.nupkg'], m.fetch, auth)).status, 201)
  assert.equal(
    (await upload('1.1.0', 'windows', 'x64', ['odd-1.1.0-full.nupkg', 'odd-1.1.0-delta.nupkg'], m.fetch, auth)).status,
    201,
  )
  await m.db
    .updateTable('artifacts')
    .set({ file_name: 'odd 1.1.0-delta.nupkg' })
    .where('file_name', '=', 'odd-1.1.0-delta.nupkg')
    .execute()
  await m.db
    .updateTable('artifacts')
    .set({ file_name: 'odd-1.0.0-full#old.nupkg' })
    .where('file_name', '=', 'odd-1.0.0-full.nupkg')
    .execute()
  const releases = await (await m.fetch('/v1/apps/odd/squirrel/stable/x64/RELEASES')).text()
  assert.deepEqual(
    parseReleases(releases).map((e) => e.fileName),
    ['odd-1.1.0-full.nupkg'],
  )
  const feed = (await (
    await m.fetch('/v1/apps/odd/velopack/stable/windows/x64/releases.win.json?localVersion=1.0.0')
  ).json()) as { Assets: Array<{ FileName: string }> }
  assert.deepEqual(
    feed.Assets.map((a) => a.FileName),
    ['odd-1.1.0-full.nupkg'],
  )
})

test('a dotted prerelease is refused for Squirrel.Windows, whose SemVer 1.0 reader would refuse the whole RELEASES, and kept for Velopack', async () => {
  const refused = await expectProblem(
    await upload('1.2.0-beta.1', 'windows', 'x64', ['Odd_App.Core-1.2.0-beta.1-full.nupkg']),
    400,
    'validation',
  )
  assert.match(
    refused.errors?.find((e) => e.field === 'files')?.message ?? '',
    /Squirrel\.Windows.*no dots \(beta1, not beta\.1\)/,
  )
  assert.equal((await upload('1.2.0-beta1', 'windows', 'x64', ['Odd_App.Core-1.2.0-beta1-full.nupkg'])).status, 201)
  assert.ok(
    parseReleases(await (await f('/v1/apps/odd/squirrel/stable/x64/RELEASES')).text()).some(
      (e) => e.version === '1.2.0-beta1',
    ),
  )
  assert.equal((await f('/v1/platforms', jsonBody({ name: 'win-velopack', updater: 'velopack' }, token))).status, 201)
  assert.equal(
    (await upload('1.2.0-beta.1', 'win-velopack', 'x64', ['Odd_App.Core-1.2.0-beta.1-full.nupkg'])).status,
    201,
  )
  const source = `${server.url}/v1/apps/odd/velopack/stable/win-velopack/x64`
  const check = await velopackCheck(source, {
    id: 'Odd_App.Core',
    version: '1.0.0',
    channel: 'win',
    stagingId: 'velopack-odd-0002',
  })
  assert.equal(check.update?.TargetFullRelease.Version, '1.2.0-beta.1')
  // Squirrel.Windows asking the Velopack platform still gets a RELEASES it can read: the entry is left out.
  const releases = await (
    await f('/v1/apps/odd/update?version=1.0.0&platform=win-velopack&arch=x64&format=squirrel-windows')
  ).text()
  assert.deepEqual(
    parseReleases(releases).map((e) => e.version),
    [],
  )
})
