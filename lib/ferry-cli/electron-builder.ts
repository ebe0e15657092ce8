/**
 * @module Reads an electron-builder output folder (`dist/`): the update metadata it wrote
 * (`latest.yml`, `latest-mac.yml`, `latest-linux.yml`, `latest-linux-arm64.yml`, and per channel
 * `beta.yml`, …), the installers it built and, for Squirrel.Windows, `RELEASES` with its `.nupkg`s.
 * Ferry serves its own `latest*.yml` and `RELEASES` from what is uploaded, so those are read to
 * check the files, not uploaded.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { usageError } from './errors.ts'
import { archInName, packageTypeOf, versionInName } from './file-names.ts'
import {
  groupReleases,
  type BuildOutput,
  type Expectation,
  type LocalFile,
  type Release,
  type Skipped,
} from './release.ts'

/** `latest.yml` → channel `latest` on windows; `beta-mac.yml` → `beta` on darwin; `latest-linux-arm64.yml` → linux. */
const UPDATE_INFO = /^([a-z0-9]+)(?:-(mac|linux)(?:-[a-z0-9]+)?)?\.yml$/
/** electron-builder's own files in the same folder, not update metadata. */
const NOT_UPDATE_INFO = new Set(['builder-debug.yml', 'app-update.yml', 'dev-app-update.yml'])

interface UpdateInfo {
  source: string
  channel: string
  version: string
  files: Array<{ url: string; sha512: string; size?: number }>
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x)

