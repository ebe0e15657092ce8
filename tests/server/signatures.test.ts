/**
 * Signatures checked at upload against the app's public keys: Tauri's minisign signatures made by
 * the Tauri CLI this repository installs (`tauri signer generate` / `sign`), Sparkle's EdDSA
 * signatures as `sign_update` writes them (Ed25519 over the file's bytes). A signature that does
 * not verify refuses the whole upload with a 400 naming the file, and nothing of it is stored.
 */
import assert from 'node:assert/strict'
import { generateKeyPairSync, sign } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { bearer, blobKeys, expectSpec, jsonBody, uploadForm } from './helpers.ts'
import { tauriCli, withTauriApp } from './tauri-signer.ts'

const PASSWORD = 'signing-test-passphrase'
const tauri = tauriCli(PASSWORD)

const team = withTauriApp('signed', 'Signed', 'sign@team.test')
const { f } = team
let work: string
const bundle = 'Signed.app.tar.gz'
const bundleBytes = 'Signed 1.0.0 updater bundle\n'
let tauriKey: string
let bundleSig: string
let otherSig: string

/** A minisign signature of `content` made by `tauri signer sign` with the key at `key`. */
async function tauriSign(key: string, name: string, content: string): Promise<string> {
  const file = join(work, name)
  writeFileSync(file, content)
  await tauri(['signer', 'sign', '-f', key, file])
  return readFileSync(`${file}.sig`, 'utf8')
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'ferry-signatures-'))
  await tauri(['signer', 'generate', '--ci', '-w', join(work, 'app.key'), '-p', PASSWORD])
  await tauri(['signer', 'generate', '--ci', '-w', join(work, 'other.key'), '-p', PASSWORD])
  tauriKey = readFileSync(join(work, 'app.key.pub'), 'utf8').trim()
  bundleSig = await tauriSign(join(work, 'app.key'), bundle, bundleBytes)
  otherSig = await tauriSign(join(work, 'other.key'), 'other.tar.gz', bundleBytes)
})
after(() => rmSync(work, { recursive: true, force: true }))

const upload = (version: string, files: Array<[string, string | Uint8Array]>) =>
  f(
    '/v1/apps/signed/versions',
    bearer(team.token, {
      method: 'POST',
      body: uploadForm({ version, channel: 'stable', platform: 'darwin', arch: 'arm64', published: 'true' }, files),
    }),
  )

const versions = async () =>
  (
    (await (await f('/v1/apps/signed/versions', bearer(team.token))).json()) as { items: Array<{ version: string }> }
  ).items.map((v) => v.version)

/** The upload is refused naming `file`, and neither a version nor a blob of it is left behind. */
async function refused(version: string, files: Array<[string, string | Uint8Array]>, file: string, reason: RegExp) {
  const before = (await blobKeys(team.server)).length
  const res = await upload(version, files)
  const problem = (await expectSpec('uploadVersion', res, 400)) as {
    errors: Array<{ field?: string; message: string }>
  }
  const message = problem.errors.map((e) => e.message).join('\n')
  assert.ok(message.includes(JSON.stringify(file)), `names ${file}: ${message}`)
  assert.match(message, reason)
  assert.ok(!(await versions()).includes(version), `${version} must not be stored`)
  assert.equal((await blobKeys(team.server)).length, before, 'no blob of the refused upload remains')
}

test('keys: PATCH sets and clears them; a value that is not a key is a 400 naming the field', async () => {
  for (const [field, value, reason] of [
    ['tauriPublicKey', 'A'.repeat(56), /not a minisign public key/],
    ['sparklePublicKey', 'AAAA', /must match/],
  ] as const) {
    const bad = await f('/v1/apps/signed', { ...jsonBody({ [field]: value }, team.token), method: 'PATCH' })
    const problem = (await expectSpec('updateApp', bad, 400)) as {
      errors: Array<{ pointer?: string; message: string }>
    }
    assert.deepEqual(
      problem.errors.map((e) => e.pointer),
      [`/${field}`],
    )
    assert.match(problem.errors[0]?.message ?? '', reason)
  }
  const set = (await expectSpec(
    'updateApp',
    await f('/v1/apps/signed', { ...jsonBody({ tauriPublicKey: tauriKey }, team.token), method: 'PATCH' }),
    200,
  )) as { tauriPublicKey?: string; sparklePublicKey?: string }
  assert.equal(set.tauriPublicKey, tauriKey)
  assert.equal(set.sparklePublicKey, undefined, 'a key never set is absent')
  // Cleared, an unverifiable signature is stored as it is (nothing to check against).
  const cleared = (await expectSpec(
    'updateApp',
    await f('/v1/apps/signed', { ...jsonBody({ tauriPublicKey: null }, team.token), method: 'PATCH' }),
    200,
  )) as { tauriPublicKey?: string }
  assert.equal(cleared.tauriPublicKey, undefined)
  assert.equal(
    (
      await upload('0.1.0', [
        [bundle, bundleBytes],
        [`${bundle}.sig`, otherSig],
      ])
    ).status,
    201,
  )
  await expectSpec(
    'updateApp',
    await f('/v1/apps/signed', { ...jsonBody({ tauriPublicKey: tauriKey }, team.token), method: 'PATCH' }),
    200,
  )
})

