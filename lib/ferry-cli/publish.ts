/**
 * @module `ferry publish`: one version per platform/architecture a build output holds, checked
 * against the team's catalogs first and against what the server already has, so that a re-run
 * uploads nothing and a changed file is an error rather than a silent duplicate.
 */
import { openAsBlob, existsSync, statSync } from 'node:fs'
import { relative } from 'node:path'
import semver from 'semver'
import type { FerryClient } from './api.ts'
import { readElectronBuilder } from './electron-builder.ts'
import { refused, usageError } from './errors.ts'
import { digestFile, type FileDigests } from './hashes.ts'
import { formatBytes, progressReporter, type Io } from './output.ts'
import type { BuildOutput, Release } from './release.ts'
import type { Version } from './responses.ts'
import { readTauri, tauriBundleDir } from './tauri.ts'

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
}

/** Reads the folder as a Tauri bundle when it has one's layout, else as electron-builder output. */
export function readBuildOutput(dir: string, options: { version?: string; channel?: string }): BuildOutput {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw usageError(`${dir} is not a folder`)
  const bundle = tauriBundleDir(dir)
  const output = bundle ? readTauri(bundle, options) : readElectronBuilder(dir, options)
  if (!semver.valid(output.version) || output.version.startsWith('v')) {
    throw usageError(`${JSON.stringify(output.version)} is not a semantic version (like 1.2.0)${options.version ? ' (--version)' : ''}`)
  }
  if (output.releases.length === 0) throw usageError(`found nothing to upload in ${dir} (no installers, packages or bundles of version ${output.version})`)
  return output
}

/** How the server's copy differs from the local files, or an empty list when they are the same. */
export function differences(existing: Version, files: Array<{ name: string; sha256: string }>): string[] {
  const remote = new Map(existing.artifacts.map((a) => [a.fileName, a.sha256]))
  const out: string[] = []
  for (const f of files) {
    const sha = remote.get(f.name)
    if (sha === undefined) out.push(`${f.name} is not on the server`)
    else if (sha !== f.sha256) out.push(`${f.name} differs (SHA-256 ${f.sha256.slice(0, 12)}… here, ${sha.slice(0, 12)}… on the server)`)
  }
  const local = new Set(files.map((f) => f.name))
  for (const name of remote.keys()) if (!local.has(name)) out.push(`${name} is on the server but not here`)
  return out
}

const label = (r: Release) => `${r.platform}/${r.arch}`

/** Names every catalog entry the releases need and the team lacks, with the request that creates it. */
async function checkCatalogs(client: FerryClient, output: BuildOutput, channel: string, base: string): Promise<void> {
  const [channels, platforms, archs] = await Promise.all([client.catalogNames('channels'), client.catalogNames('platforms'), client.catalogNames('archs')])
  const missing: string[] = []
  const create = (catalog: string, body: object) =>
    `    curl -X POST ${base}/v1/${catalog} -H "Authorization: Bearer $FERRY_TOKEN" -H 'Content-Type: application/json' -d '${JSON.stringify(body)}'`
  if (!channels.has(channel)) missing.push(`channel "${channel}"; create it with\n${create('channels', { name: channel })}`)
  for (const platform of new Set(output.releases.map((r) => r.platform))) {
    const updater = output.updaters[platform] ?? 'ferry'
    if (!platforms.has(platform)) missing.push(`platform "${platform}"; create it with\n${create('platforms', { name: platform, updater })}`)
  }
  for (const arch of new Set(output.releases.map((r) => r.arch))) {
    if (!archs.has(arch)) missing.push(`architecture "${arch}"; create it with\n${create('archs', { name: arch })}`)
  }
  if (missing.length) {
    throw refused(`the team's catalogs lack what this upload needs (an admin, or a user allowed to create catalog entries, can add them; the dashboard does too):\n${missing.map((m) => `  - ${m}`).join('\n')}`)
  }
}

export async function publish(client: FerryClient, serverUrl: URL, options: PublishOptions, io: Io): Promise<void> {
  const output = readBuildOutput(options.dir, options)
  const channel = options.channel ?? output.channel ?? 'stable'
  const where = relative(process.cwd(), options.dir) || '.'
  io.out(`${where}: ${output.layout} output, version ${output.version}, channel ${channel}`)
  for (const s of output.skipped) io.err(`skipped ${s}`)

  // Hash every file once: for the metadata checks and to compare with what the server has.
  const digests = new Map<string, FileDigests>()
  for (const release of output.releases) for (const f of release.files) digests.set(f.name, await digestFile(f.path))
  for (const e of output.expectations) {
    const d = digests.get(e.name)
    if (d && ((e.size !== undefined && e.size !== d.size) || !e.check(d))) {
      throw usageError(`${e.name} does not match ${e.source} (its size or hash differs): the folder mixes builds; rebuild it`)
    }
  }

  await checkCatalogs(client, output, channel, serverUrl.origin + serverUrl.pathname.replace(/\/$/, ''))

  const plans: Array<{ release: Release; existing?: Version }> = []
  const conflicts: string[] = []
  for (const release of output.releases) {
    const filters = { channel, platform: release.platform, arch: release.arch }
    const existing = (await client.versions(options.app, filters, { downTo: output.version })).find((v) => v.version === output.version)
    if (existing) {
      const local = release.files.map((f) => ({ name: f.name, sha256: digests.get(f.name)?.sha256 ?? '' }))
      const diff = differences(existing, local)
      if (diff.length) conflicts.push(`${label(release)}: ${output.version} is already on ${channel} with other files:\n${diff.map((d) => `    ${d}`).join('\n')}`)
    }
    plans.push({ release, ...(existing ? { existing } : {}) })
  }
  if (conflicts.length) {
    throw refused(`nothing uploaded: a published version never changes its files; raise the version, or delete the server's copy first.\n${conflicts.map((c) => `  ${c}`).join('\n')}`)
  }

  for (const { release, existing } of plans) {
    const size = release.files.reduce((n, f) => n + (digests.get(f.name)?.size ?? 0), 0)
    const count = `${release.files.length} file${release.files.length === 1 ? '' : 's'}`
    if (existing) {
      const state = existing.published ? 'already published' : 'already uploaded as a draft (ferry promote publishes it)'
      io.out(`${label(release)}: ${output.version} ${state} (${count}, same SHA-256)`)
      continue
    }
    const form = new FormData()
    form.set('version', output.version)
    form.set('channel', channel)
    form.set('platform', release.platform)
    form.set('arch', release.arch)
    form.set('published', String(!options.draft))
    if (options.critical) form.set('critical', 'true')
    if (options.intermediate) form.set('intermediate', 'true')
    if (options.rollout !== undefined) form.set('rolloutPercentage', String(options.rollout))
    if (options.notes !== undefined) form.set('changelog', options.notes)
    // openAsBlob reads each file as it is sent, so a large installer is never held in memory.
    for (const f of release.files) form.append('files', await openAsBlob(f.path), f.name)
    const created = await client.uploadVersion(options.app, form, progressReporter(io, `${label(release)}`, size))
    const state = created.published ? `published${created.rolloutPercentage < 100 ? ` to ${created.rolloutPercentage} %` : ''}` : 'draft'
    io.out(`${label(release)}: uploaded ${output.version} (${count}, ${formatBytes(size)}), ${state}`)
  }
}
