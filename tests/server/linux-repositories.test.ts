/**
 * apt and rpm repositories against Debian's real clients: `apt-get update` + `apt-get download`
 * (its own Dir root, `signed-by=`, signature checks on) and `dnf --downloadonly install`
 * (`--installroot`, `gpgcheck=1`, `repo_gpgcheck=1`), both against Ferry on 127.0.0.1. A proxy
 * that changes one byte of an apt index or `primary.xml.gz` shows the clients refuse a tampered
 * index; one that logs apt's requests shows it fetches `Packages.xz` by hash, and one that uploads
 * a version between apt's `InRelease` and its index shows `by-hash/` keeps the index apt expects.
 * FERRY_TEST_APT_GET / FERRY_TEST_DNF name other binaries (e.g. a real Fedora's dnf in a VM).
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
import {
  bearer,
  expectProblem,
  expectSpec,
  jsonBody,
  memoryApp,
  prepareUploadTeam,
  uploadForm,
  withUploadTeam,
} from './helpers.ts'
import { buildDeb, buildRpm, publisherKey } from './linux-package-fixtures.ts'

const APT_GET = process.env.FERRY_TEST_APT_GET ?? 'apt-get'
const DNF = process.env.FERRY_TEST_DNF ?? 'dnf'
const SLUG = 'harbor'

let proxy: http.Server
let proxyBase: string
const work = mkdtempSync(join(tmpdir(), 'ferry-repos-'))
const deb = buildDeb('harbor-notes', '1.4.0', 'amd64')
const debAll = buildDeb('harbor-docs', '1.4.0', 'all', 'gzip')
const publisher = publisherKey()
const rpm = buildRpm('harbor-notes', '1.4.0', publisher)
let versionId = ''

interface ProxyOptions {
  /** Paths whose index is changed by one byte: decompressed for `.gz` files, else the bytes as sent. */
  tampered?: RegExp
  /** Called with each request's path before it is forwarded (and awaited). */
  before?: (path: string) => Promise<void>
}

