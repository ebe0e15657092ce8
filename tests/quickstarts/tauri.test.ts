/**
 * The Tauri quickstart (`pages/docs/quickstart-tauri.mdx`), done as its reader would against a real
 * server: the endpoint and key wiring come from the page's own `tauri.conf.json` block, the key
 * and signatures from the Tauri CLI, the upload from `ferry publish`; then Tauri's updater plugin
 * (`tests/server/clients/tauri.ts`) checks, downloads and verifies the update.
 * Backends: `npm test` runs it on SQLite and files only; its server comes from `startTestServer`,
 * so `npx tsx tests/server/run-on-postgres.ts <this file>` runs it on PostgreSQL + S3 (not in CI).
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, test } from 'node:test'
import { extractBlocks } from '../../lib/docs-runner/extract.ts'
import { ferry, write } from '../ferry-cli/fixtures.ts'
import {
  checkForUpdate,
  downloadVerified,
  endpointUrl,
  MinisignError,
  parseRemoteRelease,
  verifyTauriSignature,
  verifyWithMinisign,
  type UpdaterHost,
} from '../server/clients/tauri.ts'
import { httpFetch, startTestServer, type TestServer } from '../server/helpers.ts'
import { quickstartTeam } from './team.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const PAGE = 'pages/docs/quickstart-tauri.mdx'
const PASSWORD = 'harbor-signing-passphrase'
const run = promisify(execFile)

/** `npx tauri …` as the page runs it: the CLI this repository installs (`@tauri-apps/cli`). */
const tauri = (args: string[]) =>
  run(process.execPath, [join(ROOT, 'node_modules', '@tauri-apps', 'cli', 'tauri.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, TAURI_SIGNING_PRIVATE_KEY_PASSWORD: PASSWORD },
  })

/** The page's `src-tauri/tauri.conf.json` block, parsed. */
function pageConfig(): { createUpdaterArtifacts: unknown; pubkey: string; endpoints: string[] } {
  const block = extractBlocks(PAGE, readFileSync(join(ROOT, PAGE), 'utf8')).find(
    (b) => b.lang === 'json' && b.meta.includes('filename="src-tauri/tauri.conf.json"'),
  )
  assert.ok(block, `${PAGE} has no json block with filename="src-tauri/tauri.conf.json"`)
  const conf: {
    bundle?: { createUpdaterArtifacts?: unknown }
    plugins?: { updater?: { pubkey?: unknown; endpoints?: unknown } }
  } = JSON.parse(block.code)
  const updater = conf.plugins?.updater
  assert.ok(
    typeof updater?.pubkey === 'string' && Array.isArray(updater.endpoints),
    `${PAGE}:${block.line}: plugins.updater needs pubkey and endpoints`,
  )
  return {
    createUpdaterArtifacts: conf.bundle?.createUpdaterArtifacts,
    pubkey: updater.pubkey,
    endpoints: updater.endpoints.map(String),
  }
}

const BUNDLES = {
  linux: 'appimage/Harbor_1.1.0_amd64.AppImage',
  windows: 'nsis/Harbor_1.1.0_x64-setup.exe',
  darwin: 'macos/Harbor.app.tar.gz',
} as const
const content = (file: string) => `Harbor 1.1.0 ${file.split('/')[0]}\n`

let server: TestServer
let work: string
let bundle: string
let template: string
let pubkey: string

before(async () => {
  server = await startTestServer()
  const f = httpFetch(server.url)
  const token = await quickstartTeam(f, {
    email: 'ada@harbor.test',
    teamName: 'Harbor',
    app: { slug: 'harbor', name: 'Harbor' },
    updater: 'tauri',
    platforms: ['linux', 'windows', 'darwin'],
    archs: ['x64', 'arm64'],
    tokenName: 'harbor-release',
  })

  // 2. The key pair, as the page makes it.
  work = mkdtempSync(join(tmpdir(), 'ferry-quickstart-tauri-'))
  await tauri(['signer', 'generate', '--ci', '-w', join(work, '.tauri', 'harbor.key'), '-p', PASSWORD])
  pubkey = readFileSync(join(work, '.tauri', 'harbor.key.pub'), 'utf8').trim()

  // 3. The app's config, from the page: Ferry's URL with the placeholders, the .pub file's content.
  const conf = pageConfig()
  assert.equal(conf.createUpdaterArtifacts, true, 'the page must turn on bundle.createUpdaterArtifacts')
  assert.match(
    conf.pubkey,
    /\.tauri\/harbor\.key\.pub/,
    'the page must say pubkey is the content of .tauri/harbor.key.pub',
  )
  const [endpoint] = conf.endpoints
  if (!endpoint?.startsWith('http://127.0.0.1:8080/'))
    assert.fail(`the page's endpoint ${endpoint} is not on the local server`)
  template = endpoint.replace('http://127.0.0.1:8080', server.url)

  // 4. The bundle folder, signed with the Tauri CLI; 5. published with ferry.
  bundle = join(work, 'harbor', 'src-tauri', 'target', 'release', 'bundle')
  for (const file of Object.values(BUNDLES)) {
    write(bundle, file, content(file))
    await tauri([
      'signer',
      'sign',
      '-f',
      join(work, '.tauri', 'harbor.key'),
      '--app-version',
      '1.1.0',
      join(bundle, file),
    ])
  }
  write(bundle, 'dmg/Harbor_1.1.0_aarch64.dmg', 'Harbor 1.1.0 disk image\n')
  const published = await ferry(['publish', bundle, '--app', 'harbor', '--notes', 'Tide tables offline'], {
    FERRY_URL: server.url,
    FERRY_TOKEN: token,
  })
  assert.equal(published.code, 0, published.stderr)
  assert.match(published.stdout, /tauri output, version 1\.1\.0, channel stable/)
})

after(async () => {
  await server.stop()
  rmSync(work, { recursive: true, force: true })
})

const on = (target: UpdaterHost['target'], arch: UpdaterHost['arch'], currentVersion = '1.0.0'): UpdaterHost => ({
  target,
  arch,
  currentVersion,
})

test("an install of 1.0.0 finds 1.1.0 on each platform, downloads its bundle and verifies it against the page's key", async () => {
  for (const [host, file] of [
    [on('linux', 'x86_64'), BUNDLES.linux],
    [on('windows', 'x86_64'), BUNDLES.windows],
    [on('darwin', 'aarch64'), BUNDLES.darwin],
  ] as const) {
    const update = await checkForUpdate(template, host)
    assert.ok(update, `${host.target}/${host.arch}: no update found`)
    assert.equal(update.version, '1.1.0')
    assert.equal(update.body, 'Tide tables offline')
    assert.equal(update.shape, 'dynamic', 'Ferry answers for the asking client, not with a static platforms map')
    assert.equal(update.signature, readFileSync(join(bundle, `${file}.sig`), 'utf8').trim())
    const bytes = await downloadVerified(update, pubkey)
    assert.equal(Buffer.from(bytes).toString(), content(file), `${host.target}: the download is the bundle`)
  }
})

test('a changed byte, or a signature by another key, fails verification as the plugin would', async () => {
  const update = await checkForUpdate(template, on('linux', 'x86_64'))
  assert.ok(update)
  const bytes = Buffer.from(await (await fetch(update.downloadUrl)).arrayBuffer())
  verifyTauriSignature(bytes, update.signature, pubkey)
  const tampered = Buffer.from(bytes)
  tampered[0] = (tampered[0] ?? 0) ^ 1
  assert.throws(
    () => verifyTauriSignature(tampered, update.signature, pubkey),
    (e) => e instanceof MinisignError && /verification failed/.test(e.message),
  )
  verifyWithMinisign(bytes, update.signature, pubkey)
  assert.throws(
    () => verifyWithMinisign(tampered, update.signature, pubkey),
    (e) => e instanceof MinisignError && /minisign: /.test(e.message),
    'minisign itself refuses it too',
  )

  // An app that carries another public key (a rotated or wrong key) refuses this bundle.
  await tauri(['signer', 'generate', '--ci', '-w', join(work, 'other', 'other.key'), '-p', PASSWORD])
  const otherKey = readFileSync(join(work, 'other', 'other.key.pub'), 'utf8').trim()
  assert.throws(() => verifyTauriSignature(bytes, update.signature, otherKey), /created with a different key/)
})

test('an install already on 1.1.0 gets 204; an architecture with no build gets nothing', async () => {
  const current = await fetch(endpointUrl(template, on('linux', 'x86_64', '1.1.0')))
  assert.equal(current.status, 204)
  assert.equal(await checkForUpdate(template, on('linux', 'x86_64', '1.1.0')), null)
  assert.equal(await checkForUpdate(template, on('linux', 'aarch64')), null, 'nothing was published for linux/arm64')
  assert.equal(await checkForUpdate(template, on('windows', 'i686')), null, 'ia32 is not even in the catalog')
  // A newer install than the server knows is not offered a downgrade.
  assert.equal(await checkForUpdate(template, on('darwin', 'aarch64', '2.0.0')), null)
})

test("the updater plugin model: URL placeholders, both answer shapes, minisign-verify's own test vectors", () => {
  assert.equal(
    endpointUrl(
      'https://u.test/v1/apps/a/tauri/stable/{{target}}/{{arch}}/{{current_version}}',
      on('darwin', 'aarch64', '1.0.0+build.5'),
    ),
    'https://u.test/v1/apps/a/tauri/stable/darwin/aarch64/1.0.0%2Bbuild.5',
  )
  assert.equal(
    endpointUrl('https://u.test/update?t={{target}}&v={{current_version}}', on('windows', 'i686', '2.0.0-beta.1')),
    'https://u.test/update?t=windows&v=2.0.0-beta.1',
  )

  const entry = { url: 'https://u.test/a.tar.gz', signature: 'c2ln' }
  const stat = parseRemoteRelease({
    version: 'v1.2.0',
    pub_date: '2026-11-23T10:00:00Z',
    platforms: { 'darwin-aarch64': entry },
  })
  assert.deepEqual(stat.data, { shape: 'static', platforms: { 'darwin-aarch64': entry } })
  assert.equal(stat.version, '1.2.0')
  assert.deepEqual(parseRemoteRelease({ name: '1.2.0', ...entry }).data, { shape: 'dynamic', platform: entry })
  assert.throws(() => parseRemoteRelease({ version: '1.2.0', url: entry.url }), /`signature` field was not set/)
  assert.throws(() => parseRemoteRelease({ version: '1.2', ...entry }), /not semver/)
  assert.throws(() => parseRemoteRelease({ version: '1.2.0', pub_date: 'yesterday', ...entry }), /pub_date/)

  // jedisct1/rust-minisign-verify src/lib.rs tests `verify` (legacy Ed) and `verify_prehashed` (ED), base64-wrapped as Tauri stores them.
  const b64 = (text: string) => Buffer.from(text).toString('base64')
  const key = b64(
    'untrusted comment: minisign public key E7620F1842B4E81F\nRWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3\n',
  )
  const legacy = b64(
    'untrusted comment: signature from minisign secret key\nRWQf6LRCGA9i59SLOFxz6NxvASXDJeRtuZykwQepbDEGt87ig1BNpWaVWuNrm73YiIiJbq71Wi+dP9eKL8OC351vwIasSSbXxwA=\n' +
      'trusted comment: timestamp:1555779966\tfile:test\nQtKMXWyYcwdpZAlPF7tE2ENJkRd1ujvKjlj1m9RtHTBnZPa5WKU5uWRs5GoP5M/VqE81QFuMKI5k/SfNQUaOAA==',
  )
  const prehashed = b64(
    'untrusted comment: signature from minisign secret key\nRUQf6LRCGA9i559r3g7V1qNyJDApGip8MfqcadIgT9CuhV3EMhHoN1mGTkUidF/z7SrlQgXdy8ofjb7bNJJylDOocrCo8KLzZwo=\n' +
      'trusted comment: timestamp:1556193335\tfile:test\ny/rUw2y8/hOUYjZU71eHp/Wo1KZ40fGy2VJEDl34XMJM+TX48Ss/17u3IvIfbVR1FkZZSNCisQbuQY+bHwhEBg==',
  )
  for (const sig of [legacy, prehashed]) {
    verifyTauriSignature(Buffer.from('test'), sig, key)
    assert.throws(() => verifyTauriSignature(Buffer.from('Test'), sig, key), /verification failed/)
  }
})
