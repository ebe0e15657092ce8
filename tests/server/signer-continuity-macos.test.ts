/**
 * Signer continuity on macOS: real executables signed by Apple's `codesign` under two Developer ID
 * teams (tests/server/macos-fixtures.ts), zipped as `Harbor.app`. A published version signed by
 * another team than the newest published one is refused with a 409 naming both Team IDs, unless
 * the upload declares the change; an ad-hoc signature is unsigned. The same for a `.dmg`: a UDIF
 * image written by the test around a signature transplanted from those executables (no
 * Developer-ID-signed image can be had here; disk-image-signature.test.ts says more).
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { promisify } from 'node:util'
import { bearer, expectProblem, expectSpec, jsonBody, uploadForm, withUploadTeam } from './helpers.ts'
import { harborAppZip, machoFixture, machoSuperBlob, udifImage } from './macos-fixtures.ts'

const run = promisify(execFile)

let work: string
const zips: Record<'sentry' | 'deno' | 'adhoc', Uint8Array> = {
  sentry: new Uint8Array(),
  deno: new Uint8Array(),
  adhoc: new Uint8Array(),
}
const images: Record<'sentry' | 'deno' | 'unsigned', Uint8Array> = {
  sentry: new Uint8Array(),
  deno: new Uint8Array(),
  unsigned: new Uint8Array(),
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'ferry-macos-signer-'))
  zips.sentry = await harborAppZip(work, 'sentry', true)
  zips.deno = await harborAppZip(work, 'deno', false)
  zips.adhoc = await harborAppZip(work, 'tauri', false)
  const volume = new TextEncoder().encode('Harbor.app would be here')
  images.sentry = udifImage(volume, machoSuperBlob(readFileSync(await machoFixture('sentry'))))
  images.deno = udifImage(volume, machoSuperBlob(readFileSync(await machoFixture('deno'))))
  images.unsigned = udifImage(volume)
})
const team = withUploadTeam('harbor', 128 * 1024 * 1024, {}, async ({ f, token }) => {
  for (const [path, body] of [
    ['/v1/platforms', { name: 'darwin' }],
    ['/v1/archs', { name: 'arm64' }],
    ['/v1/apps', { slug: 'fresh', name: 'fresh' }],
    ['/v1/apps', { slug: 'disk', name: 'disk' }],
  ] as const)
    assert.equal((await f(path, jsonBody(body, token))).status, 201)
})
const { f } = team
after(() => rmSync(work, { recursive: true, force: true }))

type Version = {
  version: string
  signer?: { kind: string; teamId?: string; commonName: string | null } | null
  signerChange?: { note: string; previous: { teamId?: string } | null }
}

const uploadFiles = (
  app: string,
  version: string,
  files: Array<[string, Uint8Array]>,
  fields: Record<string, string> = {},
) =>
  f(
    `/v1/apps/${app}/versions`,
    bearer(team.token, {
      method: 'POST',
      body: uploadForm(
        { version, channel: 'stable', platform: 'darwin', arch: 'arm64', published: 'true', ...fields },
        files,
      ),
    }),
  )
const upload = (app: string, version: string, zip: Uint8Array, fields: Record<string, string> = {}) =>
  uploadFiles(app, version, [[`Harbor-${version}-mac.zip`, zip]], fields)
const uploadImage = (version: string, image: Uint8Array, fields: Record<string, string> = {}) =>
  uploadFiles('disk', version, [[`Harbor-${version}.dmg`, image]], fields)

test('the Team ID of the app in a zip is read and shown with the version', async () => {
  const version = (await expectSpec('uploadVersion', await upload('harbor', '1.0.0', zips.sentry), 201)) as Version
  assert.deepEqual(version.signer, {
    kind: 'apple',
    teamId: '97JCY7859U',
    commonName: 'Developer ID Application: GetSentry LLC (97JCY7859U)',
    organization: 'GetSentry LLC',
    fingerprint: 'dc4f1d4c1136a21483c9cbd65c2201e593d3c57707877318c36a878d867cf705',
  })
})

test('a version signed by another team is refused with a 409 naming both Team IDs', async () => {
  const problem = await expectProblem(await upload('harbor', '1.1.0', zips.deno), 409, 'conflict')
  assert.equal(
    problem.detail,
    'Version 1.1.0 is signed by Team ID 2H4KBF436B (Developer ID Application: Deno Land Inc. (2H4KBF436B)), but 1.0.0, the newest published version of harbor on this channel and platform, is signed by Team ID 97JCY7859U (Developer ID Application: GetSentry LLC (97JCY7859U)). Installed apps that check the publisher would refuse the update. Sign it with the same certificate, or declare the change with signerChange=true (a bridge release).',
  )
})

test('an ad-hoc signed app after a signed one is unsigned, so refused', async () => {
  const problem = await expectProblem(await upload('harbor', '1.1.0', zips.adhoc), 409, 'conflict')
  assert.match(problem.detail, /^Version 1\.1\.0 is unsigned, but 1\.0\.0.*Team ID 97JCY7859U/)
})

test('a declared change of team is accepted and shown on the version and in explain', async () => {
  const version = (await expectSpec(
    'uploadVersion',
    await upload('harbor', '2.0.0', zips.deno, { signerChange: 'true', signerChangeNote: 'new company account' }),
    201,
  )) as Version
  assert.equal(version.signer?.teamId, '2H4KBF436B')
  assert.equal(version.signerChange?.previous?.teamId, '97JCY7859U')
  const explain = (await expectSpec(
    'explainUpdate',
    await f(
      '/v1/apps/harbor/update/explain?version=1.0.0&channel=stable&platform=darwin&arch=arm64&deviceId=macos-device-0001',
      bearer(team.token),
    ),
    200,
  )) as { offered: string; signerChange?: string }
  assert.equal(explain.offered, '2.0.0')
  assert.equal(
    explain.signerChange,
    'signed by Team ID 2H4KBF436B (Developer ID Application: Deno Land Inc. (2H4KBF436B)), was Team ID 97JCY7859U (Developer ID Application: GetSentry LLC (97JCY7859U)): a bridge release (new company account)',
  )
  await expectSpec('uploadVersion', await upload('harbor', '2.1.0', zips.deno), 201)
})

test('an app never signed may stay unsigned (ad-hoc), then sign', async () => {
  const plain = (await expectSpec('uploadVersion', await upload('fresh', '1.0.0', zips.adhoc), 201)) as Version
  assert.equal(plain.signer, null)
  const first = (await expectSpec('uploadVersion', await upload('fresh', '1.1.0', zips.deno), 201)) as Version
  assert.equal(first.signer?.teamId, '2H4KBF436B')
})

test('a zip without an app has no signer read', async () => {
  const res = await f(
    '/v1/apps/fresh/versions',
    bearer(team.token, {
      method: 'POST',
      body: uploadForm({ version: '1.2.0', channel: 'stable', platform: 'darwin', arch: 'arm64', published: 'true' }, [
        ['notes.zip', new TextEncoder().encode('not a zip')],
      ]),
    }),
  )
  const version = (await expectSpec('uploadVersion', res, 201)) as Version
  assert.equal(version.signer, undefined)
})

test('an app whose main executable cannot be told, or is missing, is a 400 naming the file', async () => {
  const root = join(work, 'unclear')
  mkdirSync(join(root, 'Harbor.app', 'Contents', 'MacOS'), { recursive: true })
  writeFileSync(join(root, 'Harbor.app', 'Contents', 'MacOS', 'Harbor'), 'one')
  writeFileSync(join(root, 'Harbor.app', 'Contents', 'MacOS', 'Helper'), 'two')
  await run('zip', ['-qr', join(work, 'unclear.zip'), 'Harbor.app'], { cwd: root })
  const unclear = await expectProblem(
    await upload('fresh', '1.3.0', readFileSync(join(work, 'unclear.zip'))),
    400,
    'validation',
    'files',
  )
  assert.equal(
    unclear.errors?.[0]?.message,
    '"Harbor-1.3.0-mac.zip" has 2 files in Harbor.app/Contents/MacOS/ and no CFBundleExecutable in an XML Info.plist to tell the main executable',
  )
  writeFileSync(
    join(root, 'Harbor.app', 'Contents', 'Info.plist'),
    '<plist><dict><key>CFBundleExecutable</key><string>Notes</string></dict></plist>',
  )
  await run('zip', ['-qr', join(work, 'missing.zip'), 'Harbor.app'], { cwd: root })
  const missing = await expectProblem(
    await upload('fresh', '1.3.0', readFileSync(join(work, 'missing.zip'))),
    400,
    'validation',
    'files',
  )
  assert.equal(
    missing.errors?.[0]?.message,
    '"Harbor-1.3.0-mac.zip" has no Harbor.app/Contents/MacOS/Notes, the CFBundleExecutable its Info.plist names',
  )
})

test('a .dmg signed by another team than the last is refused with a 409 naming both Team IDs', async () => {
  const first = (await expectSpec('uploadVersion', await uploadImage('1.0.0', images.sentry), 201)) as Version
  assert.equal(first.signer?.teamId, '97JCY7859U')
  const problem = await expectProblem(await uploadImage('1.1.0', images.deno), 409, 'conflict')
  assert.match(
    problem.detail,
    /^Version 1\.1\.0 is signed by Team ID 2H4KBF436B \(Developer ID Application: Deno Land Inc\. \(2H4KBF436B\)\), but 1\.0\.0, the newest published version of disk on this channel and platform, is signed by Team ID 97JCY7859U /,
  )
})

test('a declared change of team in a .dmg is accepted and shown in explain', async () => {
  const version = (await expectSpec(
    'uploadVersion',
    await uploadImage('2.0.0', images.deno, { signerChange: 'true', signerChangeNote: 'new company account' }),
    201,
  )) as Version
  assert.equal(version.signerChange?.previous?.teamId, '97JCY7859U')
  const explain = (await expectSpec(
    'explainUpdate',
    await f(
      '/v1/apps/disk/update/explain?version=1.0.0&channel=stable&platform=darwin&arch=arm64&deviceId=macos-device-0002',
      bearer(team.token),
    ),
    200,
  )) as { offered: string; signerChange?: string }
  assert.equal(explain.offered, '2.0.0')
  assert.match(
    explain.signerChange ?? '',
    /^signed by Team ID 2H4KBF436B .*, was Team ID 97JCY7859U .*\(new company account\)$/,
  )
})

test('an unsigned .dmg beside a signed app zip takes the Team ID of the app; alone, it is unsigned', async () => {
  const both = (await expectSpec(
    'uploadVersion',
    await uploadFiles('disk', '2.1.0', [
      ['Harbor-2.1.0-mac.zip', zips.deno],
      ['Harbor-2.1.0.dmg', images.unsigned],
    ]),
    201,
  )) as Version
  assert.equal(both.signer?.teamId, '2H4KBF436B')
  const alone = await expectProblem(await uploadImage('2.2.0', images.unsigned), 409, 'conflict')
  assert.match(alone.detail, /^Version 2\.2\.0 is unsigned, but 2\.1\.0.*Team ID 2H4KBF436B/)
})

test('a .dmg signed by another team than the app zip beside it is a 400 naming both', async () => {
  const problem = await expectProblem(
    await uploadFiles('disk', '2.2.0', [
      ['Harbor-2.2.0-mac.zip', zips.deno],
      ['Harbor-2.2.0.dmg', images.sentry],
    ]),
    400,
    'validation',
    'files',
  )
  assert.equal(
    problem.errors?.[0]?.message,
    '"Harbor-2.2.0.dmg" is signed by Team ID 97JCY7859U (Developer ID Application: GetSentry LLC (97JCY7859U)), but "Harbor-2.2.0-mac.zip" by Team ID 2H4KBF436B (Developer ID Application: Deno Land Inc. (2H4KBF436B)); one version has one publisher',
  )
})
