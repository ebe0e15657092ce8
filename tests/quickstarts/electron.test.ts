/**
 * The Electron quickstart (pages/docs/quickstart-electron.mdx), performed against a real server:
 * its electron-builder config becomes the app-update.yml an installed app carries, its
 * `src/updater.js` runs with electron-updater's own NsisUpdater as `autoUpdater`, and releases go
 * up with `ferry publish`. The installed 1.0.0 app must find 1.1.0, download it through
 * electron-updater's SHA-512 check and prompt the user; macOS and Linux feeds must resolve too.
 * Backends: `npm test` runs it on SQLite and files only; its server comes from `startTestServer`,
 * so `npx tsx tests/server/run-on-postgres.ts <this file>` runs it on PostgreSQL + S3 (not in CI).
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { compileFunction } from 'node:vm'
import { parse, stringify } from 'yaml'
import { pageBlocks } from '../../lib/docs-runner/pages.ts'
import { ferry, write } from '../ferry-cli/fixtures.ts'
import {
  electronUpdaterCheck,
  electronUpdaterDownload,
  nsisUpdater,
  type AppUpdater,
} from '../server/clients/electron-updater.ts'
import { blockmap } from '../server/fixtures/blockmap.ts'
import { httpFetch, startTestServer, type TestServer } from '../server/helpers.ts'
import { quickstartTeam } from './team.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const PAGE = 'pages/docs/quickstart-electron.mdx'
const PAGE_SERVER = 'http://127.0.0.1:8080'

function pageFile(name: string): string {
  const block = pageBlocks(ROOT, PAGE).find((b) => b.meta.includes(`filename="${name}"`))
  assert.ok(block, `${PAGE} has no block with filename="${name}"`)
  return block.code
}

/**
 * `dist/` after `electron-builder --win --mac --linux` with the page's config (product name
 * "Harbor Notes", electron-builder's default artifact names), small files standing in for the
 * installers, and the latest*.yml it writes. Returns each file's content by name.
 */
function harborDist(dir: string, version: string): Record<string, string> {
  const files: Record<string, string> = {}
  const add = (name: string) => {
    files[name] = `Harbor Notes ${version}: ${name}\n`
    write(dir, name, files[name])
  }
  const info = (names: string[]) => {
    const entries = names.map((name) => ({
      url: name.replace(/ /g, '-'),
      sha512: createHash('sha512')
        .update(files[name] ?? '')
        .digest('base64'),
      size: Buffer.byteLength(files[name] ?? ''),
    }))
    return stringify({
      version,
      files: entries,
      path: entries[0]?.url,
      sha512: entries[0]?.sha512,
      releaseDate: '2026-11-23T10:00:00.000Z',
    })
  }
  const exe = `Harbor Notes Setup ${version}.exe`
  const mac = [`Harbor Notes-${version}-arm64-mac.zip`, `Harbor Notes-${version}-arm64.dmg`]
  const linux = [`Harbor Notes-${version}.AppImage`, `harbor-notes_${version}_amd64.deb`]
  for (const name of [...mac, ...mac.map((m) => `${m}.blockmap`), ...linux]) add(name)
  // The NSIS installer and its real blockmap: versions share every line but a few, so
  // electron-updater downloads 1.1.0 differentially from 1.0.0's installer.
  files[exe] = Array.from({ length: 6000 }, (_, i) =>
    i % 1000 === 500
      ? `Harbor Notes ${version} build line ${i}\n`
      : `Harbor Notes payload line ${i}: ${((i * 2654435761) % 4294967296).toString(36)}\n`,
  ).join('')
  write(dir, exe, files[exe])
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, `${exe}.blockmap`), blockmap(new TextEncoder().encode(files[exe])))
  write(dir, 'latest.yml', info([exe]))
  write(dir, 'latest-mac.yml', info(mac))
  write(dir, 'latest-linux.yml', info(linux.slice(0, 1)))
  write(dir, 'builder-debug.yml', 'x64: {}\n')
  return files
}

let server: TestServer
let work: string
let installers: Record<string, Record<string, string>>

