/**
 * Signer continuity: real PE files (compiled by Mono's `mcs`) and MSI packages (built by msitools'
 * `wixl`) signed by Debian's `osslsigncode` with throwaway certificates from `openssl req -x509`. A published version signed by another
 * publisher than the newest published one is refused with a 409 naming both, unless the upload
 * declares the change; a renewed certificate with the same subject is the same publisher.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { promisify } from 'node:util'
import { bearer, expectProblem, halfThenWait, expectSpec, jsonBody, uploadForm, withUploadTeam } from './helpers.ts'

const run = promisify(execFile)

const team = withUploadTeam('signer', undefined, {}, makeSignedFiles)
const { f } = team
let work: string
const signed: Record<'acme' | 'acmeRenewed' | 'beta', Uint8Array> = {
  acme: new Uint8Array(),
  acmeRenewed: new Uint8Array(),
  beta: new Uint8Array(),
}
const fingerprints: Record<string, string> = {}
let unsigned: Uint8Array

/** A self-signed code-signing certificate for `subject`; returns its key and certificate paths. */
async function certificate(name: string, subject: string, bits = 2048) {
  const key = join(work, `${name}.key`)
  const crt = join(work, `${name}.crt`)
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    `rsa:${bits}`,
    '-nodes',
    '-keyout',
    key,
    '-out',
    crt,
    '-days',
    '2',
    '-subj',
    subject,
  ])
  const der = await run('openssl', ['x509', '-in', crt, '-noout', '-fingerprint', '-sha256'])
  fingerprints[name] = der.stdout.trim().split('=')[1]?.replaceAll(':', '').toLowerCase() ?? ''
  return { key, crt }
}

async function signedWith(name: string, subject: string): Promise<Uint8Array> {
  const { key, crt } = await certificate(name, subject)
  const out = join(work, `${name}.exe`)
  await run('osslsigncode', [
    'sign',
    '-certs',
    crt,
    '-key',
    key,
    '-n',
    'Signer Test',
    '-in',
    join(work, 'app.exe'),
    '-out',
    out,
  ])
  return readFileSync(out)
}

const msi: Record<'acme' | 'beta', Uint8Array> = { acme: new Uint8Array(), beta: new Uint8Array() }

/** A minimal MSI package (one file, an embedded cabinet), as WiX sources build it. */
const WXS = `<?xml version="1.0" encoding="utf-8"?>
<Wix xmlns="http://schemas.microsoft.com/wix/2006/wi">
  <Product Id="*" Name="Signer Test" Language="1033" Version="1.0.0" Manufacturer="Ferry Tests" UpgradeCode="6f1e5a2c-3b4d-4e5f-8a9b-0c1d2e3f4a5b">
    <Package InstallerVersion="200" Compressed="yes" />
    <Media Id="1" Cabinet="app.cab" EmbedCab="yes" />
    <Directory Id="TARGETDIR" Name="SourceDir">
      <Directory Id="ProgramFilesFolder">
        <Directory Id="INSTALLDIR" Name="SignerTest">
          <Component Id="App" Guid="1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d"><File Id="AppTxt" Source="app.txt" /></Component>
        </Directory>
      </Directory>
    </Directory>
    <Feature Id="Main" Level="1"><ComponentRef Id="App" /></Feature>
  </Product>
</Wix>`

/**
 * Signs the MSI with a new certificate. `chain` adds two more certificates and a 4096-bit key, so
 * the signature stream passes the compound file's 4,096-byte mini-stream cutoff and is read from
 * regular sectors; without it, it lies in the mini stream.
 */
async function msiSignedWith(name: string, subject: string, chain: boolean): Promise<Uint8Array> {
  const { key, crt } = await certificate(name, subject, chain ? 4096 : 2048)
  const bundle = join(work, `${name}-chain.pem`)
  if (chain) {
    const issuers = [
      await certificate(`${name}-ca1`, '/CN=Signer Test CA 1', 4096),
      await certificate(`${name}-ca2`, '/CN=Signer Test CA 2', 4096),
    ]
    writeFileSync(bundle, issuers.map((c) => readFileSync(c.crt, 'utf8')).join(''))
  }
  const extra = chain ? ['-ac', bundle] : []
  const out = join(work, `${name}.msi`)
  await run('osslsigncode', [
    'sign',
    '-certs',
    crt,
    '-key',
    key,
    ...extra,
    '-n',
    'Signer Test',
    '-in',
    join(work, 'app.msi'),
    '-out',
    out,
  ])
  return readFileSync(out)
}

