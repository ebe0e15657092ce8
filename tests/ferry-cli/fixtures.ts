/**
 * Build outputs for the ferry CLI tests, written into a temp dir with small fake files under the
 * names electron-builder and Tauri v2 give them, and metadata (latest*.yml, RELEASES) computed
 * from their bytes as those tools compute it.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stringify } from 'yaml'

const ROOT = join(import.meta.dirname, '..', '..')

export function write(dir: string, name: string, content: string): void {
  mkdirSync(join(dir, name, '..'), { recursive: true })
  writeFileSync(join(dir, name), content)
}

const sha512 = (content: string) => createHash('sha512').update(content).digest('base64')
const sha1 = (content: string) => createHash('sha1').update(content).digest('hex')

/** electron-builder's update info for `files` (url → content), as it writes latest.yml. */
function updateInfo(version: string, files: Record<string, string>): string {
  const entries = Object.entries(files).map(([url, content]) => ({
    url,
    sha512: sha512(content),
    size: Buffer.byteLength(content),
  }))
  const first = entries[0]
  return stringify({
    version,
    files: entries,
    path: first?.url,
    sha512: first?.sha512,
    releaseDate: '2025-03-14T10:15:00.000Z',
  })
}

/**
 * `dist/` after `electron-builder --win nsis squirrel --mac --linux`: NSIS installer with
 * blockmap (its update info names it with dashes for spaces), an arm64 mac zip and dmg, a Linux
 * AppImage and deb, Squirrel.Windows packages with RELEASES, an older build left behind, and
 * electron-builder's own debug files. `content(name)` lets a test change one file's bytes.
 */
export function electronBuilderDist(
  dir: string,
  version: string,
  content = (name: string) => `bytes of ${name}\n`,
  channel = 'latest',
): Record<string, string> {
  const files: Record<string, string> = {}
  const add = (name: string) => {
    files[name] = content(name)
    write(dir, name, files[name])
  }
  for (const name of [
    `Notes Setup ${version}.exe`,
    `Notes Setup ${version}.exe.blockmap`,
    `Notes-${version}-arm64-mac.zip`,
    `Notes-${version}-arm64-mac.zip.blockmap`,
    `Notes-${version}-arm64.dmg`,
    `Notes-${version}-arm64.dmg.blockmap`,
    `Notes-${version}.AppImage`,
    `notes_${version}_amd64.deb`,
    `squirrel-windows/Notes-${version}-full.nupkg`,
    `squirrel-windows/Notes-${version}-delta.nupkg`,
  ])
    add(name)
  write(dir, 'Notes Setup 1.0.0.exe', 'an older build\n')
  write(dir, 'builder-debug.yml', 'x64: {}\n')
  write(dir, 'builder-effective-config.yaml', 'appId: test.notes\n')
  write(dir, 'win-unpacked/Notes.exe', 'unpacked\n')
  const exe = `Notes Setup ${version}.exe`
  const suffix = channel
  write(dir, `${suffix}.yml`, updateInfo(version, { [exe.replace(/ /g, '-')]: files[exe] ?? '' }))
  write(
    dir,
    `${suffix}-mac.yml`,
    updateInfo(version, {
      [`Notes-${version}-arm64-mac.zip`]: files[`Notes-${version}-arm64-mac.zip`] ?? '',
      [`Notes-${version}-arm64.dmg`]: files[`Notes-${version}-arm64.dmg`] ?? '',
    }),
  )
  write(
    dir,
    `${suffix}-linux.yml`,
    updateInfo(version, { [`Notes-${version}.AppImage`]: files[`Notes-${version}.AppImage`] ?? '' }),
  )
  const nupkgs = [`Notes-${version}-full.nupkg`, `Notes-${version}-delta.nupkg`]
  write(
    dir,
    'squirrel-windows/RELEASES',
    [
      `${sha1('old')} Notes-1.0.0-full.nupkg 3`,
      ...nupkgs.map((n) => {
        const c = files[`squirrel-windows/${n}`] ?? ''
        return `${sha1(c)} ${n} ${Buffer.byteLength(c)}`
      }),
    ].join('\r\n'),
  )
  return files
}

/** The files of one Notes release as electron-builder names them for upload (dashes for spaces): NSIS with blockmap, a Squirrel.Windows full package, a mac zip and dmg, an AppImage. */
function releaseFiles(version: string): { windows: string[]; nupkg: string; mac: string[]; linux: string[] } {
  return {
    windows: [`Notes-Setup-${version}.exe`, `Notes-Setup-${version}.exe.blockmap`],
    nupkg: `Notes-${version}-full.nupkg`,
    mac: [`Notes-${version}-mac.zip`, `Notes-${version}.dmg`],
    linux: [`Notes-${version}.AppImage`],
  }
}

