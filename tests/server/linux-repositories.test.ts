/**
 * apt and rpm repositories against Debian's real clients: `apt-get update` + `apt-get download`
 * (its own Dir root, `signed-by=`, signature checks on) and `dnf --downloadonly install`
 * (`--installroot`, `gpgcheck=1`, `repo_gpgcheck=1`), both against Ferry on 127.0.0.1. A proxy
 * that changes one byte of `Packages.gz` or `primary.xml.gz` shows the clients refuse a tampered
 * index. FERRY_TEST_APT_GET / FERRY_TEST_DNF name other binaries (e.g. a real Fedora's dnf in a VM).
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { createHash } from 'node:crypto'
import { bearer, expectSpec, jsonBody, prepareUploadTeam, uploadForm, withUploadTeam } from './helpers.ts'
import { buildDeb, buildRpm, publisherKey } from './linux-package-fixtures.ts'

const APT_GET = process.env.FERRY_TEST_APT_GET ?? 'apt-get'
const DNF = process.env.FERRY_TEST_DNF ?? 'dnf'
const SLUG = 'harbor'

const team = withUploadTeam(SLUG, 20 * 1024 * 1024, {}, uploadPackages)
const { f } = team
let proxy: http.Server
let proxyBase: string
const work = mkdtempSync(join(tmpdir(), 'ferry-repos-'))
const deb = buildDeb('harbor-notes', '1.4.0', 'amd64')
const debAll = buildDeb('harbor-docs', '1.4.0', 'all', 'gzip')
const publisher = publisherKey()
const rpm = buildRpm('harbor-notes', '1.4.0', publisher)
let versionId = ''

/** Forwards to Ferry; with `?`-less paths ending in a tampered name, flips one byte of the decompressed index. */
function startProxy(target: string, tampered: RegExp): Promise<http.Server> {
  const p = http.createServer((req, res) => {
    void (async () => {
      const upstream = await fetch(target + (req.url ?? '/'), {
        headers: { ...(req.headers.range ? { range: req.headers.range } : {}) },
      })
      let body = new Uint8Array(await upstream.arrayBuffer())
      if (upstream.status === 200 && tampered.test(req.url ?? '')) {
        const text = gunzipSync(body)
        const at = text.indexOf('harbor-notes')
        text[at] = 'H'.charCodeAt(0)
        body = gzipSync(text)
      }
      res.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream',
        'content-length': body.length,
      })
      res.end(body)
    })().catch((error: unknown) => res.destroy(error instanceof Error ? error : new Error(String(error))))
  })
  return new Promise((resolve) => p.listen(0, '127.0.0.1', () => resolve(p)))
}

/** The packages, uploaded once the team exists, and the tampering proxy in front. */
async function uploadPackages() {
  const form = uploadForm(
    { version: '1.4.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' },
    [
      ['harbor-notes_1.4.0_amd64.deb', deb],
      ['harbor-docs_1.4.0_all.deb', debAll],
      ['harbor-notes-1.4.0-1.noarch.rpm', rpm],
    ],
  )
  const res = await f(`/v1/apps/${SLUG}/versions`, bearer(team.token, { method: 'POST', body: form }))
  assert.equal(res.status, 201, await res.clone().text())
  versionId = ((await res.json()) as { id: string }).id
  proxy = await startProxy(team.server.url, /Packages\.gz$|primary\.xml\.gz$/)
  proxyBase = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
}

after(async () => {
  await new Promise((resolve) => proxy.close(resolve))
  rmSync(work, { recursive: true, force: true })
  publisher.remove()
})

/** Runs a client without blocking this process, which serves Ferry to it. */
function run(
  command: string,
  args: string[],
  cwd?: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...(cwd ? { cwd } : {}), stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
    })
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString()
    })
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