test('Tauri: a bundle whose .sig verifies is stored; a changed byte or another key refuses the upload, naming the file', async () => {
  await refused(
    '0.9.0',
    [
      [bundle, bundleBytes.replace('1.0.0', '1.0.1')],
      [`${bundle}.sig`, bundleSig],
    ],
    `${bundle}.sig`,
    /does not verify with the app's tauriPublicKey/,
  )
  await refused(
    '0.9.1',
    [
      [bundle, bundleBytes],
      [`${bundle}.sig`, otherSig],
    ],
    `${bundle}.sig`,
    /another key/,
  )
  await refused(
    '0.9.2',
    [
      [bundle, bundleBytes],
      [`${bundle}.sig`, 'c2lnbmF0dXJl'],
    ],
    `${bundle}.sig`,
    /is not a minisign signature/,
  )
  // A signature whose trusted comment was edited: the global signature no longer verifies.
  const lines = Buffer.from(bundleSig, 'base64').toString('utf8').split('\n')
  lines[2] = `${lines[2]} edited`
  await refused(
    '0.9.3',
    [
      [bundle, bundleBytes],
      [`${bundle}.sig`, Buffer.from(lines.join('\n')).toString('base64')],
    ],
    `${bundle}.sig`,
    /trusted comment/,
  )
  const res = await upload('1.0.0', [
    [bundle, bundleBytes],
    [`${bundle}.sig`, bundleSig],
  ])
  assert.equal(res.status, 201, await res.text())
  const answer = (await (await f('/v1/apps/signed/tauri/stable/darwin/aarch64/0.1.0')).json()) as {
    version: string
    signature: string
  }
  assert.equal(answer.version, '1.0.0')
  assert.equal(answer.signature, bundleSig.trim())
})

test('Sparkle: an archive whose .edsig verifies with SUPublicEDKey is stored; a changed byte, another key or a wrong length refuses it', async () => {
  const keys = generateKeyPairSync('ed25519')
  const other = generateKeyPairSync('ed25519')
  const raw = (k: typeof keys) =>
    Buffer.from(k.publicKey.export({ format: 'jwk' }).x ?? '', 'base64url').toString('base64')
  await expectSpec(
    'updateApp',
    await f('/v1/apps/signed', { ...jsonBody({ sparklePublicKey: raw(keys) }, team.token), method: 'PATCH' }),
    200,
  )
  const zip = new TextEncoder().encode('Signed 2.0.0 archive\n')
  const edsig = (data: Uint8Array, key = keys.privateKey, length = data.length) =>
    `sparkle:edSignature="${sign(null, data, key).toString('base64')}" length="${length}"\n`
  const changed = new TextEncoder().encode('Signed 2.0.0 archivE\n')
  await refused(
    '1.9.0',
    [
      ['Signed-2.0.0.zip', changed],
      ['Signed-2.0.0.zip.edsig', edsig(zip)],
    ],
    'Signed-2.0.0.zip.edsig',
    /does not verify with the app's sparklePublicKey/,
  )
  await refused(
    '1.9.1',
    [
      ['Signed-2.0.0.zip', zip],
      ['Signed-2.0.0.zip.edsig', edsig(zip, other.privateKey)],
    ],
    'Signed-2.0.0.zip.edsig',
    /does not verify/,
  )
  await refused(
    '1.9.2',
    [
      ['Signed-2.0.0.zip', zip],
      ['Signed-2.0.0.zip.edsig', edsig(zip, keys.privateKey, 99)],
    ],
    'Signed-2.0.0.zip.edsig',
    /length 99/,
  )
  // `sign_update -p` prints the bare signature: accepted too.
  const bare = `${sign(null, zip, keys.privateKey).toString('base64')}\n`
  const res = await upload('2.0.0', [
    ['Signed-2.0.0.zip', zip],
    ['Signed-2.0.0.zip.edsig', bare],
  ])
  assert.equal(res.status, 201, await res.text())
  assert.ok((await versions()).includes('2.0.0'))
})

test('a signature without the file it signs is refused before any check', async () => {
  const res = await upload('3.0.0', [
    ['Other.zip', 'x'],
    ['Missing.zip.edsig', 'x'],
  ])
  const problem = (await expectSpec('uploadVersion', res, 400)) as { errors: Array<{ message: string }> }
  assert.match(
    problem.errors.map((e) => e.message).join('\n'),
    /signature "Missing\.zip\.edsig" has no file "Missing\.zip" in this upload/,
  )
})