/** Forwards to Ferry, changing what `options` says. */
function startProxy(target: string, options: ProxyOptions): Promise<http.Server> {
  const p = http.createServer((req, res) => {
    void (async () => {
      await options.before?.(req.url ?? '/')
      const upstream = await fetch(target + (req.url ?? '/'), {
        headers: { ...(req.headers.range ? { range: req.headers.range } : {}) },
      })
      let body = new Uint8Array(await upstream.arrayBuffer())
      if (upstream.status === 200 && options.tampered?.test(req.url ?? '')) {
        if (req.url?.endsWith('.gz')) {
          const text = gunzipSync(body)
          const at = text.indexOf('harbor-notes')
          text[at] = 'H'.charCodeAt(0)
          body = gzipSync(text)
        } else {
          const at = body.length >> 1
          body[at] = (body[at] ?? 0) ^ 1
        }
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

const team = withUploadTeam(SLUG, 20 * 1024 * 1024, {}, async ({ server, f, token }) => {
  const form = uploadForm(
    { version: '1.4.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' },
    [
      ['harbor-notes_1.4.0_amd64.deb', deb],
      ['harbor-docs_1.4.0_all.deb', debAll],
      ['harbor-notes-1.4.0-1.noarch.rpm', rpm],
    ],
  )
  const res = await f(`/v1/apps/${SLUG}/versions`, bearer(token, { method: 'POST', body: form }))
  assert.equal(res.status, 201, await res.clone().text())
  versionId = ((await res.json()) as { id: string }).id
  proxy = await startProxy(server.url, { tampered: /\/by-hash\/|Packages(\.gz|\.xz)?$|primary\.xml\.gz$/ })
  proxyBase = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
})
const { f } = team

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

/** A proxy for one test, closed after it. */
async function withProxy<T>(options: ProxyOptions, body: (base: string) => Promise<T>): Promise<T> {
  const p = await startProxy(team.server.url, options)
  try {
    return await body(`http://127.0.0.1:${(p.address() as AddressInfo).port}`)
  } finally {
    await new Promise((resolve) => p.close(resolve))
  }
}

/** The SHA-256 that the channel's `Release` lists now for one index file. */
async function listedHash(path: string): Promise<string> {
  const release = await (await f(`/v1/apps/${SLUG}/apt/dists/stable/Release`)).text()
  const hash = new RegExp(` ([0-9a-f]{64}) +\\d+ ${path.replaceAll('.', '\\.')}\n`).exec(release)?.[1]
  assert.ok(hash, `${path} is not listed in:\n${release}`)
  return hash
}

test('apt-get update fetches the indexes by hash, as Packages.xz', async () => {
  const root = join(work, 'apt-by-hash')
  mkdirSync(root, { recursive: true })
  writeFileSync(join(root, 'harbor.asc'), await (await f(`/v1/apps/${SLUG}/repository-key.asc`)).text())
  const requested: string[] = []
  await withProxy({ before: async (path) => void requested.push(path) }, async (base) => {
    const update = await aptGet(root, base, ['update'])
    assert.equal(update.status, 0, update.stdout + update.stderr)
    assert.doesNotMatch(update.stdout + update.stderr, /W: |E: /)
    const xz = await listedHash('main/binary-amd64/Packages.xz')
    const indexes = requested.filter((r) => r.includes('/main/binary-'))
    assert.deepEqual(indexes, [`/v1/apps/${SLUG}/apt/dists/stable/main/binary-amd64/by-hash/SHA256/${xz}`])
    const download = await aptGet(root, base, ['download', 'harbor-notes'])
    assert.equal(download.status, 0, download.stdout + download.stderr)
  })
})

test('an upload between apt reading InRelease and fetching the index: by-hash still serves the index InRelease lists', async () => {
  const root = join(work, 'apt-race')
  mkdirSync(root, { recursive: true })
  writeFileSync(join(root, 'harbor.asc'), await (await f(`/v1/apps/${SLUG}/repository-key.asc`)).text())
  const before = await listedHash('main/binary-amd64/Packages.xz')
  let uploaded = false
  const uploadOnce = async (path: string) => {
    if (uploaded || !path.includes('/by-hash/')) return
    uploaded = true
    const form = uploadForm(
      { version: '1.6.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' },
      [['harbor-extras_1.6.0_amd64.deb', buildDeb('harbor-extras', '1.6.0', 'amd64')]],
    )
    const res = await f(`/v1/apps/${SLUG}/versions`, bearer(team.token, { method: 'POST', body: form }))
    assert.equal(res.status, 201, await res.clone().text())
    // The index apt is about to fetch is no longer the one Ferry lists.
    assert.notEqual(await listedHash('main/binary-amd64/Packages.xz'), before)
  }
  await withProxy({ before: uploadOnce }, async (base) => {
    const update = await aptGet(root, base, ['update'])
    assert.ok(uploaded, 'apt fetched no index by hash')
    assert.equal(update.status, 0, update.stdout + update.stderr)
    assert.doesNotMatch(update.stdout + update.stderr, /Hash Sum mismatch|unexpected size|W: |E: /)
    // apt holds the listing it read: the package uploaded meanwhile is not in it, the older one is;
    // the next update brings the new one.
    assert.equal((await aptGet(root, base, ['download', 'harbor-notes'])).status, 0)
    const early = await aptGet(root, base, ['download', 'harbor-extras'])
    assert.notEqual(early.status, 0, early.stdout)
    assert.match(early.stderr, /Unable to locate package harbor-extras/)
    assert.equal((await aptGet(root, base, ['update'])).status, 0)
    const later = await aptGet(root, base, ['download', 'harbor-extras'])
    assert.equal(later.status, 0, later.stdout + later.stderr)
  })
  assert.ok(readdirSync(join(root, 'download')).includes('harbor-extras_1.6.0_amd64.deb'))
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
  // Through the same proxy unchanged, dnf installs: what it refuses below is the changed byte.
  await withProxy({}, async (base) => {
    const root = join(work, 'dnf-proxied')
    const result = await dnf(root, base, [
      '--downloadonly',
      `--destdir=${join(root, 'out')}`,
      'install',
      'harbor-notes',
    ])
    assert.equal(result.status, 0, result.stdout + result.stderr)
  })
  const root = join(work, 'dnf-tampered')
  const result = await dnf(root, proxyBase, [
    '--downloadonly',
    `--destdir=${join(root, 'out')}`,
    'install',
    'harbor-notes',
  ])
  assert.notEqual(result.status, 0, result.stdout + result.stderr)
  // dnf names the file and the cause: its checksum in the signed repomd.xml no longer matches.
  assert.match(result.stdout + result.stderr, /checksum doesn't match/)
  assert.match(result.stdout + result.stderr, /repodata\/primary\.xml\.gz - Cannot download/)
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

test('an index stays served by hash for 24 hours after it is replaced; without an xz compressor only Packages and .gz are listed', async () => {
  let now = Date.parse('2026-01-01T00:00:00Z')
  const m = await memoryApp({}, () => new Date(now))
  const owner = await prepareUploadTeam(m.fetch, 'by-hash-app')
  const publish = async (version: string) => {
    const form = uploadForm({ version, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }, [
      [`by-hash-app_${version}_amd64.deb`, buildDeb('by-hash-app', version, 'amd64', 'gzip')],
    ])
    const res = await m.fetch('/v1/apps/by-hash-app/versions', bearer(owner, { method: 'POST', body: form }))
    assert.equal(res.status, 201, await res.clone().text())
  }
  const dists = '/v1/apps/by-hash-app/apt/dists/stable'
  const listedGz = async () => {
    const release = await (await m.fetch(`${dists}/Release`)).text()
    assert.doesNotMatch(release, /Packages\.xz/)
    return /([0-9a-f]{64}) +\d+ main\/binary-amd64\/Packages\.gz\n/.exec(release)?.[1] ?? ''
  }
  const byHash = (hash: string) => m.fetch(`${dists}/main/binary-amd64/by-hash/SHA256/${hash}`)
  await publish('1.0.0')
  const first = await listedGz()
  await publish('1.1.0')
  const second = await listedGz()
  assert.notEqual(second, first)
  await expectSpec('getAptPackages', await m.fetch(`${dists}/main/binary-amd64/Packages.xz`), 404)

  now += 23 * 3600_000
  const old = await byHash(first)
  assert.equal(old.headers.get('cache-control'), 'public, max-age=31536000, immutable')
  const bytes = new Uint8Array(await old.clone().arrayBuffer())
  assert.equal(sha256(bytes), first)
  assert.match(gunzipSync(bytes).toString(), /Version: 1\.0\.0/)
  assert.doesNotMatch(gunzipSync(bytes).toString(), /Version: 1\.1\.0/)
  await expectSpec('getAptIndexByHash', old, 200)

  now += 2 * 3600_000
  const gone = await expectProblem(await byHash(first), 404, 'not-found')
  assert.match(gone.detail ?? '', /for 24 hours after/)
  await expectSpec('getAptIndexByHash', await byHash(second), 200)
  await expectProblem(await byHash('not-a-hash'), 400, 'validation', 'hash')
})
