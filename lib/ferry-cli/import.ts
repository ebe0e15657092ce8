/**
 * @module `ferry import`: a folder of past releases, oldest first, each version through the same
 * checks as `ferry publish` (metadata, catalogs, what the server already has). Two layouts: one
 * subfolder per release (GitHub Release assets per tag), or one flat folder of several versions
 * (a static host for electron-updater). Everything is read, hashed and compared before the first
 * upload, so a changed file stops the import before anything is sent, and a re-run skips what the
 * server has.
 */
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import semver from 'semver'
import type { FerryClient } from './api.ts'
import { CliError, refused, usageError } from './errors.ts'
import { packageTypeOf, versionInName } from './file-names.ts'
import type { FileDigests } from './hashes.ts'
import { formatBytes, type Io } from './output.ts'
import {
  CONFLICT_HINT,
  catalogNeeds,
  checkCatalogs,
  conflictOf,
  digestOutput,
  fileCount,
  label,
  readBuildOutput,
  sizeOf,
  stateOf,
  uploadRelease,
} from './publish.ts'
import { describeSkipped, type BuildOutput, type Release, type Skipped } from './release.ts'
import type { Version } from './api.ts'

export interface ImportOptions {
  dir: string
  app: string
  channel?: string
  draft: boolean
  dryRun: boolean
}

/** One version read from the folder, with where it came from (`v1.2.0/`, or the folder itself). */
export interface FoundVersion {
  source: string
  output: BuildOutput
  channel: string
}

export interface FoundReleases {
  layout: 'one folder per release' | 'one folder of several versions'
  /** Oldest first (semver precedence), then by channel. */
  versions: FoundVersion[]
  skipped: Skipped[]
}

/** `v1.2.0`, `1.2.0`, `notes-v1.2.0-beta.1` → the version a release folder's name gives, if any. */
export function versionOfFolder(name: string): string | undefined {
  const m = /(?:^|[^0-9A-Za-z.])v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/.exec(name)
  return m?.[1] && semver.valid(m[1]) ? m[1] : undefined
}

/** Files with a package type in `dir` and, like electron-builder's output, its `squirrel-windows*` and Tauri `bundle/` subfolders. */
function packagesIn(dir: string, depth = 0): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && packageTypeOf(entry.name)) out.push(entry.name)
    else if (entry.isDirectory() && depth < 3 && !entry.name.endsWith('.app'))
      out.push(...packagesIn(join(dir, entry.name), depth + 1))
  }
  return out
}

const byVersion = (a: FoundVersion, b: FoundVersion) =>
  semver.compare(a.output.version, b.output.version) || a.channel.localeCompare(b.channel)

function readFolderPerRelease(
  dir: string,
  folders: string[],
  channel: string | undefined,
  warn: (line: string) => void,
): FoundReleases {
  const versions: FoundVersion[] = []
  const skipped: Skipped[] = []
  for (const name of folders) {
    const path = join(dir, name)
    const source = `${name}/`
    if (packagesIn(path).length === 0) {
      skipped.push({ name: source, reason: 'no installers, packages or bundles in it' })
      continue
    }
    const named = versionOfFolder(name)
    let output: BuildOutput
    try {
      try {
        output = readBuildOutput(path, { ...(channel ? { channel } : {}) })
      } catch (error) {
        // A release whose files carry no version (a Tauri macos/App.app.tar.gz alone) takes its tag's.
        if (!(error instanceof CliError) || !named || !error.message.startsWith('found no version')) throw error
        output = readBuildOutput(path, { version: named, ...(channel ? { channel } : {}) })
      }
    } catch (error) {
      if (error instanceof CliError) throw new CliError(error.exitCode, `${source}: ${error.message}`)
      throw error
    }
    if (named && named !== output.version)
      warn(`note: ${source} holds version ${output.version} (its files say so), not ${named}`)
    for (const s of output.skipped) skipped.push({ name: `${source}${s.name}`, reason: s.reason })
    versions.push({ source, output, channel: channel ?? output.channel ?? 'stable' })
  }
  return { layout: 'one folder per release', versions, skipped }
}

