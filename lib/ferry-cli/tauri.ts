/**
 * @module Reads a Tauri v2 bundle folder (`src-tauri/target/<triple>/release/bundle/`): `nsis/` and
 * `msi/` (windows), `macos/` and `dmg/` (darwin), `appimage/`, `deb/` and `rpm/` (linux), each
 * updater bundle next to its `.sig`. Versions and architectures come from the file names;
 * `macos/App.app.tar.gz` carries neither and takes them from its `dmg/` sibling or the target triple.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { usageError } from './errors.ts'
import { archInName, packageTypeOf, versionInName } from './file-names.ts'
import { groupReleases, type BuildOutput, type LocalFile, type Release, type Skipped } from './release.ts'

const FOLDERS: Record<string, Release['platform']> = {
  nsis: 'windows',
  msi: 'windows',
  macos: 'darwin',
  dmg: 'darwin',
  appimage: 'linux',
  deb: 'linux',
  rpm: 'linux',
}

/** The `bundle/` folder of `dir` (itself, its `bundle/`), or `undefined` when it is no Tauri output. */
export function tauriBundleDir(dir: string): string | undefined {
  for (const candidate of [dir, join(dir, 'bundle')]) {
    if (!existsSync(candidate) || !statSync(candidate).isDirectory()) continue
    if (readdirSync(candidate).some((name) => name in FOLDERS && statSync(join(candidate, name)).isDirectory()))
      return candidate
  }
  return undefined
}

export function readTauri(bundleDir: string, options: { version?: string }): BuildOutput {
  // `target/aarch64-apple-darwin/release/bundle` names the architecture of files that do not.
  const triple = basename(dirname(dirname(bundleDir)))
  const tripleArch = /-(apple|pc|unknown)-/.test(triple) ? archInName(triple.split('-')[0] ?? '') : undefined
  const found: Array<{ platform: Release['platform']; arch?: string; version?: string; file: LocalFile }> = []
  for (const [folder, platform] of Object.entries(FOLDERS)) {
    const path = join(bundleDir, folder)
    if (!existsSync(path)) continue
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      // macos/App.app is the unpacked app (a folder); the updater bundle is App.app.tar.gz.
      if (!entry.isFile() || !packageTypeOf(entry.name)) continue
      found.push({
        platform,
        arch: archInName(entry.name),
        version: versionInName(entry.name),
        file: { path: join(path, entry.name), name: entry.name },
      })
    }
  }
  if (found.length === 0)
    throw usageError(`${bundleDir} holds no bundles (nsis/, msi/, macos/, dmg/, appimage/, deb/, rpm/ are empty)`)

  const versions = [...new Set(found.map((f) => f.version).filter((v) => v !== undefined))]
  const version = options.version ?? (versions.length === 1 ? versions[0] : undefined)
  if (!version) {
    throw usageError(
      versions.length > 1
        ? `${bundleDir} holds bundles of several versions (${versions.join(', ')}): pass --version`
        : `found no version in the file names under ${bundleDir}: pass --version`,
    )
  }
  const skipped: Skipped[] = []
  const current = found.filter((f) => {
    if (f.version === undefined || f.version === version) return true
    skipped.push({ name: f.file.name, reason: `version ${f.version}` })
    return false
  })
  const entries = current.map((f) => {
    // A name without an architecture takes the one its platform's other bundles name, if they agree.
    const siblings = new Set(current.filter((o) => o.platform === f.platform && o.arch).map((o) => o.arch))
    const arch = f.arch ?? (siblings.size === 1 ? [...siblings][0] : undefined) ?? tripleArch ?? 'x64'
    return { platform: f.platform, arch, file: f.file }
  })
  return {
    layout: 'tauri',
    version,
    updaters: { windows: 'tauri', darwin: 'tauri', linux: 'tauri' },
    releases: groupReleases(entries),
    expectations: [],
    skipped,
  }
}
