/** @module What a build output holds: one release per platform and architecture, and the checks its metadata asks for. */
import type { FileDigests } from './hashes.ts'

export interface LocalFile {
  /** Absolute path. */
  path: string
  /** The name it is uploaded under. */
  name: string
}

/** The files of one version for one platform/architecture: one upload. */
export interface Release {
  platform: 'windows' | 'darwin' | 'linux'
  arch: string
  files: LocalFile[]
}

/** What the build tool's own metadata says a file must be (latest.yml's sha512, RELEASES' SHA-1). */
export interface Expectation {
  name: string
  /** Which metadata file said so, for the message. */
  source: string
  size?: number
  check: (d: FileDigests) => boolean
}

/** A file left out of an upload, and why (`version 1.0.0`, `cannot tell its platform`). */
export interface Skipped {
  name: string
  reason: string
}

export const describeSkipped = (s: Skipped) => `${s.name} (${s.reason})`

export interface BuildOutput {
  layout: 'electron-builder' | 'tauri'
  version: string
  /** The channel the metadata names (`beta.yml` → beta), when it names one. */
  channel?: string
  /** Updater format for each platform this layout's apps use, for the "create the platform" hint. */
  updaters: Partial<Record<Release['platform'], string>>
  releases: Release[]
  expectations: Expectation[]
  /** Files left out and why (older versions, unknown types), printed so nothing is skipped silently. */
  skipped: Skipped[]
}

/** Groups files by platform and architecture, in a stable order. */
export function groupReleases(
  entries: Array<{ platform: Release['platform']; arch: string; file: LocalFile }>,
): Release[] {
  const byKey = new Map<string, Release>()
  for (const { platform, arch, file } of entries) {
    const key = `${platform}/${arch}`
    const release = byKey.get(key) ?? { platform, arch, files: [] }
    release.files.push(file)
    byKey.set(key, release)
  }
  return [...byKey.values()]
    .map((r) => ({ ...r, files: r.files.sort((a, b) => a.name.localeCompare(b.name)) }))
    .sort((a, b) => `${a.platform}/${a.arch}`.localeCompare(`${b.platform}/${b.arch}`))
}