function readFlatFolder(dir: string, channel: string | undefined): FoundReleases {
  // What readElectronBuilder reads: the folder's files and its squirrel-windows*/ subfolders'.
  const names = readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isFile()) return packageTypeOf(e.name) ? [e.name] : []
    return e.isDirectory() && e.name.startsWith('squirrel-windows')
      ? readdirSync(join(dir, e.name)).filter((n) => packageTypeOf(n))
      : []
  })
  const found = [
    ...new Set(names.map((n) => versionInName(n)).filter((v) => v !== undefined && semver.valid(v) !== null)),
  ]
  const versions: FoundVersion[] = []
  const reasons = new Map<string, string>()
  for (const version of found) {
    let output: BuildOutput
    try {
      output = readBuildOutput(dir, { version, versionInNames: true, ...(channel ? { channel } : {}) })
    } catch (error) {
      // Only blockmaps or signatures left of a version whose installers were deleted: nothing to import.
      if (!(error instanceof CliError) || !error.message.startsWith('found nothing to upload')) throw error
      for (const n of names)
        if (versionInName(n) === version) reasons.set(n, `no installer or package of version ${version} beside it`)
      continue
    }
    for (const s of output.skipped) if (!reasons.has(s.name)) reasons.set(s.name, s.reason)
    versions.push({ source: `${version}`, output, channel: channel ?? output.channel ?? 'stable' })
  }
  // A file one version skips ("version 1.0.0") is another's; only files no version took are reported.
  const taken = new Set(versions.flatMap((v) => v.output.releases.flatMap((r) => r.files.map((f) => f.name))))
  const skipped = [...reasons]
    .filter(([name]) => !taken.has(name))
    .map(([name, reason]) => ({ name, reason }))
    .sort((a, b) => a.name.localeCompare(b.name))
  return { layout: 'one folder of several versions', versions, skipped }
}

/**
 * Reads `dir` as one folder per release when it holds subfolders and no installers of its own,
 * else as one flat folder of several versions. Fails when it finds nothing to import or the same
 * version, channel, platform and architecture twice.
 */
export function readReleases(dir: string, channel: string | undefined, warn: (line: string) => void): FoundReleases {
  let entries
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    throw usageError(`${dir} is not a folder`)
  }
  const ownPackages = entries.some((e) => e.isFile() && packageTypeOf(e.name))
  const folders = entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort()
  const found =
    !ownPackages && folders.length > 0
      ? readFolderPerRelease(dir, folders, channel, warn)
      : readFlatFolder(dir, channel)
  if (found.versions.length === 0) {
    const why = found.skipped.length ? `; ${found.skipped.map(describeSkipped).join('; ')}` : ''
    throw usageError(
      `found nothing to import in ${dir}: expected one folder per release (v1.0.0/, v1.1.0/, …, each an electron-builder or Tauri output) or one folder of installers whose names carry their versions${why}`,
    )
  }
  const seen = new Map<string, string>()
  for (const v of found.versions) {
    for (const r of v.output.releases) {
      const key = `${v.output.version} ${v.channel} ${label(r)}`
      const other = seen.get(key)
      if (other !== undefined)
        throw usageError(
          `${other} and ${v.source} both hold ${v.output.version} for ${label(r)} on ${v.channel}: keep one`,
        )
      seen.set(key, v.source)
    }
  }
  return { ...found, versions: found.versions.sort(byVersion) }
}

interface Step {
  version: FoundVersion
  release: Release
  digests: Map<string, FileDigests>
  size: number
  existing?: Version
}

const stepName = (s: Step) => `${s.version.output.version} ${s.version.channel} ${label(s.release)}`

/** The server's versions of the app, by `version channel platform/arch`. */
async function serverVersions(client: FerryClient, app: string): Promise<Map<string, Version>> {
  const all = await client.versions(app, {})
  return new Map(all.map((v) => [`${v.version} ${v.channel} ${v.platform}/${v.arch}`, v]))
}