/** Apps, signing certificates and signed installers, made once the team exists. */
async function makeSignedFiles() {
  for (const slug of ['fresh', 'race', 'race-drafts', 'installer'])
    assert.equal((await f('/v1/apps', jsonBody({ slug, name: slug }, team.token))).status, 201)
  work = mkdtempSync(join(tmpdir(), 'ferry-signer-'))
  const source = join(work, 'app.cs')
  await run('sh', ['-c', `printf 'class App { static void Main() {} }' > ${source}`])
  await run('mcs', [`-out:${join(work, 'app.exe')}`, source])
  unsigned = readFileSync(join(work, 'app.exe'))
  signed.acme = await signedWith('acme', '/CN=Acme Ltd/O=Acme')
  signed.acmeRenewed = await signedWith('acmeRenewed', '/CN=Acme Ltd/O=Acme')
  signed.beta = await signedWith('beta', '/CN=Beta Corp/O=Beta')
  writeFileSync(join(work, 'app.txt'), 'hello')
  writeFileSync(join(work, 'app.wxs'), WXS)
  await run('wixl', ['-o', join(work, 'app.msi'), join(work, 'app.wxs')], { cwd: work })
  msi.acme = await msiSignedWith('msiAcme', '/CN=Acme Ltd/O=Acme', false)
  msi.beta = await msiSignedWith('msiBeta', '/CN=Beta Corp/O=Beta', true)
}
after(() => rmSync(work, { recursive: true, force: true }))

type Version = {
  id: string
  version: string
  signer?: { commonName: string | null; organization: string | null; fingerprint: string } | null
  signerChange?: { note: string; previous: { commonName: string | null } | null }
}

const upload = (
  app: string,
  version: string,
  exe: Uint8Array,
  fields: Record<string, string> = {},
  extension = 'exe',
) =>
  f(
    `/v1/apps/${app}/versions`,
    bearer(team.token, {
      method: 'POST',
      body: uploadForm({ version, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true', ...fields }, [
        [`App-Setup-${version}.${extension}`, exe],
      ]),
    }),
  )

const versions = async (app: string) =>
  (
    (await (await f(`/v1/apps/${app}/versions?limit=100`, bearer(team.token))).json()) as { items: Version[] }
  ).items.map((v) => v.version)

test('the Authenticode publisher is read and shown with the version', async () => {
  const version = (await expectSpec('uploadVersion', await upload('signer', '1.0.0', signed.acme), 201)) as Version
  assert.deepEqual(version.signer, {
    kind: 'authenticode',
    commonName: 'Acme Ltd',
    organization: 'Acme',
    fingerprint: fingerprints.acme,
  })
  assert.equal(version.signerChange, undefined)
})

test('a version signed by another publisher is refused with a 409 naming both; nothing is stored', async () => {
  const problem = await expectProblem(await upload('signer', '1.1.0', signed.beta), 409, 'conflict')
  assert.match(problem.detail, /signed by CN=Beta Corp, O=Beta/)
  assert.match(problem.detail, /1\.0\.0.*signed by CN=Acme Ltd, O=Acme/)
  assert.match(problem.detail, /signerChange=true/)
  assert.ok(!(await versions('signer')).includes('1.1.0'))
})

test('a renewed certificate with the same subject is the same publisher', async () => {
  assert.notEqual(fingerprints.acme, fingerprints.acmeRenewed)
  const version = (await expectSpec(
    'uploadVersion',
    await upload('signer', '1.1.0', signed.acmeRenewed),
    201,
  )) as Version
  assert.equal(version.signer?.fingerprint, fingerprints.acmeRenewed)
})

