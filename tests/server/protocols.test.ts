/**
 * Every updater protocol through the real HTTP server, read the way its client reads it:
 * Squirrel.Windows' RELEASES regexes, Squirrel.Mac's JSON, electron-updater's own generic
 * provider, Tauri's required fields, Velopack's UpdateManager and Sparkle's appcast rules (both
 * redone from their sources in `clients/`). Intermediate, critical, rollout and drafts behave the
 * same in every protocol.
 */
import assert from 'node:assert/strict'
import { createHash, generateKeyPairSync, sign, verify } from 'node:crypto'
import { test } from 'node:test'
import semver from 'semver'
import { UPDATE_FORMATS } from '../../components/demo/update-formats.ts'
import { rolloutBucket } from '../../server/updates/update-logic.ts'
import { parseReleases, squirrelUpdate } from './clients/squirrel-windows.ts'
import { electronUpdaterCheck } from './clients/electron-updater.ts'
import { chooseItem, parseAppcast } from './clients/sparkle.ts'
import { velopackCheck, velopackDownload } from './clients/velopack.ts'
import { bearer, expectSpec, jsonBody, setUpTeam, uploadForm, withTeam } from './helpers.ts'

const bytes = (name: string) => new TextEncoder().encode(`bytes of ${name}`)
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

async function upload(
  app: string,
  version: string,
  target: { channel?: string; platform: string; arch: string },
  files: string[],
  flags: Record<string, string> = {},
) {
  const form = uploadForm(
    {
      version,
      channel: target.channel ?? 'stable',
      platform: target.platform,
      arch: target.arch,
      published: 'true',
      changelog: `Notes ${version}`,
      ...flags,
    },
    files.map((n) => [n, n.endsWith('.sig') ? `sig-of-${n.slice(0, -4)}` : bytes(n)]),
  )
  const res = await f(`/v1/apps/${app}/versions`, bearer(team.token, { method: 'POST', body: form }))
  assert.equal(res.status, 201, await res.text())
}

/** Files one version carries on each platform, as each toolchain produces them. */
const FILES = {
  windows: (v: string) => [
    `Proto-Setup-${v}.exe`,
    `Proto-Setup-${v}.exe.sig`,
    `proto-${v}-full.nupkg`,
    ...(v === '1.0.0' ? [] : [`proto-${v}-delta.nupkg`]),
  ],
  darwin: (v: string) => [`Proto-${v}-mac.zip`, `Proto-${v}.dmg`, `Proto_${v}.app.tar.gz`, `Proto_${v}.app.tar.gz.sig`],
  linux: (v: string) => [`Proto-${v}.AppImage`, `Proto-${v}.AppImage.sig`, `proto_${v}_amd64.deb`],
}
const ARCH = { windows: 'x64', darwin: 'arm64', linux: 'x64' } as const

const team = withTeam(
  (f) =>
    setUpTeam(f, 'proto@team.test', [
      ['/v1/channels', { name: 'stable' }],
      ['/v1/channels', { name: 'beta' }],
      ['/v1/platforms', { name: 'windows', updater: 'squirrel-windows' }],
      ['/v1/platforms', { name: 'darwin', updater: 'electron-builtin' }],
      ['/v1/platforms', { name: 'linux', updater: 'tauri' }],
      ['/v1/archs', { name: 'x64' }],
      ['/v1/archs', { name: 'arm64' }],
      ['/v1/archs', { name: 'ia32' }],
      ['/v1/apps', { slug: 'proto', name: 'Proto' }],
      ['/v1/apps', { slug: 'proto-private', name: 'Private', private: true }],
    ]),
  undefined,
  {},
  async () => {
    for (const platform of ['windows', 'darwin', 'linux'] as const) {
      const t = { platform, arch: ARCH[platform] }
      await upload('proto', '1.0.0', t, FILES[platform]('1.0.0'))
      await upload('proto', '1.1.0', t, FILES[platform]('1.1.0'), { intermediate: 'true' })
      await upload('proto', '1.2.0', t, FILES[platform]('1.2.0'), { critical: 'true' })
      await upload('proto', '1.3.0', t, FILES[platform]('1.3.0'))
      await upload('proto', '1.4.0', t, FILES[platform]('1.4.0'), { rolloutPercentage: '0' })
      await upload('proto', '1.5.0', t, FILES[platform]('1.5.0'), { published: 'false' })
      await upload('proto', '2.0.0', { ...t, channel: 'beta' }, FILES[platform]('2.0.0'))
      await upload('proto', '2.1.0', { ...t, channel: 'beta' }, FILES[platform]('2.1.0'), { rolloutPercentage: '50' })
    }
    await upload('proto-private', '1.0.0', { platform: 'darwin', arch: 'arm64' }, FILES.darwin('1.0.0'))
    await upload('proto-private', '1.1.0', { platform: 'darwin', arch: 'arm64' }, FILES.darwin('1.1.0'))
  },
)
const { f } = team