function summary(steps: Step[], done: Set<Step>, skipped: Skipped[]): string[] {
  const versionsOf = (list: Step[]) => new Set(list.map((s) => `${s.version.output.version} ${s.version.channel}`)).size
  const imported = steps.filter((s) => done.has(s))
  const already = steps.filter((s) => s.existing)
  const bytes = imported.reduce((n, s) => n + s.size, 0)
  const lines = [
    `imported ${versionsOf(imported)} version${versionsOf(imported) === 1 ? '' : 's'} (${imported.length} upload${imported.length === 1 ? '' : 's'}, ${formatBytes(bytes)}); ` +
      `already there ${already.length} upload${already.length === 1 ? '' : 's'}; skipped ${fileCount(skipped.length)}${skipped.length ? ':' : ''}`,
  ]
  for (const s of skipped) lines.push(`  ${describeSkipped(s)}`)
  return lines
}

export async function importReleases(
  client: FerryClient | undefined,
  serverUrl: URL | undefined,
  options: ImportOptions,
  io: Io,
): Promise<void> {
  const found = readReleases(options.dir, options.channel, io.err)
  const near = relative(process.cwd(), options.dir) || '.'
  const where = near.startsWith('..') ? options.dir : near
  io.out(
    `${where}: ${found.layout}, ${found.versions.length} version${found.versions.length === 1 ? '' : 's'} (${found.versions.map((v) => v.output.version).join(', ')}), oldest first`,
  )

  const steps: Step[] = []
  for (const version of found.versions) {
    const digests = await digestOutput(version.output, found.layout === 'one folder per release' ? version.source : '')
    for (const release of version.output.releases)
      steps.push({ version, release, digests, size: sizeOf(release, digests) })
  }

  if (client && serverUrl) {
    await checkCatalogs(client, catalogNeeds(found.versions), serverUrl)
    const existing = await serverVersions(client, options.app)
    const conflicts: string[] = []
    for (const step of steps) {
      const there = existing.get(stepName(step))
      if (!there) continue
      step.existing = there
      const conflict = conflictOf(there, step.release, step.digests, step.version.output.version, step.version.channel)
      if (conflict) conflicts.push(conflict)
    }
    if (conflicts.length)
      throw refused(`nothing uploaded: ${CONFLICT_HINT}\n${conflicts.map((c) => `  ${c}`).join('\n')}`)
  }

  if (options.dryRun) {
    io.out(
      `dry run: nothing is uploaded${client ? '' : ' (not compared with a server: set FERRY_URL and FERRY_TOKEN to see what it already has)'}`,
    )
    for (const step of steps) {
      const state = step.existing ? 'already there' : `would upload${options.draft ? ' as a draft' : ''}`
      io.out(`${stepName(step)}: ${state} (${fileCount(step.release.files.length)}, ${formatBytes(step.size)})`)
      for (const f of step.release.files) io.out(`    ${f.name}  ${formatBytes(step.digests.get(f.name)?.size ?? 0)}`)
    }
    for (const line of summary(steps, new Set(steps.filter((s) => !s.existing)), found.skipped))
      io.out(line.replace(/^imported/, 'would import'))
    return
  }
  if (!client) throw usageError('import: no server to import into') // the command passes a client unless --dry-run

  const done = new Set<Step>()
  for (const step of steps) {
    const count = fileCount(step.release.files.length)
    if (step.existing) {
      io.out(`${stepName(step)}: already there (${count}, same SHA-256)`)
      continue
    }
    let created: Version
    try {
      created = await uploadRelease(
        client,
        options.app,
        { version: step.version.output.version, channel: step.version.channel, release: step.release, size: step.size },
        { draft: options.draft },
        io,
        stepName(step),
      )
    } catch (error) {
      if (!(error instanceof CliError)) throw error
      const sofar = done.size
        ? `${done.size} upload${done.size === 1 ? '' : 's'} before it went through and stay`
        : 'nothing was imported'
      throw new CliError(
        error.exitCode,
        `import stopped at ${stepName(step)}: ${error.message}\n${sofar}; run the same command again to continue (what the server has is skipped)`,
      )
    }
    done.add(step)
    io.out(`${stepName(step)}: imported (${count}, ${formatBytes(step.size)}), ${stateOf(created)}`)
  }
  for (const line of summary(steps, done, found.skipped)) io.out(line)
}
