// backend-matrix: sqlite-only — reads MSIX identities from bytes and writes App Installer XML; no database or blob store
/**
 * The identity read from packages Debian's `zip` builds (stored and deflated entries, a bundle's
 * AppxBundleManifest.xml, publishers with quotes) and from Electron's signed ZIP64 test package,
 * and the App Installer file written from it, checked against Microsoft's documented structure.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, test } from 'node:test'
import { msixIdentity, MsixManifestError, type RangeReader } from '../../server/transfer/signers/msix-manifest.ts'
import { appInstallerXml, type AppInstallerSettings } from '../../server/protocols/msix.ts'
import { checkAppInstaller } from './clients/app-installer-schema.ts'

const work = mkdtempSync(join(tmpdir(), 'ferry-msix-'))
after(() => rmSync(work, { recursive: true, force: true }))

const SETTINGS: AppInstallerSettings = {
  hoursBetweenUpdateChecks: 24,
  showPrompt: false,
  updateBlocksActivation: false,
  automaticBackgroundTask: false,
  forceUpdateFromAnyVersion: false,
}

/** A zip made by `zip` from `entries` (`-0`: stored, else deflated). */
function zipOf(entries: Record<string, string>, stored = false): Uint8Array {
  const dir = mkdtempSync(join(work, 'pkg-'))
  for (const [name, text] of Object.entries(entries)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  const made = spawnSync('zip', ['-q', '-r', ...(stored ? ['-0'] : []), 'out.zip', ...Object.keys(entries)], {
    cwd: dir,
    encoding: 'utf8',
  })
  assert.equal(made.status, 0, made.stderr)
  return new Uint8Array(readFileSync(join(dir, 'out.zip')))
}

const reader =
  (bytes: Uint8Array): RangeReader =>
  async (start, end) =>
    bytes.subarray(start, end + 1)
const identityOf = (bytes: Uint8Array) => msixIdentity(reader(bytes), bytes.length)

const manifest = (
  identity: string,
  root = 'Package',
  ns = 'http://schemas.microsoft.com/appx/manifest/foundation/windows10',
) => `<?xml version="1.0" encoding="utf-8"?>\n<${root} xmlns="${ns}">\n  <Identity ${identity}/>\n</${root}>\n`

test("a package's identity, stored or deflated, is what App Installer gets", async () => {
  const publisher = 'CN=&quot;Harbor &amp; Sons&quot;, O=Harbor, C=US'
  for (const stored of [true, false]) {
    const bytes = zipOf(
      {
        'assets/logo.txt': 'x'.repeat(5000),
        'AppxManifest.xml': manifest(
          `Name="Harbor.Notes" Publisher="${publisher}" Version="1.4.0.0" ProcessorArchitecture="arm64"`,
        ),
      },
      stored,
    )
    const identity = await identityOf(bytes)
    assert.deepEqual(identity, {
      kind: 'package',
      name: 'Harbor.Notes',
      publisher: 'CN="Harbor & Sons", O=Harbor, C=US',
      version: '1.4.0.0',
      processorArchitecture: 'arm64',
    })
    const { problems, parsed } = checkAppInstaller(
      appInstallerXml('https://u.test/a.appinstaller', 'https://u.test/p.msix', identity, SETTINGS),
    )
    assert.deepEqual(problems, [])
    assert.equal(
      parsed?.main.attributes.Publisher,
      'CN="Harbor & Sons", O=Harbor, C=US',
      'quotes and ampersands survive the XML',
    )
  }
})

test('a bundle is named in MainBundle, without an architecture', async () => {
  const bytes = zipOf({
    'AppxMetadata/AppxBundleManifest.xml': manifest(
      'Name="Harbor.Notes" Publisher="CN=Harbor" Version="2.0.0.0"',
      'Bundle',
      'http://schemas.microsoft.com/appx/2013/bundle',
    ),
  })
  const identity = await identityOf(bytes)
  assert.equal(identity.kind, 'bundle')
  assert.equal(identity.processorArchitecture, undefined)
  const { problems, parsed } = checkAppInstaller(
    appInstallerXml('https://u.test/a.appinstaller', 'https://u.test/p.msixbundle', identity, SETTINGS),
  )
  assert.deepEqual(problems, [])
  assert.equal(parsed?.main.element, 'MainBundle')
})

test("Electron's signed package (ZIP64, as makeappx writes it) is read", async () => {
  const bytes = new Uint8Array(readFileSync(join(import.meta.dirname, 'fixtures', 'msix', 'HelloMSIX_V2.msix')))
  assert.deepEqual(await identityOf(bytes), {
    kind: 'package',
    name: 'com.electron.myapp',
    publisher: 'CN=Electron MSIX',
    version: '2.0.0.0',
    processorArchitecture: 'x64',
  })
})

test('what App Installer cannot express is refused, saying why', async () => {
  const cases: Array<[Uint8Array, RegExp]> = [
    [
      zipOf({ 'AppxManifest.xml': manifest('Name="A" Publisher="CN=A" Version="1.4.0"') }),
      /Version "1\.4\.0" .* is not four numbers/,
    ],
    [
      zipOf({ 'AppxManifest.xml': manifest('Name="A" Publisher="CN=A" Version="1.70000.0.0"') }),
      /is not four numbers of 0–65535/,
    ],
    [zipOf({ 'AppxManifest.xml': manifest('Name="A" Version="1.0.0.0"') }), /lacks Name, Publisher or Version/],
    [zipOf({ 'AppxManifest.xml': '<Package/>' }), /has no <Identity> element/],
    [zipOf({ 'readme.txt': 'no manifest' }), /holds neither AppxManifest\.xml nor/],
    [new TextEncoder().encode('PK but not really a zip archive'), /not a zip archive/],
    [new Uint8Array(4), /too short/],
  ]
  for (const [bytes, reason] of cases) {
    await assert.rejects(
      identityOf(bytes),
      (error: unknown) => error instanceof MsixManifestError && reason.test(error.message),
      String(reason),
    )
  }
})