const releasesLine = (name: string, content: string) => `${sha1(content)} ${name} ${Buffer.byteLength(content)}`

/**
 * The assets of one GitHub Release of Notes, as `electron-builder --publish always` leaves them on
 * the tag (and Hazel, Nuts or update.electronjs.org serve them): installers, latest*.yml, and
 * Squirrel.Windows' RELEASES beside its package. `content(name)` lets a test change one file.
 */
export function releaseAssets(dir: string, version: string, content = (name: string) => `bytes of ${name}\n`): void {
  const files = releaseFiles(version)
  const put = (name: string) => {
    const c = content(name)
    write(dir, name, c)
    return c
  }
  const body = Object.fromEntries([...files.windows, files.nupkg, ...files.mac, ...files.linux].map((n) => [n, put(n)]))
  write(
    dir,
    'latest.yml',
    updateInfo(version, { [`Notes-Setup-${version}.exe`]: body[`Notes-Setup-${version}.exe`] ?? '' }),
  )
  write(dir, 'latest-mac.yml', updateInfo(version, Object.fromEntries(files.mac.map((n) => [n, body[n] ?? '']))))
  write(dir, 'latest-linux.yml', updateInfo(version, Object.fromEntries(files.linux.map((n) => [n, body[n] ?? '']))))
  write(dir, 'RELEASES', releasesLine(files.nupkg, body[files.nupkg] ?? ''))
}

/**
 * A static update folder for electron-updater's generic provider (an S3 bucket, any web host)
 * after several releases: every version's installers side by side, latest*.yml naming only the
 * newest, Squirrel.Windows' RELEASES listing every package, a "latest" download link copy
 * whose name has no version, and the blockmap of a version whose installer was deleted.
 */
export function staticFolder(dir: string, versions: string[]): void {
  const releases: string[] = []
  for (const version of versions) {
    const files = releaseFiles(version)
    for (const name of [...files.windows, files.nupkg, ...files.mac, ...files.linux])
      write(dir, name, `bytes of ${name}\n`)
    releases.push(releasesLine(files.nupkg, `bytes of ${files.nupkg}\n`))
  }
  const newest = versions.at(-1) ?? ''
  const files = releaseFiles(newest)
  const body = (n: string) => `bytes of ${n}\n`
  write(dir, 'latest.yml', updateInfo(newest, { [`Notes-Setup-${newest}.exe`]: body(`Notes-Setup-${newest}.exe`) }))
  write(dir, 'latest-mac.yml', updateInfo(newest, Object.fromEntries(files.mac.map((n) => [n, body(n)]))))
  write(dir, 'latest-linux.yml', updateInfo(newest, Object.fromEntries(files.linux.map((n) => [n, body(n)]))))
  write(dir, 'RELEASES', releases.join('\r\n'))
  write(dir, 'Notes-latest.dmg', body(`Notes-${newest}.dmg`))
  // A blockmap kept for differential downloads after its installer was deleted.
  write(dir, 'Notes-Setup-0.9.0.exe.blockmap', body('Notes-Setup-0.9.0.exe.blockmap'))
}

/** `src-tauri/target/release/bundle/` after `tauri build` with updater artifacts, for Windows, macOS (arm64) and Linux. */
export function tauriBundle(dir: string, version: string): void {
  const bundle = join(dir, 'bundle')
  const signed = (name: string) => {
    write(bundle, name, `bytes of ${name}\n`)
    write(bundle, `${name}.sig`, `signature of ${name.split('/').pop()}`)
  }
  signed(`nsis/Tapp_${version}_x64-setup.exe`)
  signed(`msi/Tapp_${version}_x64_en-US.msi`)
  signed('macos/Tapp.app.tar.gz')
  write(bundle, 'macos/Tapp.app/Contents/Info.plist', '<plist/>\n')
  write(bundle, `dmg/Tapp_${version}_aarch64.dmg`, 'dmg\n')
  signed(`appimage/tapp_${version}_amd64.AppImage`)
  write(bundle, `deb/tapp_${version}_amd64.deb`, 'deb\n')
  write(bundle, `rpm/tapp-${version}-1.x86_64.rpm`, 'rpm\n')
}

export interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** `ferry <args>` as a child process, so exit codes and streams are the real ones. */
export function ferry(args: string[], env: Record<string, string | undefined>, cwd = ROOT): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'ferry.ts'), ...args], {
    cwd,
    env: { ...process.env, FERRY_URL: undefined, FERRY_TOKEN: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString()
  })
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
  })
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })))
}