before(async () => {
  server = await startTestServer()
  const f = httpFetch(server.url)
  // What step 1 of the page creates.
  const pipeline = await quickstartTeam(f, {
    email: 'ada@harbor.test',
    teamName: 'Harbor',
    app: { slug: 'harbor-notes', name: 'Harbor Notes' },
    updater: 'electron-updater',
    platforms: ['windows', 'darwin', 'linux'],
    archs: ['x64', 'arm64'],
    tokenName: 'release-pipeline',
  })
  work = mkdtempSync(join(tmpdir(), 'ferry-quickstart-electron-'))
  installers = {}
  for (const version of ['1.0.0', '1.1.0']) {
    const dist = join(work, `dist-${version}`)
    installers[version] = harborDist(dist, version)
    const run = await ferry(['publish', dist, '--app', 'harbor-notes', '--channel', 'stable'], {
      FERRY_URL: server.url,
      FERRY_TOKEN: pipeline,
    })
    assert.equal(run.code, 0, run.stderr)
  }
})
after(async () => {
  await server.stop()
  rmSync(work, { recursive: true, force: true })
})

/** What electron-builder writes into the app's resources from the page's `publish` entry. */
function appUpdateConfig(dir: string): string {
  const config: unknown = parse(pageFile('electron-builder.yml'))
  assert.ok(
    typeof config === 'object' && config !== null && 'publish' in config,
    'electron-builder.yml has a publish entry',
  )
  const publish = config.publish
  assert.ok(
    typeof publish === 'object' &&
      publish !== null &&
      'provider' in publish &&
      'url' in publish &&
      typeof publish.url === 'string',
  )
  assert.equal(publish.provider, 'generic')
  const path = join(dir, 'app-update.yml')
  writeFileSync(
    path,
    stringify({
      provider: 'generic',
      url: publish.url.replace(PAGE_SERVER, server.url),
      updaterCacheDirName: 'harbor-notes-updater',
    }),
  )
  return path
}

interface Electron {
  version: string
  platform: NodeJS.Platform
  arch: string
  autoUpdater: unknown
  dialogs: string[]
}

/** Loads the page's `src/updater.js` as Electron's main process would, with `require` answering electron and electron-updater. */
function loadUpdaterModule(electron: Electron): { startUpdates(): Promise<unknown> } {
  const source = pageFile('src/updater.js')
  assert.ok(source.includes(`'${PAGE_SERVER}'`), `src/updater.js no longer sets FERRY_URL to '${PAGE_SERVER}'`)
  const modules: Record<string, unknown> = {
    electron: {
      app: { getVersion: () => electron.version },
      dialog: {
        showMessageBox: (options: { message: string }) => {
          electron.dialogs.push(options.message)
          return Promise.resolve({ response: 1 })
        },
      },
    },
    'electron-updater': { autoUpdater: electron.autoUpdater },
  }
  const module = { exports: {} as { startUpdates?(): Promise<unknown> } }
  const run = compileFunction(source.replace(`'${PAGE_SERVER}'`, JSON.stringify(server.url)), [
    'require',
    'module',
    'exports',
    'process',
    'console',
  ])
  const requireShim = (name: string) => {
    assert.ok(name in modules, `src/updater.js requires ${name}`)
    return modules[name]
  }
  const consoleShim = {
    ...console,
    error: (...args: unknown[]) => {
      electron.dialogs.push(`console.error ${args.join(' ')}`)
    },
  }
  run(requireShim, module, module.exports, { platform: electron.platform, arch: electron.arch, env: {} }, consoleShim)
  const { startUpdates } = module.exports
  assert.ok(startUpdates, 'src/updater.js exports startUpdates')
  return { startUpdates }
}

function installedApp(version: string) {
  const dir = mkdtempSync(join(work, `installed-${version}-`))
  const log: string[] = []
  // The NSIS installer leaves the installed version's installer in the updater's cache, which
  // electron-updater's differential download starts from.
  mkdirSync(join(dir, 'cache', 'harbor-notes-updater'), { recursive: true })
  writeFileSync(
    join(dir, 'cache', 'harbor-notes-updater', 'installer.exe'),
    installers[version]?.[`Harbor Notes Setup ${version}.exe`] ?? '',
  )
  const updater = nsisUpdater(
    {
      version,
      name: 'Harbor Notes',
      userData: join(dir, 'userData'),
      cache: join(dir, 'cache'),
      appUpdateConfig: appUpdateConfig(dir),
    },
    log,
    { differential: true },
  )
  const electron: Electron = { version, platform: 'win32', arch: 'x64', autoUpdater: updater, dialogs: [] }
  return { updater, electron, log, updates: loadUpdaterModule(electron) }
}

