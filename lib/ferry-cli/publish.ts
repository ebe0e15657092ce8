/**
 * @module `ferry publish`: one version per platform/architecture a build output holds, checked
 * against the team's catalogs first and against what the server already has, so that a re-run
 * uploads nothing and a changed file is an error rather than a silent duplicate.
 */
import { openAsBlob, existsSync, statSync } from 'node:fs'
import { relative } from 'node:path'
import semver from 'semver'
import type { FerryClient } from './api.ts'
import { readElectronBuilder, type ReadOptions } from './electron-builder.ts'
import { refused, usageError } from './errors.ts'
import { digestFile, type FileDigests } from './hashes.ts'
import { formatBytes, progressReporter, type Io } from './output.ts'
import { describeSkipped, type BuildOutput, type Release } from './release.ts'
import type { Version } from './api.ts'
import { readTauri, tauriBundleDir } from './tauri.ts'
import { prepareSigning, signTargets } from './tuf.ts'
import type { SigningKey } from './tuf-metadata.ts'

export interface PublishOptions {
  dir: string
  app: string
  channel?: string
  version?: string
  rollout?: number
  notes?: string
  critical: boolean
  intermediate: boolean
  draft: boolean
  /** The release key that signs the app's TUF targets (read before anything is sent). */
  tufKey?: SigningKey
}

/** Reads the folder as a Tauri bundle when it has one's layout, else as electron-builder output. */
export function readBuildOutput(dir: string, options: ReadOptions): BuildOutput {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw usageError(`${dir} is not a folder`)
  const bundle = tauriBundleDir(dir)
  const output = bundle ? readTauri(bundle, options) : readElectronBuilder(dir, options)
  if (!semver.valid(output.version) || output.version.startsWith('v')) {
    throw usageError(
      `${JSON.stringify(output.version)} is not a semantic version (like 1.2.0)${options.version ? ' (--version)' : ''}`,
    )
  }
  if (output.releases.length === 0)
    throw usageError(
      `found nothing to upload in ${dir} (no installers, packages or bundles of version ${output.version})`,
    )
  return output
}

/** How the server's copy differs from the local files, or an empty list when they are the same. */
export function differences(existing: Version, files: Array<{ name: string; sha256: string }>): string[] {
  const remote = new Map(existing.artifacts.map((a) => [a.fileName, a.sha256]))
  const out: string[] = []
  for (const f of files) {
    const sha = remote.get(f.name)
    if (sha === undefined) out.push(`${f.name} is not on the server`)
    else if (sha !== f.sha256)
      out.push(`${f.name} differs (SHA-256 ${f.sha256.slice(0, 12)}… here, ${sha.slice(0, 12)}… on the server)`)
  }
  const local = new Set(files.map((f) => f.name))
  for (const name of remote.keys()) if (!local.has(name)) out.push(`${name} is on the server but not here`)
  return out
}

export const label = (r: Release) => `${r.platform}/${r.arch}`

/**
 * Hashes every file of the output once (for the metadata checks and to compare with what the
 * server has) and checks them against latest*.yml / RELEASES. `where` prefixes the error.
 */
export async function digestOutput(output: BuildOutput, where = ''): Promise<Map<string, FileDigests>> {
  const digests = new Map<string, FileDigests>()
  for (const release of output.releases) for (const f of release.files) digests.set(f.name, await digestFile(f.path))
  for (const e of output.expectations) {
    const d = digests.get(e.name)
    if (d && ((e.size !== undefined && e.size !== d.size) || !e.check(d))) {
      throw usageError(
        `${where}${e.name} does not match ${e.source} (its size or hash differs): the folder mixes builds; rebuild it`,
      )
    }
  }
  return digests
}

/** What some uploads need from the team's catalogs. */
export interface CatalogNeeds {
  channels: Set<string>
  platforms: Map<string, string>
  archs: Set<string>
}

export function catalogNeeds(uploads: Array<{ output: BuildOutput; channel: string }>): CatalogNeeds {
  const needs: CatalogNeeds = { channels: new Set(), platforms: new Map(), archs: new Set() }
  for (const { output, channel } of uploads) {
    needs.channels.add(channel)
    for (const r of output.releases) {
      if (!needs.platforms.has(r.platform)) needs.platforms.set(r.platform, output.updaters[r.platform] ?? 'ferry')
      needs.archs.add(r.arch)
    }
  }
  return needs
}

/** Names every catalog entry the uploads need and the team lacks, with the request that creates it. */
export async function checkCatalogs(client: FerryClient, needs: CatalogNeeds, serverUrl: URL): Promise<void> {
  const base = serverUrl.origin + serverUrl.pathname.replace(/\/$/, '')
  const [channels, platforms, archs] = await Promise.all([
    client.catalogNames('channels'),
    client.catalogNames('platforms'),
    client.catalogNames('archs'),
  ])
  const missing: string[] = []
  const create = (catalog: string, body: object) =>
    `    curl -X POST ${base}/v1/${catalog} -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' -d '${JSON.stringify(body)}'`
  for (const channel of needs.channels)
    if (!channels.has(channel))
      missing.push(`channel "${channel}"; create it with\n${create('channels', { name: channel })}`)
  for (const [platform, updater] of needs.platforms) {
    if (!platforms.has(platform))
      missing.push(`platform "${platform}"; create it with\n${create('platforms', { name: platform, updater })}`)
  }
  for (const arch of needs.archs)
    if (!archs.has(arch)) missing.push(`architecture "${arch}"; create it with\n${create('archs', { name: arch })}`)
  if (missing.length) {
    throw refused(
      `the team's catalogs lack what this upload needs. Adding an entry takes the create grant of its catalog, which a team admin has and an upload token usually lacks; with such a user's token in $ADMIN_TOKEN:\n${missing.map((m) => `  - ${m}`).join('\n')}`,
    )
  }
}

