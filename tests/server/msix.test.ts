/**
 * MSIX: Electron's MSIX feed and the `.appinstaller` file, with Electron's own signed test
 * packages (tests/server/fixtures/msix/SOURCE.md). Electron's MSIX updater and Windows App
 * Installer run only on Windows, so neither client runs here: the feed is read by a step-for-step
 * transcription of Electron's updater (clients/electron-msix.ts), the App Installer file is checked
 * against the structure Microsoft documents (clients/app-installer-schema.ts; Microsoft publishes no
 * XSD to run `xmllint --schema` with). A `.msixbundle` is built from Electron's signed package
 * (msix-bundle-fixture.ts) and read back by the ranges App Installer makes; FERRY_TEST_MSIXBUNDLE
 * names a real signed bundle to run that test with instead.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import {
  bearer,
  expectProblem,
  expectSpec,
  jsonBody,
  prepareUploadTeam,
  uploadForm,
  withTestServer,
} from './helpers.ts'
import { electronMsixCheck } from './clients/electron-msix.ts'
import { checkAppInstaller } from './clients/app-installer-schema.ts'
import { blockHashes, buildMsixBundle, readBundleManifest, unzipEntry } from './msix-bundle-fixture.ts'

const FIXTURES = join(import.meta.dirname, 'fixtures', 'msix')
const V1 = new Uint8Array(readFileSync(join(FIXTURES, 'HelloMSIX_V1.msix')))
const V2 = new Uint8Array(readFileSync(join(FIXTURES, 'HelloMSIX_V2.msix')))
const FIELDS = { channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }

const suite = withTestServer(20 * 1024 * 1024, { edgeCaching: { cacheSeconds: 60, staleSeconds: 0 } })
const { f } = suite

async function upload(
  token: string,
  slug: string,
  version: string,
  files: Array<[string, Uint8Array | string]>,
  fields: Record<string, string> = {},
) {
  const res = await f(
    `/v1/apps/${slug}/versions`,
    bearer(token, { method: 'POST', body: uploadForm({ ...FIELDS, version, ...fields }, files) }),
  )
  assert.equal(res.status, 201, await res.clone().text())
  return ((await res.json()) as { id: string }).id
}

const feed = (slug: string, version: string) => `${suite.server.url}/v1/apps/${slug}/msix/stable/x64?version=${version}`
const appInstaller = (slug: string, query = '') => `/v1/apps/${slug}/msix/stable/x64/app.appinstaller${query}`

async function appInstallerOf(slug: string, query = '') {
  const xml = (await expectSpec('getMsixAppInstaller', await f(appInstaller(slug, query)), 200)) as string
  const { problems, parsed } = checkAppInstaller(xml)
  assert.deepEqual(problems, [], xml)
  assert.ok(parsed)
  return parsed
}

const bytesOf = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer())

test("Electron's MSIX updater is offered the newer package at a URL it accepts, and nothing on the newest", async () => {
  const token = await prepareUploadTeam(f, 'msix-feed')
  await upload(token, 'msix-feed', '1.0.0', [['HelloMSIX-1.0.0-x64.msix', V1]])
  await upload(token, 'msix-feed', '2.0.0', [['HelloMSIX-2.0.0-x64.msix', V2]], { changelog: 'Faster sync' })

  const offered = await electronMsixCheck(feed('msix-feed', '1.0.0'))
  assert.ok(offered.ok && offered.available, JSON.stringify(offered))
  assert.equal(offered.releaseName, '2.0.0')
  assert.equal(offered.releaseNotes, 'Faster sync')
  assert.ok(!Number.isNaN(offered.releaseDate.getTime()))
  assert.match(new URL(offered.updateUrl).pathname, /\/HelloMSIX-2\.0\.0-x64\.msix$/)
  assert.deepEqual(await bytesOf(offered.updateUrl), V2, 'the URL serves the package itself')
  assert.deepEqual(await electronMsixCheck(feed('msix-feed', '2.0.0')), { ok: true, available: false })

  await expectSpec('getMsixUpdate', await f(`/v1/apps/msix-feed/msix/stable/x64?version=1.0.0`), 200)
  // The generic update check answers the same JSON with format=msix.
  const generic = (await expectSpec(
    'checkForUpdate',
    await f('/v1/apps/msix-feed/update?version=1.0.0&platform=windows&arch=x64&format=msix'),
    200,
  )) as { url: string; name: string }
  assert.equal(generic.name, '2.0.0')
  assert.equal(new URL(generic.url).pathname, new URL(offered.updateUrl).pathname)
  await expectSpec('getMsixUpdate', await f(`/v1/apps/msix-feed/msix/stable/x64?version=2.0.0`), 204)
  await expectProblem(await f('/v1/apps/msix-feed/msix/stable/x64?version=one'), 400, 'validation', 'version')
  await expectSpec('getMsixUpdate', await f('/v1/apps/msix-nope/msix/stable/x64?version=1.0.0'), 404)
  const ranged = await f(new URL(offered.updateUrl).pathname, { headers: { range: 'bytes=0-1' } })
  assert.equal(ranged.status, 206)
  assert.equal(await ranged.text(), 'PK')
})

test('a version without an .msix or .msixbundle is offered to neither client', async () => {
  const token = await prepareUploadTeam(f, 'msix-mixed')
  await upload(token, 'msix-mixed', '2.0.0', [['Setup-2.0.0.exe', 'an installer']])
  assert.deepEqual(await electronMsixCheck(feed('msix-mixed', '1.0.0')), { ok: true, available: false })
  await expectProblem(await f(appInstaller('msix-mixed')), 404, 'not-found')
})

test('rollouts, pauses and pulls: the feed follows the plan, the App Installer file names only what every device may run', async () => {
  const token = await prepareUploadTeam(f, 'msix-plan')
  await upload(token, 'msix-plan', '1.0.0', [['HelloMSIX-1.0.0-x64.msix', V1]])
  const v2 = await upload(token, 'msix-plan', '2.0.0', [['HelloMSIX-2.0.0-x64.msix', V2]])
  assert.equal((await appInstallerOf('msix-plan')).main.attributes.Version, '2.0.0.0')

  const patch = (body: unknown) => ({ ...jsonBody(body, token), method: 'PATCH' })
  assert.equal((await f(`/v1/apps/msix-plan/versions/${v2}`, patch({ rolloutPercentage: 0 }))).status, 200)
  assert.deepEqual(
    await electronMsixCheck(feed('msix-plan', '1.0.0')),
    { ok: true, available: false },
    'at 0 % nobody is offered 2.0.0',
  )
  assert.equal(
    (await appInstallerOf('msix-plan')).main.attributes.Version,
    '1.0.0.0',
    'a partial rollout is not in the App Installer file',
  )

  assert.equal((await f(`/v1/apps/msix-plan/versions/${v2}`, patch({ rolloutPercentage: 100 }))).status, 200)
  assert.equal((await appInstallerOf('msix-plan')).main.attributes.Version, '2.0.0.0')
  assert.equal(
    (await f(`/v1/apps/msix-plan/versions/${v2}/pause`, jsonBody({ reason: 'crash on start' }, token))).status,
    200,
  )
  assert.deepEqual(await electronMsixCheck(feed('msix-plan', '1.0.0')), { ok: true, available: false })
  assert.equal(
    (await appInstallerOf('msix-plan')).main.attributes.Version,
    '1.0.0.0',
    'paused: the App Installer file goes back',
  )
  assert.equal((await f(`/v1/apps/msix-plan/versions/${v2}/resume`, jsonBody({}, token))).status, 200)

  assert.equal(
    (await f(`/v1/apps/msix-plan/versions/${v2}/pull`, jsonBody({ reason: 'corrupts data' }, token))).status,
    200,
  )
  assert.equal(
    (await appInstallerOf('msix-plan')).main.attributes.Version,
    '1.0.0.0',
    'pulled: the App Installer file names 1.0.0.0',
  )
  // A device on the pulled 2.0.0 is offered the good 1.0.0 (Windows installs it with allowAnyVersion).
  const rollback = await electronMsixCheck(feed('msix-plan', '2.0.0'))
  assert.ok(rollback.ok && rollback.available && rollback.releaseName === '1.0.0', JSON.stringify(rollback))
})

test("the App Installer file carries the package's own identity and the asked update settings, and names itself", async () => {
  const token = await prepareUploadTeam(f, 'msix-ai')
  await upload(token, 'msix-ai', '1.0.0', [['HelloMSIX-1.0.0-x64.msix', V1]])
  const plain = await appInstallerOf('msix-ai')
  assert.equal(plain.version, '1.0.0.0')
  assert.deepEqual(plain.main, {
    element: 'MainPackage',
    attributes: {
      Name: 'com.electron.myapp',
      Publisher: 'CN=Electron MSIX',
      Version: '1.0.0.0',
      ProcessorArchitecture: 'x64',
      Uri: plain.main.attributes.Uri,
    },
  })
  assert.deepEqual(await bytesOf(plain.main.attributes.Uri ?? ''), V1)
  assert.deepEqual(plain.settings, {
    onLaunch: { HoursBetweenUpdateChecks: '24' },
    automaticBackgroundTask: false,
    forceUpdateFromAnyVersion: false,
  })
  assert.equal(plain.uri, `${suite.server.url}${appInstaller('msix-ai')}`)

  const query =
    '?hoursBetweenUpdateChecks=0&showPrompt=true&updateBlocksActivation=true&automaticBackgroundTask=true&forceUpdateFromAnyVersion=true'
  const strict = await appInstallerOf('msix-ai', query)
  assert.deepEqual(strict.settings, {
    onLaunch: { HoursBetweenUpdateChecks: '0', ShowPrompt: 'true', UpdateBlocksActivation: 'true' },
    automaticBackgroundTask: true,
    forceUpdateFromAnyVersion: true,
  })
  // App Installer checks the file's own Uri for updates: it must answer the same settings.
  const again = await f(new URL(strict.uri).pathname + new URL(strict.uri).search)
  assert.equal(checkAppInstaller(await again.text()).parsed?.settings.onLaunch?.HoursBetweenUpdateChecks, '0')

  await expectProblem(
    await f(appInstaller('msix-ai', '?updateBlocksActivation=true')),
    400,
    'validation',
    'updateBlocksActivation',
  )
  await expectProblem(await f(appInstaller('msix-ai', '?hoursBetweenUpdateChecks=256')), 400, 'validation')
  await expectSpec('getMsixAppInstaller', await f('/v1/apps/msix-nope/msix/stable/x64/app.appinstaller'), 404)
})

test('answers every device gets alike are cacheable by a CDN, keyed to the app', async () => {
  const token = await prepareUploadTeam(f, 'msix-edge')
  await upload(token, 'msix-edge', '1.0.0', [['HelloMSIX-1.0.0-x64.msix', V1]])
  for (const path of [appInstaller('msix-edge'), '/v1/apps/msix-edge/msix/stable/x64?version=0.9.0']) {
    const res = await f(path)
    assert.equal(res.status, 200, path)
    assert.match(res.headers.get('cache-control') ?? '', /^public, max-age=\d+/, path)
    assert.match(res.headers.get('surrogate-key') ?? '', /(^| )ferry-app-msix-edge( |$)/, path)
    const etag = res.headers.get('etag') ?? ''
    assert.equal((await f(path, { headers: { 'if-none-match': etag } })).status, 304, path)
  }
})

test('an upload whose .msix has no readable identity is refused, naming the file and why', async () => {
  const token = await prepareUploadTeam(f, 'msix-bad')
  const refused = async (files: Array<[string, Uint8Array | string]>) =>
    expectProblem(
      await f(
        '/v1/apps/msix-bad/versions',
        bearer(token, { method: 'POST', body: uploadForm({ ...FIELDS, version: '1.0.0' }, files) }),
      ),
      400,
      'validation',
      'files',
    )
  const notZip = await refused([['Broken-1.0.0.msix', 'not a zip archive at all']])
  assert.match(JSON.stringify(notZip.errors), /Broken-1\.0\.0\.msix.*not a zip archive/)
  // A zip without a manifest: the first bytes of a real package's local entries, without its central directory, are not enough either.
  const truncated = await refused([['Cut-1.0.0.msix', V1.subarray(0, V1.length - 200)]])
  assert.match(JSON.stringify(truncated.errors), /Cut-1\.0\.0\.msix/)
  const listed = (await (await f('/v1/apps/msix-bad/versions', bearer(token))).json()) as { items: unknown[] }
  assert.deepEqual(listed.items, [], 'nothing was stored')
})

test("a private app: the feed's package URL is signed, the package refuses unsigned requests, and there is no App Installer file", async () => {
  const token = await prepareUploadTeam(f, 'msix-private')
  assert.equal(
    (await f('/v1/apps/msix-private', { ...jsonBody({ private: true }, token), method: 'PATCH' })).status,
    200,
  )
  await upload(token, 'msix-private', '2.0.0', [['HelloMSIX-2.0.0-x64.msix', V2]])
  const offered = await electronMsixCheck(feed('msix-private', '1.0.0'))
  assert.ok(offered.ok && offered.available, JSON.stringify(offered))
  assert.match(offered.updateUrl, /\.msix\?expires=\d+&signature=[0-9a-f]{64}$/)
  assert.deepEqual(await bytesOf(offered.updateUrl), V2)
  const unsigned = new URL(offered.updateUrl).pathname
  await expectProblem(await f(unsigned), 401, 'unauthorized')
  const forged = `${unsigned}?expires=${Math.floor(Date.now() / 1000) + 600}&signature=${'0'.repeat(64)}`
  await expectSpec('getMsixPackage', await f(forged), 403)
  await expectSpec('getMsixAppInstaller', await f(appInstaller('msix-private')), 404)
  await expectSpec('getMsixPackage', await f('/v1/apps/msix-private/msix/files/ver_none/art_none/x.msix'), 404)
})

/**
 * A byte range of `url` as a Windows client asks for it (`Range: bytes=…`): 206 with exactly those
 * bytes, or the suffix `-n` for the last n.
 */