test('a declared change is accepted and shown on the version and in explain', async () => {
  const res = await upload('signer', '2.0.0', signed.beta, {
    signerChange: 'true',
    signerChangeNote: 'moved to the Beta certificate',
  })
  const version = (await expectSpec('uploadVersion', res, 201)) as Version
  assert.equal(version.signer?.commonName, 'Beta Corp')
  assert.deepEqual(version.signerChange, {
    note: 'moved to the Beta certificate',
    previous: {
      kind: 'authenticode',
      commonName: 'Acme Ltd',
      organization: 'Acme',
      fingerprint: fingerprints.acmeRenewed,
    },
  })
  const explain = (await expectSpec(
    'explainUpdate',
    await f(
      '/v1/apps/signer/update/explain?version=1.1.0&channel=stable&platform=windows&arch=x64&deviceId=signer-device-0001',
      bearer(team.token),
    ),
    200,
  )) as { offered: string; signerChange?: string }
  assert.equal(explain.offered, '2.0.0')
  assert.match(
    explain.signerChange ?? '',
    /^signed by CN=Beta Corp, O=Beta .*, was CN=Acme Ltd, O=Acme .*: a bridge release \(moved to the Beta certificate\)$/,
  )
  // After the bridge release, Beta is the publisher to keep.
  await expectSpec('uploadVersion', await upload('signer', '2.1.0', signed.beta), 201)
  await expectProblem(await upload('signer', '2.2.0', signed.acme), 409, 'conflict')
})

test('unsigned after signed is a change; an app never signed may stay unsigned, then sign', async () => {
  const problem = await expectProblem(await upload('signer', '2.2.0', unsigned), 409, 'conflict')
  assert.match(problem.detail, /2\.2\.0 is unsigned, but 2\.1\.0.*signed by CN=Beta Corp/)
  const plain = (await expectSpec('uploadVersion', await upload('fresh', '1.0.0', unsigned), 201)) as Version
  assert.equal(plain.signer, null)
  await expectSpec('uploadVersion', await upload('fresh', '1.1.0', unsigned), 201)
  const first = (await expectSpec('uploadVersion', await upload('fresh', '1.2.0', signed.acme), 201)) as Version
  assert.equal(first.signer?.commonName, 'Acme Ltd')
})

test('publishing a draft runs the same check', async () => {
  const draft = (await expectSpec(
    'uploadVersion',
    await upload('signer', '3.0.0', signed.acme, { published: 'false' }),
    201,
  )) as Version
  const publish = (id: string) =>
    f(`/v1/apps/signer/versions/${id}`, { ...jsonBody({ published: true }, team.token), method: 'PATCH' })
  const problem = (await expectSpec('updateVersion', await publish(draft.id), 409)) as { detail: string }
  assert.match(problem.detail, /signed by CN=Acme Ltd.*2\.1\.0.*signed by CN=Beta Corp/)
  const declared = (await expectSpec(
    'uploadVersion',
    await upload('signer', '3.0.1', signed.acme, { published: 'false', signerChange: 'true' }),
    201,
  )) as Version
  assert.deepEqual(declared.signerChange, { note: '', previous: null })
  const published = (await expectSpec('updateVersion', await publish(declared.id), 200)) as Version
  assert.equal(published.signerChange?.previous?.commonName, 'Beta Corp')
})

test('files of one version signed by different publishers, or a broken certificate table, are a 400 naming the file', async () => {
  const mixed = await f(
    '/v1/apps/fresh/versions',
    bearer(team.token, {
      method: 'POST',
      body: uploadForm({ version: '5.0.0', channel: 'stable', platform: 'windows', arch: 'x64' }, [
        ['a.exe', signed.acme],
        ['b.exe', signed.beta],
      ]),
    }),
  )
  const problem = await expectProblem(mixed, 400, 'validation', 'files')
  assert.match(problem.errors?.[0]?.message ?? '', /"b\.exe" is signed by CN=Beta Corp.*"a\.exe" by CN=Acme Ltd/)
  const cut = await expectProblem(
    await upload('fresh', '5.0.1', signed.acme.subarray(0, signed.acme.length - 100)),
    400,
    'validation',
    'files',
  )
  assert.match(
    cut.errors?.[0]?.message ?? '',
    /"App-Setup-5\.0\.1\.exe" has a certificate table of \d+ bytes at offset \d+ that does not fit the file/,
  )
})

/** Each response is a 201 or a 409; the accepted ones must all carry one publisher. */
async function onePublisher(responses: Response[]): Promise<string[]> {
  const accepted: string[] = []
  for (const res of responses) {
    if (res.status === 201 || res.status === 200)
      accepted.push(((await res.json()) as Version).signer?.commonName ?? 'unsigned')
    else
      assert.match(
        (await expectProblem(res, 409, 'conflict')).detail,
        /signed by CN=(Acme Ltd|Beta Corp).*signed by CN=(Acme Ltd|Beta Corp)/,
      )
  }
  assert.ok(accepted.length > 0, 'one upload is accepted')
  assert.deepEqual(
    new Set(accepted).size,
    1,
    `concurrent publishes with different signers both succeeded: ${accepted.join(', ')}`,
  )
  return accepted
}