/** apt-get with every directory under `root`: the machine's sources, keys, lists and dpkg status stay untouched. */
function aptGet(root: string, base: string, args: string[]) {
  const key = join(root, 'harbor.asc')
  mkdirSync(join(root, 'etc/sources.list.d'), { recursive: true })
  mkdirSync(join(root, 'etc/trusted.gpg.d'), { recursive: true })
  mkdirSync(join(root, 'etc/preferences.d'), { recursive: true })
  mkdirSync(join(root, 'state/lists/partial'), { recursive: true })
  mkdirSync(join(root, 'cache/archives/partial'), { recursive: true })
  mkdirSync(join(root, 'download'), { recursive: true })
  writeFileSync(join(root, 'status'), '')
  writeFileSync(
    join(root, 'etc/sources.list.d/harbor.list'),
    `deb [signed-by=${key}] ${base}/v1/apps/${SLUG}/apt stable main\n`,
  )
  const options = [
    `Dir::Etc=${join(root, 'etc')}`,
    'Dir::Etc::sourcelist=/dev/null',
    `Dir::Etc::sourceparts=${join(root, 'etc/sources.list.d')}`,
    `Dir::Etc::trustedparts=${join(root, 'etc/trusted.gpg.d')}`,
    `Dir::Etc::preferencesparts=${join(root, 'etc/preferences.d')}`,
    `Dir::State=${join(root, 'state')}`,
    `Dir::State::status=${join(root, 'status')}`,
    `Dir::Cache=${join(root, 'cache')}`,
    'APT::Architecture=amd64',
    'APT::Architectures=amd64',
    'APT::Sandbox::User=root',
    'Acquire::Languages=none',
    'Debug::NoLocking=1',
  ].flatMap((o) => ['-o', o])
  return run(APT_GET, [...options, ...args], join(root, 'download'))
}

/** dnf with its own install root, repo directory and cache; the repository's key comes from its URL. */
function dnf(root: string, base: string, args: string[]) {
  mkdirSync(join(root, 'repos.d'), { recursive: true })
  mkdirSync(join(root, 'log'), { recursive: true })
  // Ferry's key signs the metadata (repo_gpgcheck); the publisher's own key signs the packages (gpgcheck).
  writeFileSync(join(root, 'publisher.asc'), publisher.publicKey)
  writeFileSync(
    join(root, 'repos.d/harbor.repo'),
    [
      '[harbor]',
      'name=Harbor Notes',
      `baseurl=${base}/v1/apps/${SLUG}/rpm/stable`,
      'enabled=1',
      'gpgcheck=1',
      'repo_gpgcheck=1',
      `gpgkey=${base}/v1/apps/${SLUG}/repository-key.asc file://${join(root, 'publisher.asc')}`,
      'metadata_expire=0',
      '',
    ].join('\n'),
  )
  return run(DNF, [
    '-y',
    `--installroot=${join(root, 'installroot')}`,
    `--setopt=reposdir=${join(root, 'repos.d')}`,
    `--setopt=cachedir=${join(root, 'cache')}`,
    '--setopt=logdir=' + join(root, 'log'),
    '--releasever=1',
    ...args,
  ])
}

test('apt-get update and download verify the signed repository and fetch the package', async () => {
  const root = join(work, 'apt')
  mkdirSync(root, { recursive: true })
  writeFileSync(join(root, 'harbor.asc'), await (await f(`/v1/apps/${SLUG}/repository-key.asc`)).text())
  const update = await aptGet(root, team.server.url, ['update'])
  assert.equal(update.status, 0, update.stdout + update.stderr)
  assert.doesNotMatch(update.stdout + update.stderr, /NO_PUBKEY|not signed|insecure|W: /)
  const download = await aptGet(root, team.server.url, ['download', 'harbor-notes', 'harbor-docs'])
  assert.equal(download.status, 0, download.stdout + download.stderr)
  assert.equal(sha256(readFileSync(join(root, 'download/harbor-notes_1.4.0_amd64.deb'))), sha256(deb))
  assert.equal(sha256(readFileSync(join(root, 'download/harbor-docs_1.4.0_all.deb'))), sha256(debAll))
})

test('apt-get refuses a Packages index changed behind Ferry', async () => {
  const root = join(work, 'apt-tampered')
  mkdirSync(root, { recursive: true })
  writeFileSync(join(root, 'harbor.asc'), await (await f(`/v1/apps/${SLUG}/repository-key.asc`)).text())
  const update = await aptGet(root, proxyBase, ['update'])
  assert.notEqual(update.status, 0, update.stdout + update.stderr)
  assert.match(update.stdout + update.stderr, /Hash Sum mismatch|File has unexpected size/)
  const download = await aptGet(root, proxyBase, ['download', 'harbor-notes'])
  assert.notEqual(download.status, 0)
})