/** A conflict line when the server has this version for the release's platform/arch with other files. */
export function conflictOf(
  existing: Version,
  release: Release,
  digests: Map<string, FileDigests>,
  version: string,
  channel: string,
): string | undefined {
  const local = release.files.map((f) => ({ name: f.name, sha256: digests.get(f.name)?.sha256 ?? '' }))
  const diff = differences(existing, local)
  return diff.length
    ? `${label(release)}: ${version} is already on ${channel} with other files:\n${diff.map((d) => `    ${d}`).join('\n')}`
    : undefined
}

export const CONFLICT_HINT =
  "a published version never changes its files; raise the version, or delete the server's copy first."

export const sizeOf = (release: Release, digests: Map<string, FileDigests>) =>
  release.files.reduce((n, f) => n + (digests.get(f.name)?.size ?? 0), 0)
export const fileCount = (n: number) => `${n} file${n === 1 ? '' : 's'}`

export interface UploadSettings {
  critical?: boolean
  intermediate?: boolean
  draft: boolean
  rollout?: number
  notes?: string
}

/** Uploads one release (one version, platform and arch), reporting progress on stderr; resolves to the new version. */
export async function uploadRelease(
  client: FerryClient,
  app: string,
  target: { version: string; channel: string; release: Release; size: number },
  settings: UploadSettings,
  io: Io,
  progressLabel = label(target.release),
): Promise<Version> {
  const { version, channel, release } = target
  const form = new FormData()
  form.set('version', version)
  form.set('channel', channel)
  form.set('platform', release.platform)
  form.set('arch', release.arch)
  form.set('published', String(!settings.draft))
  if (settings.critical) form.set('critical', 'true')
  if (settings.intermediate) form.set('intermediate', 'true')
  if (settings.rollout !== undefined) form.set('rolloutPercentage', String(settings.rollout))
  if (settings.notes !== undefined) form.set('changelog', settings.notes)
  // openAsBlob reads each file as it is sent, so a large installer is never held in memory.
  for (const f of release.files) form.append('files', await openAsBlob(f.path), f.name)
  return client.uploadVersion(app, form, progressReporter(io, progressLabel, target.size))
}

export const stateOf = (v: Version) =>
  v.published ? `published${v.rolloutPercentage < 100 ? ` to ${v.rolloutPercentage} %` : ''}` : 'draft'

export async function publish(client: FerryClient, serverUrl: URL, options: PublishOptions, io: Io): Promise<void> {
  const output = readBuildOutput(options.dir, options)
  const channel = options.channel ?? output.channel ?? 'stable'
  const where = relative(process.cwd(), options.dir) || '.'
  io.out(`${where}: ${output.layout} output, version ${output.version}, channel ${channel}`)
  for (const s of output.skipped) io.err(`skipped ${describeSkipped(s)}`)

  const digests = await digestOutput(output)
  await checkCatalogs(client, catalogNeeds([{ output, channel }]), serverUrl)

  const plans: Array<{ release: Release; existing?: Version }> = []
  const conflicts: string[] = []
  for (const release of output.releases) {
    const filters = { channel, platform: release.platform, arch: release.arch }
    const existing = (await client.versions(options.app, filters, { downTo: output.version })).find(
      (v) => v.version === output.version,
    )
    const conflict = existing && conflictOf(existing, release, digests, output.version, channel)
    if (conflict) conflicts.push(conflict)
    plans.push({ release, ...(existing ? { existing } : {}) })
  }
  if (conflicts.length)
    throw refused(`nothing uploaded: ${CONFLICT_HINT}\n${conflicts.map((c) => `  ${c}`).join('\n')}`)
  const signing = await prepareSigning(client, options.app, options.tufKey)
  // Signed apps upload drafts and publish them once the signed targets are stored, so a failed
  // signature leaves nothing a device is offered.
  const uploadSettings = signing ? { ...options, draft: true } : options
  const signed: Version[] = []
  const drafted: Version[] = []

  for (const { release, existing } of plans) {
    const size = sizeOf(release, digests)
    const count = fileCount(release.files.length)
    if (existing) {
      const state = existing.published
        ? 'already published'
        : 'already uploaded as a draft (ferry promote publishes it)'
      io.out(`${label(release)}: ${output.version} ${state} (${count}, same SHA-256)`)
      signed.push(existing)
      continue
    }
    const created = await uploadRelease(
      client,
      options.app,
      { version: output.version, channel, release, size },
      uploadSettings,
      io,
    )
    signed.push(created)
    if (signing && !options.draft) drafted.push(created)
    else io.out(`${label(release)}: uploaded ${output.version} (${count}, ${formatBytes(size)}), ${stateOf(created)}`)
  }
  if (!signing) return
  await signTargets(client, options.app, signing, signed, io)
  for (const v of drafted) {
    const published = await client.updateVersion(options.app, v.id, { published: true })
    io.out(`${v.platform}/${v.arch}: uploaded and signed ${output.version}, ${stateOf(published)}`)
  }
}