function readUpdateInfo(dir: string, name: string): UpdateInfo | undefined {
  const match = UPDATE_INFO.exec(name)
  if (!match?.[1] || NOT_UPDATE_INFO.has(name)) return undefined
  let data: unknown
  try {
    data = parse(readFileSync(join(dir, name), 'utf8'))
  } catch (error) {
    throw usageError(`${name} is not valid YAML: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (!isRecord(data) || typeof data.version !== 'string' || !Array.isArray(data.files)) return undefined
  const files: UpdateInfo['files'] = []
  for (const f of data.files) {
    if (isRecord(f) && typeof f.url === 'string' && typeof f.sha512 === 'string') {
      files.push({ url: f.url, sha512: f.sha512, ...(typeof f.size === 'number' ? { size: f.size } : {}) })
    }
  }
  return { source: name, channel: match[1], version: data.version, files }
}

/** Which platform a file is for, from its type and, for zips and tarballs, its name. */
function platformOf(name: string): Release['platform'] | undefined {
  const type = packageTypeOf(name)
  const mac = /(?:^|[-_. ])(mac|darwin|osx|macos)(?:$|[-_. ])/i.test(name)
  switch (type) {
    case 'exe':
    case 'msi':
    case 'nupkg':
      return 'windows'
    case 'dmg':
    case 'pkg':
      return 'darwin'
    case 'appimage':
    case 'deb':
    case 'rpm':
    case 'snap':
      return 'linux'
    case 'zip':
      return mac ? 'darwin' : /(?:^|[-_. ])win(?:$|[-_. ])/i.test(name) ? 'windows' : undefined
    case 'tar.gz':
      return mac ? 'darwin' : 'linux'
    case 'blockmap':
    case 'sig':
      return platformOf(name.replace(/\.(blockmap|sig)$/i, ''))
    default:
      return undefined
  }
}

/** electron-builder's update info names files as their artifact name with spaces turned into dashes. */
const metadataName = (name: string) => name.replace(/ /g, '-')

/** Squirrel.Windows `RELEASES`: `SHA1 file-name size` per line. */
function readReleasesFile(path: string, source: string): Expectation[] {
  return readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .flatMap((line) => {
      const m = /^\uFEFF?([0-9a-fA-F]{40})\s+(\S+)\s+(\d+)\s*$/.exec(line)
      if (!m?.[1] || !m[2]) return []
      const sha1 = m[1].toLowerCase()
      return [{ name: m[2], source, size: Number(m[3]), check: (d) => d.sha1 === sha1 }]
    })
}

export interface ReadOptions {
  version?: string
  channel?: string
  /**
   * Keep only files whose names carry the version (a folder of many versions, as `ferry import`
   * reads one): a name without one cannot be told apart from another version's.
   */
  versionInNames?: boolean
}

export function readElectronBuilder(dir: string, options: ReadOptions): BuildOutput {
  const files: Array<LocalFile & { folderArch?: string }> = []
  const expectations: Expectation[] = []
  const infos: UpdateInfo[] = []
  const scan = (folder: string, label: string, folderArch?: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        // Squirrel.Windows output: dist/squirrel-windows/ (or squirrel-windows-ia32/ for another arch).
        if (/^squirrel-windows/.test(entry.name) && folder === dir)
          scan(join(folder, entry.name), `${entry.name}/`, archInName(entry.name))
        continue
      }
      if (!entry.isFile()) continue
      const path = join(folder, entry.name)
      if (entry.name === 'RELEASES') expectations.push(...readReleasesFile(path, `${label}RELEASES`))
      else if (folder === dir && entry.name.endsWith('.yml')) {
        const info = readUpdateInfo(folder, entry.name)
        if (info) infos.push(info)
      } else files.push({ path, name: entry.name, ...(folderArch ? { folderArch } : {}) })
    }
  }
  scan(dir, '')

  // The update info to read: the --channel's (`latest` is Ferry's `stable`), else the only channel's.
  const wanted = options.channel === undefined ? undefined : options.channel === 'stable' ? 'latest' : options.channel
  const infoChannels = [...new Set(infos.map((i) => i.channel))]
  let chosen = infos.filter((i) => i.channel === wanted)
  if (chosen.length === 0) {
    if (infoChannels.length > 1) {
      throw usageError(
        `${dir} has update info for several channels (${infoChannels.map((c) => `${c}*.yml`).join(', ')}): pass --channel naming one`,
      )
    }
    chosen = infos
  }
  const infoChannel = chosen[0]?.channel

  const skipped: Skipped[] = []
  const infoVersions = [...new Set(chosen.map((i) => i.version))]
  // With a version asked for, update info of other versions is left aside (a static folder's
  // latest-mac.yml may trail its latest.yml); without, they must agree.
  if (infoVersions.length > 1 && options.version === undefined)
    throw usageError(
      `${chosen.map((i) => i.source).join(', ')} name different versions (${infoVersions.join(', ')}): rebuild, or pass --version`,
    )
  const nameVersions = [...new Set(files.map((f) => versionInName(f.name)).filter((v) => v !== undefined))]
  const version = options.version ?? infoVersions[0] ?? (nameVersions.length === 1 ? nameVersions[0] : undefined)
  if (!version) {
    throw usageError(
      nameVersions.length > 1
        ? `${dir} holds builds of several versions (${nameVersions.join(', ')}) and no latest*.yml says which: pass --version`
        : `found no version in ${dir} (no latest*.yml, no version in the file names): pass --version`,
    )
  }

  const entries: Array<{ platform: Release['platform']; arch: string; file: LocalFile }> = []
  for (const f of files) {
    const platform = platformOf(f.name)
    const own = versionInName(f.name)
    if (!platform) {
      if (packageTypeOf(f.name)) skipped.push({ name: f.name, reason: 'cannot tell its platform' })
      continue
    }
    if (own !== undefined && own !== version) {
      skipped.push({ name: f.name, reason: `version ${own}` })
      continue
    }
    if (own === undefined && options.versionInNames) {
      skipped.push({ name: f.name, reason: 'no version in its name' })
      continue
    }
    entries.push({ platform, arch: archInName(f.name) ?? f.folderArch ?? 'x64', file: { path: f.path, name: f.name } })
  }
  // A blockmap or signature travels with its file; alone it would be refused or useless.
  const names = new Set(entries.map((e) => e.file.name))
  const kept = entries.filter((e) => {
    const base = e.file.name.replace(/\.(blockmap|sig)$/i, '')
    if (base === e.file.name || names.has(base)) return true
    skipped.push({ name: e.file.name, reason: `no ${base} beside it` })
    return false
  })

  for (const info of chosen.filter((i) => i.version === version)) {
    for (const f of info.files) {
      const sha512 = f.sha512
      expectations.push({
        name: f.url,
        source: info.source,
        ...(f.size !== undefined ? { size: f.size } : {}),
        check: (d) => d.sha512Base64 === sha512,
      })
    }
  }
  // Match metadata names (dashes for spaces) to the local names, and keep only files of this version.
  const byMetadataName = new Map(kept.map((e) => [metadataName(e.file.name), e.file.name]))
  const checked = expectations.flatMap((e) => {
    const local = byMetadataName.get(metadataName(e.name))
    if (local) return [{ ...e, name: local }]
    if (e.source.endsWith('.yml')) throw usageError(`${e.source} lists ${e.name}, which is not in ${dir}`)
    return [] // RELEASES lists older packages too
  })

  const hasInfo = (suffix: string) => chosen.some((i) => new RegExp(`^[a-z0-9]+${suffix}\\.yml$`).test(i.source))
  const hasNupkg = kept.some((e) => packageTypeOf(e.file.name) === 'nupkg')
  return {
    layout: 'electron-builder',
    version,
    ...(infoChannel !== undefined ? { channel: infoChannel === 'latest' ? 'stable' : infoChannel } : {}),
    updaters: {
      windows: hasNupkg && !hasInfo('') ? 'squirrel-windows' : 'electron-updater',
      darwin: hasInfo('-mac') ? 'electron-updater' : 'electron-builtin',
      linux: 'electron-updater',
    },
    releases: groupReleases(kept),
    expectations: checked,
    skipped,
  }
}