test('concurrent uploads by two publishers: the first to record wins, the others are refused naming both', async () => {
  // Every body is held back before its end until all are in flight, then all end at once.
  let release = () => {}
  const rest = new Promise<void>((resolve) => {
    release = resolve
  })
  const exes = [signed.acme, signed.beta, signed.acme, signed.beta, signed.beta, signed.acme]
  const bodies = await Promise.all(
    exes.map((exe, i) =>
      halfThenWait(
        uploadForm({ version: `1.0.${i}`, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }, [
          ['App-Setup.exe', exe],
        ]),
        rest,
      ),
    ),
  )
  const responses = bodies.map((body) => f('/v1/apps/race/versions', body.init(team.token)))
  await Promise.all(bodies.map((body) => body.halfSent()))
  release()
  await onePublisher(await Promise.all(responses))
})

test('concurrent publishes of drafts by two publishers: only one publisher is published', async () => {
  const drafts = await Promise.all(
    [signed.acme, signed.beta, signed.acme, signed.beta].map(
      async (exe, i) =>
        (await expectSpec(
          'uploadVersion',
          await upload('race-drafts', `1.0.${i}`, exe, { published: 'false' }),
          201,
        )) as Version,
    ),
  )
  await onePublisher(
    await Promise.all(
      drafts.map((d) =>
        f(`/v1/apps/race-drafts/versions/${d.id}`, { ...jsonBody({ published: true }, team.token), method: 'PATCH' }),
      ),
    ),
  )
})

test('an MSI package: its Authenticode publisher is read; another publisher is refused naming both unless declared', async () => {
  const first = (await expectSpec(
    'uploadVersion',
    await upload('installer', '1.0.0', msi.acme, {}, 'msi'),
    201,
  )) as Version
  assert.deepEqual(first.signer, {
    kind: 'authenticode',
    commonName: 'Acme Ltd',
    organization: 'Acme',
    fingerprint: fingerprints.msiAcme,
  })
  const problem = await expectProblem(await upload('installer', '1.1.0', msi.beta, {}, 'msi'), 409, 'conflict')
  assert.match(problem.detail, /1\.1\.0 is signed by CN=Beta Corp, O=Beta .*1\.0\.0.*signed by CN=Acme Ltd, O=Acme/)
  const declared = (await expectSpec(
    'uploadVersion',
    await upload(
      'installer',
      '1.1.0',
      msi.beta,
      { signerChange: 'true', signerChangeNote: 'new MSI certificate' },
      'msi',
    ),
    201,
  )) as Version
  assert.equal(declared.signer?.fingerprint, fingerprints.msiBeta)
  assert.equal(declared.signerChange?.previous?.commonName, 'Acme Ltd')
  const explain = (await expectSpec(
    'explainUpdate',
    await f(
      '/v1/apps/installer/update/explain?version=1.0.0&channel=stable&platform=windows&arch=x64&deviceId=signer-device-0002',
      bearer(team.token),
    ),
    200,
  )) as { offered: string; signerChange?: string }
  assert.equal(explain.offered, '1.1.0')
  assert.match(
    explain.signerChange ?? '',
    /^signed by CN=Beta Corp, O=Beta .*, was CN=Acme Ltd, O=Acme .*: a bridge release \(new MSI certificate\)$/,
  )
})

test('an MSI whose signature stream is cut off is a 400 naming the file; one with no signature is unsigned', async () => {
  const cut = await expectProblem(
    await upload('installer', '3.0.0', msi.beta.subarray(0, msi.beta.length - 1024), {}, 'msi'),
    400,
    'validation',
    'files',
  )
  assert.match(
    cut.errors?.[0]?.message ?? '',
    /"App-Setup-3\.0\.0\.msi" is a compound file that has a sector at offset \d+ past its end/,
  )
  const plain = (await expectSpec(
    'uploadVersion',
    await upload('fresh', '6.0.0', readFileSync(join(work, 'app.msi')), { published: 'false' }, 'msi'),
    201,
  )) as Version
  assert.equal(plain.signer, null)
})