async function ranged(url: string, range: string): Promise<Uint8Array> {
  const res = await fetch(url, { headers: { range: `bytes=${range}` } })
  assert.equal(res.status, 206, `${range}: ${res.status}`)
  return new Uint8Array(await res.arrayBuffer())
}

/** The zip's central directory entries (name → local header offset), read by ranges from its end as App Installer does. */
async function centralDirectory(url: string, size: number): Promise<Map<string, number>> {
  const tail = await ranged(url, `-${Math.min(size, 22 + 0xffff)}`)
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength)
  let eocd = tail.length - 22
  while (eocd >= 0 && view.getUint32(eocd, true) !== 0x06054b50) eocd--
  assert.ok(eocd >= 0, 'no end of central directory')
  let cdSize = view.getUint32(eocd + 12, true)
  let cdOffset = view.getUint32(eocd + 16, true)
  if (cdOffset === 0xffffffff) {
    // ZIP64 (as makeappx writes): the locator just before the record names the ZIP64 record.
    const record = Number(view.getBigUint64(eocd - 20 + 8, true))
    const z = await ranged(url, `${record}-${record + 55}`)
    const zv = new DataView(z.buffer, z.byteOffset, z.byteLength)
    cdSize = Number(zv.getBigUint64(40, true))
    cdOffset = Number(zv.getBigUint64(48, true))
  }
  const cd = await ranged(url, `${cdOffset}-${cdOffset + cdSize - 1}`)
  const cv = new DataView(cd.buffer, cd.byteOffset, cd.byteLength)
  const entries = new Map<string, number>()
  for (let at = 0; at + 46 <= cd.length && cv.getUint32(at, true) === 0x02014b50;) {
    const [n, e, c] = [cv.getUint16(at + 28, true), cv.getUint16(at + 30, true), cv.getUint16(at + 32, true)]
    let offset = cv.getUint32(at + 42, true)
    if (offset === 0xffffffff) offset = Number(cv.getBigUint64(at + 46 + n + e - 8, true))
    entries.set(new TextDecoder().decode(cd.subarray(at + 46, at + 46 + n)), offset)
    at += 46 + n + e + c
  }
  return entries
}