test('apt-get refuses the repository signed by another key', async () => {
  const root = join(work, 'apt-wrong-key')
  mkdirSync(root, { recursive: true })
  // Another app's key: the signature does not verify against it.
  const other = await prepareUploadTeam(f, 'other-app').then(() => f('/v1/apps/other-app/repository-key.asc'))
  writeFileSync(join(root, 'harbor.asc'), await other.text())
  const update = await aptGet(root, team.server.url, ['update'])
  assert.match(update.stdout + update.stderr, /NO_PUBKEY|not signed|signatures couldn't be verified/)
  assert.notEqual((await aptGet(root, team.server.url, ['download', 'harbor-notes'])).status, 0)
})

test('dnf verifies repomd.xml and downloads the package', async () => {
  const root = join(work, 'dnf')
  const result = await dnf(root, team.server.url, [
    '--downloadonly',
    `--destdir=${join(root, 'out')}`,
    'install',
    'harbor-notes',
  ])
  assert.equal(result.status, 0, result.stdout + result.stderr)
  const [file] = readdirSync(join(root, 'out')).filter((n) => n.endsWith('.rpm'))
  assert.equal(file, 'harbor-notes-1.4.0-1.noarch.rpm')
  assert.equal(sha256(readFileSync(join(root, 'out', file))), sha256(rpm))
})

test('dnf refuses a primary.xml.gz changed behind Ferry', async () => {
  const root = join(work, 'dnf-tampered')
  const result = await dnf(root, proxyBase, [
    '--downloadonly',
    `--destdir=${join(root, 'out')}`,
    'install',
    'harbor-notes',
  ])
  assert.notEqual(result.status, 0, result.stdout + result.stderr)
  assert.match(result.stdout + result.stderr, /checksum|Checksum|Cannot download repomd|Failed to download metadata/)
})

test('the indexes agree with each other and list only published versions at 100 %', async () => {
  const release = (await expectSpec(
    'getAptRelease',
    await f(`/v1/apps/${SLUG}/apt/dists/stable/Release`),
    200,
  )) as string
  const packages = new Uint8Array(
    await (await f(`/v1/apps/${SLUG}/apt/dists/stable/main/binary-amd64/Packages`)).arrayBuffer(),
  )
  assert.match(release, new RegExp(` ${sha256(packages)} +${packages.length} main/binary-amd64/Packages\n`))
  assert.match(
    new TextDecoder().decode(packages),
    /Package: harbor-docs\n[\s\S]*Filename: pool\/art_\w+\/harbor-docs_1\.4\.0_all\.deb/,
  )
  const inRelease = (await expectSpec(
    'getAptRelease',
    await f(`/v1/apps/${SLUG}/apt/dists/stable/InRelease`),
    200,
  )) as string
  assert.ok(inRelease.startsWith('-----BEGIN PGP SIGNED MESSAGE-----'), inRelease)
  await expectSpec('getAptRelease', await f(`/v1/apps/${SLUG}/apt/dists/stable/Release.gpg`), 200)
  await expectSpec('getAptPackages', await f(`/v1/apps/${SLUG}/apt/dists/stable/main/binary-arm64/Packages.gz`), 200)
  await expectSpec('getRepositoryKey', await f(`/v1/apps/${SLUG}/repository-key.asc`), 200)
  const repomd = (await expectSpec(
    'getRpmMetadata',
    await f(`/v1/apps/${SLUG}/rpm/stable/repodata/repomd.xml`),
    200,
  )) as string
  assert.match(repomd, /<location href="repodata\/primary\.xml\.gz"\/>/)
  await expectSpec('getRpmMetadata', await f(`/v1/apps/${SLUG}/rpm/stable/repodata/repomd.xml.asc`), 200)
  const pool = /Filename: (pool\/\S+harbor-notes\S+)/.exec(
    await (await f(`/v1/apps/${SLUG}/apt/dists/stable/main/binary-amd64/Packages`)).text(),
  )?.[1]
  const poolRes = await f(`/v1/apps/${SLUG}/apt/${pool ?? ''}`)
  assert.equal(poolRes.headers.get('cache-control'), 'public, max-age=31536000, immutable')
  await expectSpec('getAptPackageFile', poolRes, 200)
  const href = /<location href="(packages\/[^"]+)"/.exec(
    gunzipSync(
      new Uint8Array(await (await f(`/v1/apps/${SLUG}/rpm/stable/repodata/primary.xml.gz`)).arrayBuffer()),
    ).toString(),
  )?.[1]
  await expectSpec('getRpmPackageFile', await f(`/v1/apps/${SLUG}/rpm/stable/${href ?? ''}`), 200)
  const release2 = await f(`/v1/apps/${SLUG}/apt/dists/stable/Release`)
  assert.equal(release2.headers.get('cache-control'), 'public, max-age=60')
  assert.ok(inRelease.includes(release.trimEnd()), JSON.stringify(inRelease.slice(0, 400)))

  const listed = async () => ({
    apt: await (await f(`/v1/apps/${SLUG}/apt/dists/stable/main/binary-amd64/Packages`)).text(),
    rpm: gunzipSync(
      new Uint8Array(await (await f(`/v1/apps/${SLUG}/rpm/stable/repodata/primary.xml.gz`)).arrayBuffer()),
    ).toString(),
  })
  const patch = (body: unknown) =>
    f(`/v1/apps/${SLUG}/versions/${versionId}`, { ...jsonBody(body, team.token), method: 'PATCH' })
  assert.equal((await patch({ rolloutPercentage: 50 })).status, 200)
  let now = await listed()
  assert.doesNotMatch(now.apt, /harbor-notes/)
  assert.doesNotMatch(now.rpm, /harbor-notes/)
  assert.equal((await patch({ rolloutPercentage: 100 })).status, 200)
  now = await listed()
  assert.match(now.apt, /Package: harbor-notes/)
  assert.match(now.rpm, /<name>harbor-notes<\/name>/)
  const pull = await f(`/v1/apps/${SLUG}/versions/${versionId}/pull`, jsonBody({}, team.token))
  assert.equal(pull.status, 200, await pull.clone().text())
  now = await listed()
  assert.doesNotMatch(now.apt, /harbor-notes/)
  assert.doesNotMatch(now.rpm, /harbor-notes/)
  await expectSpec('getAptPackageFile', await f(`/v1/apps/${SLUG}/apt/${pool ?? ''}`), 404)
})