interface Seen {
  version: string | null
  critical?: boolean
}
type Client = (current: string, channel?: string, headers?: Record<string, string>) => Promise<Seen>

/** Each protocol's client, reading the answer the way that client does. */
const CLIENTS: Record<string, Client> = {
  async ferry(current, channel = 'stable', headers = {}) {
    const res = await f(
      `/v1/apps/proto/update?version=${current}&channel=${channel}&platform=windows&arch=x64&format=ferry`,
      { headers },
    )
    const body = (await expectSpec('checkForUpdate', res)) as { version: string; critical: boolean } | undefined
    return body ? { version: body.version, critical: body.critical } : { version: null }
  },
  async 'squirrel-windows'(current, channel = 'stable') {
    const res = await f(`/v1/apps/proto/squirrel/${channel}/x64/RELEASES?id=Proto&localVersion=${current}&arch=amd64`)
    const text = (await expectSpec('getSquirrelReleases', res, 200)) as string
    return { version: squirrelUpdate(parseReleases(text), current) }
  },
  async 'squirrel-mac'(current, channel = 'stable', headers = {}) {
    const res = await f(`/v1/apps/proto/squirrel-mac/${channel}/arm64?version=${current}`, { headers })
    if (res.status === 204) return { version: null }
    const body = (await expectSpec('getSquirrelMacUpdate', res, 200)) as { url: string; name: string; pub_date: string }
    assert.match(body.pub_date, RFC3339)
    const zip = await fetch(body.url)
    assert.equal(zip.status, 200)
    assert.match(zip.headers.get('content-disposition') ?? '', /\.zip"/, 'Squirrel.Mac needs a zip')
    return { version: body.name }
  },
  async 'electron-updater'(current, channel = 'stable') {
    const check = await electronUpdaterCheck(
      `${team.server.url}/v1/apps/proto/electron-updater/${channel}/windows/x64/${current}`,
      current,
      'win32',
    )
    return check.available ? { version: check.info.version, critical: check.info.critical === true } : { version: null }
  },
  async tauri(current, channel = 'stable', headers = {}) {
    const res = await f(`/v1/apps/proto/tauri/${channel}/linux/x86_64/${current}`, { headers })
    if (res.status === 204) return { version: null }
    const body = (await expectSpec('getTauriUpdate', res, 200)) as {
      version: string
      pub_date: string
      url: string
      signature: string
      critical: boolean
    }
    assert.ok(semver.valid(body.version), 'version must be semver')
    assert.match(body.pub_date, RFC3339)
    assert.ok(new URL(body.url))
    assert.ok(body.signature.length > 0)
    return { version: body.version, critical: body.critical }
  },
  async velopack(current, channel = 'stable', headers = {}) {
    const source = `${team.server.url}/v1/apps/proto/velopack/${channel}/windows/x64`
    // Velopack sends its per-install id as stagingId; Ferry buckets the device by it.
    const stagingId = headers['x-ferry-device-id'] ?? 'velopack-install-0001'
    const check = await velopackCheck(source, { id: 'proto', version: current, channel: 'win', stagingId })
    assert.equal(check.requested.pathname, `/v1/apps/proto/velopack/${channel}/windows/x64/releases.win.json`)
    if (!check.update) return { version: null }
    await velopackDownload(source, check.update.TargetFullRelease)
    return { version: check.update.TargetFullRelease.Version }
  },
  async sparkle(current, channel = 'stable', headers = {}) {
    const url = new URL(
      `${team.server.url}/v1/apps/proto/sparkle/${channel}/darwin/arm64/appcast.xml?version=${current}`,
    )
    const res = await f(url.pathname + url.search, { headers })
    const xml = (await expectSpec('getSparkleAppcast', res, 200)) as string
    const choice = chooseItem(parseAppcast(xml, url), { version: current, osVersion: '14.5' })
    if (!choice.item) return { version: null }
    const archive = await fetch(choice.item.fileURL)
    assert.equal(archive.status, 200)
    assert.equal(
      (await archive.arrayBuffer()).byteLength,
      choice.item.contentLength,
      'the enclosure length is the file size',
    )
    return { version: choice.item.versionString, critical: choice.critical }
  },
}
/** Protocols with no place for the critical flag. */
const NO_CRITICAL = new Set(['squirrel-windows', 'squirrel-mac', 'velopack'])

const TABLE: Array<[string, Seen]> = [
  ['1.0.0', { version: '1.1.0', critical: false }], // the intermediate gates everything above it
  ['1.1.0', { version: '1.3.0', critical: true }], // 1.2.0 is critical and skipped on the way
  ['1.2.0', { version: '1.3.0', critical: false }],
  ['1.3.0', { version: null }], // 1.4.0 is at 0 %, 1.5.0 a draft
  ['9.0.0', { version: null }],
]

for (const [protocol, client] of Object.entries(CLIENTS)) {
  test(`${protocol}: intermediate, critical, drafts and 0 % rollouts as in every protocol`, async () => {
    for (const [current, want] of TABLE) {
      const seen = await client(current)
      assert.equal(seen.version, want.version, `${protocol} from ${current}`)
      if (want.version && !NO_CRITICAL.has(protocol))
        assert.equal(seen.critical, want.critical, `${protocol} critical from ${current}`)
    }
  })
}

test('partial rollouts: Ferry buckets the device for Ferry JSON, Squirrel.Mac, Tauri, Velopack and Sparkle', async () => {
  let inside = ''
  let outside = ''
  for (let i = 0; !inside || !outside; i++) {
    const id = `device-${String(i).padStart(4, '0')}`
    if ((await rolloutBucket(id, '2.1.0')) < 50) inside ||= id
    else outside ||= id
  }
  for (const protocol of ['ferry', 'squirrel-mac', 'tauri', 'velopack', 'sparkle']) {
    const client = CLIENTS[protocol] as Client
    assert.equal(
      (await client('2.0.0', 'beta', { 'x-ferry-device-id': inside })).version,
      '2.1.0',
      `${protocol} inside`,
    )
    assert.equal((await client('2.0.0', 'beta', { 'x-ferry-device-id': outside })).version, null, `${protocol} outside`)
  }
})

test('partial rollouts: Squirrel.Windows gets "# N%" lines and stages itself', async () => {
  const text = await (await f('/v1/apps/proto/squirrel/beta/x64/RELEASES')).text()
  const entries = parseReleases(text)
  assert.deepEqual(
    entries.map((e) => [e.fileName, e.stagingPercentage]),
    [
      ['proto-2.0.0-delta.nupkg', null],
      ['proto-2.0.0-full.nupkg', null],
      ['proto-2.1.0-delta.nupkg', 50],
      ['proto-2.1.0-full.nupkg', 50],
    ],
  )
  assert.match(text, /^[0-9A-F]{40} proto-2\.1\.0-full\.nupkg \d+ # 50%$/m)
  assert.equal(
    squirrelUpdate(entries, '2.0.0', (p) => 10 < p),
    '2.1.0',
  )
  assert.equal(
    squirrelUpdate(entries, '2.0.0', (p) => 90 < p),
    null,
  )
})

test('partial rollouts: electron-updater gets stagingPercentage and stages itself', async () => {
  const check = await electronUpdaterCheck(
    `${team.server.url}/v1/apps/proto/electron-updater/beta/windows/x64/2.0.0`,
    '2.0.0',
    'win32',
  )
  assert.equal(check.info.version, '2.1.0')
  assert.equal(check.info.stagingPercentage, 50)
  const full = await electronUpdaterCheck(
    `${team.server.url}/v1/apps/proto/electron-updater/stable/windows/x64/1.2.0`,
    '1.2.0',
    'win32',
  )
  assert.equal(full.info.stagingPercentage, undefined, 'no stagingPercentage at 100 %')
})

test('Squirrel.Windows: RELEASES lines are "SHA1 filename size" of every full and delta package, and each package resolves', async () => {
  const text = await (await f('/v1/apps/proto/squirrel/stable/x64/RELEASES')).text()
  const entries = parseReleases(text)
  assert.deepEqual(
    entries.map((e) => e.fileName),
    [
      'proto-1.0.0-full.nupkg',
      'proto-1.1.0-delta.nupkg',
      'proto-1.1.0-full.nupkg',
      'proto-1.2.0-delta.nupkg',
      'proto-1.2.0-full.nupkg',
      'proto-1.3.0-delta.nupkg',
      'proto-1.3.0-full.nupkg',
    ],
    'oldest first, 0 % and drafts left out',
  )
  for (const e of entries) {
    const res = await f(`/v1/apps/proto/squirrel/stable/x64/${e.fileName}`)
    assert.equal(res.status, 302)
    const body = new Uint8Array(await (await fetch(res.headers.get('location') ?? '')).arrayBuffer())
    assert.equal(body.byteLength, e.size)
    assert.equal(createHash('sha1').update(body).digest('hex').toUpperCase(), e.sha1)
  }
  // With localVersion the feed stops at the version Ferry offers (the intermediate 1.1.0).
  const gated = parseReleases(await (await f('/v1/apps/proto/squirrel/stable/x64/RELEASES?localVersion=1.0.0')).text())
  assert.deepEqual([...new Set(gated.map((e) => e.version))], ['1.0.0', '1.1.0'])
})

test('electron-updater: the provider asks for latest.yml / latest-mac.yml / latest-linux.yml, and the files verify', async () => {
  for (const [platform, ferryPlatform, arch, file, first] of [
    ['win32', 'windows', 'x64', 'latest.yml', /\.exe"/],
    ['darwin', 'darwin', 'arm64', 'latest-mac.yml', /\.zip"/],
    ['linux', 'linux', 'x64', 'latest-linux.yml', /\.AppImage"/],
  ] as const) {
    const check = await electronUpdaterCheck(
      `${team.server.url}/v1/apps/proto/electron-updater/stable/${ferryPlatform}/${arch}/1.2.0`,
      '1.2.0',
      platform,
    )
    assert.ok(check.requested.endsWith(`/1.2.0/${file}`), check.requested)
    assert.equal(check.info.version, '1.3.0')
    assert.equal(check.info.releaseNotes, 'Notes 1.3.0')
    assert.match(check.info.releaseDate ?? '', RFC3339)
    assert.equal(check.info.path, check.info.files[0]?.url)
    assert.ok(check.info.files.every((x) => !/\.(sig|nupkg)$/.test(x.url)))
    for (const [i, resolved] of check.files.entries()) {
      const res = await fetch(resolved.url)
      if (i === 0) assert.match(res.headers.get('content-disposition') ?? '', first)
      const body = new Uint8Array(await res.arrayBuffer())
      assert.equal(resolved.info.size, body.byteLength)
      assert.equal(
        resolved.info.sha512,
        createHash('sha512').update(body).digest('base64'),
        'electron-updater checks base64 SHA-512',
      )
    }
  }
  const upToDate = await electronUpdaterCheck(
    `${team.server.url}/v1/apps/proto/electron-updater/stable/windows/x64/1.3.0`,
    '1.3.0',
    'win32',
  )
  assert.equal(upToDate.available, false)
  assert.equal(upToDate.info.version, '1.3.0')
})

test('Tauri: target and arch names map to Ferry names; only signed bundles are offered, with their signature', async () => {
  const res = await f('/v1/apps/proto/tauri/stable/linux/x86_64/1.2.0')
  const body = (await expectSpec('getTauriUpdate', res, 200)) as { url: string; signature: string }
  assert.equal(body.signature, 'sig-of-Proto-1.3.0.AppImage')
  assert.match((await fetch(body.url)).headers.get('content-disposition') ?? '', /Proto-1\.3\.0\.AppImage"/)
  const mac = (await expectSpec(
    'getTauriUpdate',
    await f('/v1/apps/proto/tauri/stable/darwin/aarch64/1.2.0'),
    200,
  )) as { signature: string }
  assert.equal(
    mac.signature,
    'sig-of-Proto_1.3.0.app.tar.gz',
    'darwin/aarch64 is Ferry darwin/arm64, the .app.tar.gz is preferred',
  )
  await expectSpec('getTauriUpdate', await f('/v1/apps/proto/tauri/stable/windows/i686/1.2.0'), 204) // ia32 has no versions
  // A newer version without a signature is not offered to Tauri (other protocols still get it).
  await upload('proto', '1.6.0', { platform: 'linux', arch: 'x64' }, ['Proto-1.6.0.AppImage'])
  await expectSpec('getTauriUpdate', await f('/v1/apps/proto/tauri/stable/linux/x86_64/1.3.0'), 204)
  const ferry = (await (
    await f('/v1/apps/proto/update?version=1.3.0&platform=linux&arch=x64&format=ferry')
  ).json()) as { version: string }
  assert.equal(ferry.version, '1.6.0')
})

test("the platform's updater is the default format; ?format= overrides it", async () => {
  const q = '/v1/apps/proto/update?version=1.2.0&arch=x64&platform='
  const win = await f(`${q}windows`)
  assert.equal(win.headers.get('content-type'), 'text/plain; charset=utf-8')
  assert.ok(parseReleases(await win.text()).some((e) => e.version === '1.3.0'))
  const mac = await f('/v1/apps/proto/update?version=1.2.0&platform=darwin&arch=arm64')
  assert.deepEqual(Object.keys((await mac.json()) as object).sort(), ['name', 'notes', 'pub_date', 'url'])
  const linux = (await (await f('/v1/apps/proto/update?version=1.0.0&platform=linux&arch=x64')).json()) as {
    signature: string
  }
  assert.ok(linux.signature, 'linux is a tauri platform here')
  const yml = await f(`${q}windows&format=electron-updater`)
  assert.equal(yml.headers.get('content-type'), 'application/x-yaml; charset=utf-8')
  assert.match(await yml.text(), /^version: '1\.3\.0'$/m)
  const unknown = await f('/v1/apps/proto/update?version=1.2.0&platform=beos&arch=x64')
  assert.equal(unknown.status, 204, 'a platform the team never created answers in ferry format: no versions, no update')
})

test('private apps: every protocol links to signed downloads that work without a team.token', async () => {
  const mac = (await (await f('/v1/apps/proto-private/squirrel-mac/stable/arm64?version=1.0.0')).json()) as {
    url: string
  }
  const tauri = (await (await f('/v1/apps/proto-private/tauri/stable/darwin/aarch64/1.0.0')).json()) as { url: string }
  const yml = await electronUpdaterCheck(
    `${team.server.url}/v1/apps/proto-private/electron-updater/stable/darwin/arm64/1.0.0`,
    '1.0.0',
    'darwin',
  )
  for (const url of [mac.url, tauri.url, ...yml.files.map((x) => x.url.href)]) {
    assert.match(url, /\?expires=\d+&signature=[0-9a-f]{64}$/)
    assert.equal((await fetch(url)).status, 200, url)
  }
})

test("Velopack: the feed lists the offered full package and the deltas from the client's version to it; packages resolve relative to the feed", async () => {
  const source = `${team.server.url}/v1/apps/proto/velopack/stable/windows/x64`
  const host = { id: 'proto', version: '1.1.0', channel: 'win', stagingId: 'velopack-install-0002' }
  const check = await velopackCheck(source, host)
  assert.deepEqual(
    check.assets.map((a) => [a.FileName, a.Type, a.PackageId]),
    [
      ['proto-1.2.0-delta.nupkg', 'Delta', 'proto'],
      ['proto-1.3.0-delta.nupkg', 'Delta', 'proto'],
      ['proto-1.3.0-full.nupkg', 'Full', 'proto'],
    ],
  )
  assert.equal(check.assets[2]?.NotesMarkdown, 'Notes 1.3.0')
  assert.equal(check.update?.TargetFullRelease.Version, '1.3.0')
  assert.deepEqual(check.update?.DeltasToTarget, [], 'without a local full package Velopack downloads the full one')
  // With its own full package, Velopack applies both deltas in order.
  const withBase = await velopackCheck(source, { ...host, localFullPackage: '1.1.0' })
  assert.deepEqual(
    withBase.update?.DeltasToTarget.map((a) => a.FileName),
    ['proto-1.2.0-delta.nupkg', 'proto-1.3.0-delta.nupkg'],
  )
  for (const asset of check.assets) await velopackDownload(source, asset) // size and SHA256 checked
  // Up to date: an empty feed (RemoteIsEmpty), which Velopack reads as no update.
  const latest = await velopackCheck(source, { ...host, version: '1.3.0' })
  assert.deepEqual(latest.assets, [])
  assert.equal(latest.update, null)
  // A package that is not published there is a 404, and the feed needs localVersion.
  assert.equal(
    (await f('/v1/apps/proto/velopack/stable/windows/x64/proto-1.5.0-full.nupkg')).status,
    404,
    'drafts are not served',
  )
  assert.equal((await f('/v1/apps/proto/velopack/stable/windows/x64/releases.win.json')).status, 400)
})

test("Sparkle: item fields by Sparkle's rules, EdDSA signature and deltas from the upload, XML escaped", async () => {
  for (const [path, body] of [
    ['/v1/platforms', { name: 'macos', updater: 'sparkle' }],
    ['/v1/platforms', { name: 'win', updater: 'sparkle' }],
  ] as const) {
    assert.equal((await f(path, jsonBody(body, team.token))).status, 201)
  }
  const keys = generateKeyPairSync('ed25519')
  const archive = new TextEncoder().encode('Sparkly 1.1.0 archive bytes')
  const delta = new TextEncoder().encode('Sparkly 1.0.0 → 1.1.0 delta')
  const edsig = (data: Uint8Array) =>
    `sparkle:edSignature="${sign(null, data, keys.privateKey).toString('base64')}" length="${data.length}"\n`
  const notes = 'Fixes <b>bold</b> & "quotes" in \'notes\' ]]>'
  const put = async (
    version: string,
    platform: string,
    files: Array<[string, Uint8Array | string]>,
    flags: Record<string, string> = {},
  ) => {
    const form = uploadForm(
      { version, channel: 'stable', platform, arch: 'arm64', published: 'true', changelog: notes, ...flags },
      files,
    )
    assert.equal((await f('/v1/apps/proto/versions', bearer(team.token, { method: 'POST', body: form }))).status, 201)
  }
  await put('1.0.0', 'macos', [['Sparkly-1.0.0.zip', 'Sparkly 1.0.0']])
  await put(
    '1.1.0',
    'macos',
    [
      ['Sparkly-1.1.0.dmg', 'disk image'],
      ['Sparkly-1.1.0.zip', archive],
      ['Sparkly-1.1.0.zip.edsig', edsig(archive)],
      ['Sparkly1.1.0-1.0.0.delta', delta],
      ['Sparkly1.1.0-1.0.0.delta.edsig', edsig(delta)],
    ],
    { critical: 'true', minimumSystemVersion: '13.0' },
  )
  const url = new URL(`${team.server.url}/v1/apps/proto/sparkle/stable/macos/arm64/appcast.xml?version=1.0.0`)
  const xml = await (await fetch(url)).text()
  const items = parseAppcast(xml, url)
  assert.equal(items.length, 1)
  const choice = chooseItem(items, { version: '1.0.0', osVersion: '14.5' })
  const item = choice.item
  assert.ok(item)
  assert.equal(item.versionString, '1.1.0')
  assert.equal(item.displayVersionString, '1.1.0')
  assert.equal(item.itemDescription, notes, 'the changelog survives escaping')
  assert.ok(item.date && Math.abs(item.date.getTime() - Date.now()) < 60_000, 'pubDate parses')
  assert.equal(choice.critical, true)
  assert.equal(
    chooseItem(items, { version: '1.0.0', osVersion: '14.5', phasedUpdateGroup: 6 }).item?.versionString,
    '1.1.0',
  )
  assert.equal(item.minimumSystemVersion, '13.0')
  assert.equal(
    chooseItem(items, { version: '1.0.0', osVersion: '12.7.4' }).item,
    null,
    'Sparkle skips an update the system is too old for',
  )
  const listed = (await (
    await f('/v1/apps/proto/versions?platform=macos&published=true', bearer(team.token))
  ).json()) as {
    items: Array<{ id: string; version: string; minimumSystemVersion?: string }>
  }
  const v110 = listed.items.find((v) => v.version === '1.1.0')
  assert.equal(v110?.minimumSystemVersion, '13.0')
  const cleared = await f(`/v1/apps/proto/versions/${v110?.id}`, {
    ...jsonBody({ minimumSystemVersion: null }, team.token),
    method: 'PATCH',
  })
  assert.equal(
    ((await expectSpec('updateVersion', cleared, 200)) as { minimumSystemVersion?: string }).minimumSystemVersion,
    undefined,
  )
  assert.equal(
    chooseItem(parseAppcast(await (await fetch(url)).text(), url), { version: '1.0.0', osVersion: '12.7.4' }).item
      ?.versionString,
    '1.1.0',
  )
  // The signed zip is the enclosure (not the dmg); its signature verifies over the bytes served.
  const served = new Uint8Array(await (await fetch(item.fileURL)).arrayBuffer())
  assert.deepEqual(served, archive)
  assert.equal(item.contentLength, archive.length)
  assert.ok(
    item.edSignature && verify(null, served, keys.publicKey, Buffer.from(item.edSignature, 'base64')),
    'sparkle:edSignature verifies',
  )
  // The delta for the host's version, signed as well.
  assert.equal(choice.delta?.deltaFrom, '1.0.0')
  const deltaBytes = new Uint8Array(await (await fetch(choice.delta?.fileURL ?? '')).arrayBuffer())
  assert.deepEqual(deltaBytes, delta)
  assert.ok(
    choice.delta?.edSignature &&
      verify(null, deltaBytes, keys.publicKey, Buffer.from(choice.delta.edSignature, 'base64')),
  )
  // Up to date: no item; an app on another OS (WinSparkle) gets the installer marked sparkle:os="windows".
  assert.equal(
    parseAppcast(await (await f('/v1/apps/proto/sparkle/stable/macos/arm64/appcast.xml?version=1.1.0')).text(), url)
      .length,
    0,
  )
  await put('1.1.0', 'win', [['Sparkly-1.1.0-setup.exe', 'installer']])
  const winUrl = new URL(`${team.server.url}/v1/apps/proto/sparkle/stable/win/arm64/appcast.xml?version=1.0.0`)
  const winItems = parseAppcast(await (await fetch(winUrl)).text(), winUrl)
  assert.equal(winItems[0]?.os, 'windows')
  assert.equal(
    chooseItem(winItems, { version: '1.0.0', osVersion: '14.5' }).item,
    null,
    'Sparkle on macOS skips a Windows item',
  )
  assert.equal(
    chooseItem(winItems, { version: '1.0.0', osVersion: '10.0', os: 'windows' }).item?.versionString,
    '1.1.0',
  )
})

test('the demo simulator asks Velopack and Sparkle as their clients do and says what they would install', async () => {
  const input = {
    app: 'proto',
    version: '1.1.0',
    channel: 'stable',
    platform: 'windows',
    arch: 'x64',
    packageType: 'nupkg' as const,
    deviceId: '',
  }
  const summary = async (id: string, over: Partial<typeof input> = {}) => {
    const format = UPDATE_FORMATS.find((x) => x.id === id)
    assert.ok(format, `no ${id} in the simulator`)
    const { path, headers } = format.request({ ...input, ...over })
    const res = await f(path, { headers })
    const type = res.headers.get('content-type') ?? ''
    return format.summarize({
      status: res.status,
      headers: res.headers,
      body: type.startsWith('application/json') ? await res.json() : await res.text(),
    })
  }
  assert.equal(
    await summary('velopack'),
    'Velopack installs 1.3.0, from 2 delta package(s) when it holds its own full package.',
  )
  assert.equal(await summary('velopack', { version: '1.3.0' }), 'An empty feed: Velopack finds no update.')
  assert.equal(
    await summary('sparkle', { platform: 'darwin', arch: 'arm64' }),
    'Sparkle offers 1.3.0 as a critical update.',
  )
  assert.equal(
    await summary('sparkle', { platform: 'darwin', arch: 'arm64', version: '1.3.0' }),
    'No item: Sparkle reports that the app is up to date.',
  )
})