test("the installed 1.0.0 Windows app finds 1.1.0, downloads it through electron-updater's SHA-512 check and asks to restart", async () => {
  const { updater, electron, log, updates } = installedApp('1.0.0')
  const events: string[] = []
  updater.on('update-available', (info: { version: string }) => {
    events.push(`available ${info.version}`)
  })
  const result = await updates.startUpdates()
  assert.ok(isCheck(result), `checkForUpdates returned ${String(result)}`)
  assert.equal(result.updateInfo.version, '1.1.0')
  assert.equal(result.isUpdateAvailable, true)
  const [downloaded] = await (result.downloadPromise ??
    Promise.reject(new Error('autoDownload did not start a download')))
  assert.ok(downloaded)
  assert.equal(
    readFileSync(downloaded, 'utf8'),
    installers['1.1.0']?.['Harbor Notes Setup 1.1.0.exe'],
    'the downloaded installer is the published one',
  )
  assert.deepEqual(events, ['available 1.1.0'])
  assert.deepEqual(electron.dialogs, ['Harbor Notes 1.1.0 is ready to install.'])
  assert.ok(
    log.some((l) => /New version 1\.1\.0 has been downloaded/.test(l)),
    log.join('\n'),
  )
  assert.ok(
    log.some((l) => /^info: Download block maps/.test(l)),
    `differential download from the cached 1.0.0 installer: ${log.join('\n')}`,
  )
  assert.ok(!log.some((l) => l.startsWith('error:')), log.join('\n'))
})

test('an app already on 1.1.0 finds nothing and downloads nothing', async () => {
  const { updater, electron, updates } = installedApp('1.1.0')
  const notAvailable = new Promise<{ version: string }>((resolve) => updater.on('update-not-available', resolve))
  const result = await updates.startUpdates()
  assert.ok(isCheck(result))
  assert.equal(result.isUpdateAvailable, false)
  assert.equal((await notAvailable).version, '1.1.0')
  assert.equal(result.downloadPromise ?? null, null)
  assert.deepEqual(electron.dialogs, [])
})

test("on macOS and Linux the page's feed URL resolves the 1.1.0 files, each downloaded with its SHA-512 checked", async () => {
  for (const [platform, arch, file] of [
    ['darwin', 'arm64', 'Harbor Notes-1.1.0-arm64-mac.zip'],
    ['linux', 'x64', 'Harbor Notes-1.1.0.AppImage'],
  ] as const) {
    const feed: string[] = []
    const autoUpdater = {
      setFeedURL: (o: { url: string }) => {
        feed.push(o.url)
      },
      on() {
        return autoUpdater
      },
      checkForUpdates: () => Promise.resolve(null),
    }
    await loadUpdaterModule({ version: '1.0.0', platform, arch, autoUpdater, dialogs: [] }).startUpdates()
    const [url] = feed
    assert.ok(url, `src/updater.js set no feed URL on ${platform}`)
    const check = await electronUpdaterCheck(url, '1.0.0', platform)
    assert.equal(check.info.version, '1.1.0', `${platform}/${arch}`)
    const [first] = check.files
    assert.ok(first, `no files for ${platform}/${arch}`)
    const saved = await electronUpdaterDownload(first.url, join(work, `${platform}-download`), first.info.sha512)
    assert.equal(readFileSync(saved, 'utf8'), installers['1.1.0']?.[file], `${platform}/${arch} downloads ${file}`)
  }
})

function isCheck(x: unknown): x is NonNullable<Awaited<ReturnType<AppUpdater['checkForUpdates']>>> {
  return typeof x === 'object' && x !== null && 'updateInfo' in x && 'isUpdateAvailable' in x
}