test('a real .msixbundle end to end: the App Installer file names its MainBundle, and the bundle serves the ranges Windows reads it by', async () => {
  // FERRY_TEST_MSIXBUNDLE: a real signed bundle (makeappx bundle + SignTool) instead of the one built here.
  const real = process.env.FERRY_TEST_MSIXBUNDLE
  const bundle = real
    ? new Uint8Array(readFileSync(real))
    : buildMsixBundle({ name: 'com.electron.myapp', publisher: 'CN=Electron MSIX', version: '2.0.0.0' }, [
        { fileName: 'HelloMSIX_V2.msix', bytes: V2, architecture: 'x64' },
      ]).bytes
  const manifest = readBundleManifest(
    new TextDecoder().decode(unzipEntry(bundle, 'AppxMetadata/AppxBundleManifest.xml')),
  )
  const version = manifest.identity.version.split('.').slice(0, 3).join('.')
  const token = await prepareUploadTeam(f, 'msix-bundle')
  await upload(token, 'msix-bundle', version, [[`HelloMSIX-${version}.msixbundle`, bundle]])

  const installer = await appInstallerOf('msix-bundle')
  assert.deepEqual(installer.main, {
    element: 'MainBundle',
    attributes: {
      Name: manifest.identity.name,
      Publisher: manifest.identity.publisher,
      Version: manifest.identity.version,
      Uri: installer.main.attributes.Uri,
    },
  })
  const uri = installer.main.attributes.Uri ?? ''
  assert.match(new URL(uri).pathname, new RegExp(`/HelloMSIX-${version.replaceAll('.', '\\.')}\\.msixbundle$`))
  // Electron's MSIX updater is offered the same bundle at a URL it accepts.
  const offered = await electronMsixCheck(feed('msix-bundle', '0.9.0'))
  assert.ok(offered.ok && offered.available, JSON.stringify(offered))
  assert.equal(new URL(offered.updateUrl).pathname, new URL(uri).pathname)

  // App Installer first asks the size and whether ranges are served, then reads the zip's central
  // directory from the end, the bundle manifest and block map through it, and each package for this
  // machine at the Offset and Size the manifest gives.
  const head = await fetch(uri, { method: 'HEAD' })
  assert.equal(head.status, 200)
  assert.equal(head.headers.get('accept-ranges'), 'bytes')
  assert.equal(Number(head.headers.get('content-length')), bundle.length)
  const entries = await centralDirectory(uri, bundle.length)
  for (const name of ['AppxMetadata/AppxBundleManifest.xml', 'AppxBlockMap.xml', '[Content_Types].xml'])
    assert.ok(entries.has(name), `${name} in ${[...entries.keys()].join(', ')}`)
  const blockMap = new TextDecoder().decode(unzipEntry(bundle, 'AppxBlockMap.xml'))
  assert.ok(manifest.packages.length > 0)
  for (const p of manifest.packages) {
    assert.ok(entries.has(p.fileName), p.fileName)
    const bytes = await ranged(uri, `${p.offset}-${p.offset + p.size - 1}`)
    assert.deepEqual(bytes, unzipEntry(bundle, p.fileName), `${p.fileName} at ${p.offset}+${p.size}`)
    // Each 64 KiB block hashes to what the block map lists, as App Installer checks while streaming.
    const file = new RegExp(`<File Name="${p.fileName.replaceAll('.', '\\.')}"[^>]*>(.*?)</File>`, 's').exec(blockMap)
    const listed = [...(file?.[1] ?? '').matchAll(/Hash="([^"]+)"/g)].map((m) => m[1])
    assert.deepEqual(blockHashes(bytes), listed, p.fileName)
  }
  if (!real) assert.deepEqual(unzipEntry(bundle, 'HelloMSIX_V2.msix'), V2, "the bundle holds Electron's signed package")
})