test('an unreadable .deb or .rpm is stored but left out of the repositories', async () => {
  const form = uploadForm(
    { version: '1.5.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' },
    [
      ['broken_1.5.0_amd64.deb', 'not a deb'],
      ['broken-1.5.0-1.x86_64.rpm', new Uint8Array(200)],
    ],
  )
  const res = await f(`/v1/apps/${SLUG}/versions`, bearer(team.token, { method: 'POST', body: form }))
  assert.equal(res.status, 201, await res.clone().text())
  assert.doesNotMatch(await (await f(`/v1/apps/${SLUG}/apt/dists/stable/main/binary-amd64/Packages`)).text(), /broken/)
  const primary = gunzipSync(
    new Uint8Array(await (await f(`/v1/apps/${SLUG}/rpm/stable/repodata/primary.xml.gz`)).arrayBuffer()),
  ).toString()
  assert.doesNotMatch(primary, /broken/)
})

test('private apps and unknown channels have no repository', async () => {
  await f('/v1/apps', jsonBody({ slug: 'secret-app', name: 'Secret', private: true }, team.token))
  await expectSpec('getAptRelease', await f('/v1/apps/secret-app/apt/dists/stable/InRelease'), 404)
  await expectSpec('getRepositoryKey', await f('/v1/apps/secret-app/repository-key.asc'), 404)
  await expectSpec('getRpmMetadata', await f(`/v1/apps/${SLUG}/rpm/nightly/repodata/repomd.xml`), 404)
  await expectSpec('getAptPackages', await f(`/v1/apps/${SLUG}/apt/dists/stable/main/binary-s390x/Packages`), 404)
})
