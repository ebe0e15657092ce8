/**
 * @module What one client gets: the published releases of an app for one channel, platform and
 * architecture, and the single planning step (`planUpdate`) every protocol renders.
 */
import type { SemVer } from 'semver'
import type { Services } from '../context.ts'
import { versionQuery, type VersionRow } from '../model.ts'
import type { ArtifactRow } from '../storage/types.ts'
import { bucketsFor, planUpdate } from '../update-logic.ts'
import { parseVersion } from '../version-input.ts'
import type { UpdaterFormat } from './formats.ts'

export interface Release {
  row: VersionRow
  version: string
  parsed: SemVer
  critical: boolean
  intermediate: boolean
  rolloutPercentage: number
  artifacts: ArtifactRow[]
}

export interface Target {
  app: { slug: string; private: number; team_id: string }
  channel: string
  platform: string
  arch: string
  /** The platform's `updater`, or `ferry` when the team has no platform of that name. */
  defaultFormat: UpdaterFormat
  /**
   * The team has this channel, platform and arch. Only such checks are counted by telemetry
   * and only their answers are cached, so a cached answer implies an existing target.
   */
  inCatalog: boolean
  /** Published releases, oldest first. */
  releases: Release[]
}

/**
 * `server`: Ferry buckets the device for partial rollouts (Ferry JSON, Squirrel.Mac, Tauri).
 * `client`: the protocol carries the percentage and the client stages itself (Squirrel.Windows
 * `# N%`, electron-updater `stagingPercentage`), so every partial rollout counts as offered here.
 */
export type RolloutMode = 'server' | 'client'

export interface Offer {
  release: Release
  critical: boolean
}

/** Loads the target, or `null` when the app does not exist. */
export async function loadTarget(s: Services, slug: string, channel: string, platform: string, arch: string): Promise<Target | null> {
  const app = await s.db.selectFrom('apps').select(['slug', 'private', 'team_id']).where('slug', '=', slug).executeTakeFirst()
  if (!app) return null
  const catalog = await s.db.selectNoFrom((eb) => [
    eb.selectFrom('channels').select('id').where('team_id', '=', app.team_id).where('name', '=', channel).as('channel'),
    eb.selectFrom('platforms').select('updater').where('team_id', '=', app.team_id).where('name', '=', platform).as('updater'),
    eb.selectFrom('archs').select('id').where('team_id', '=', app.team_id).where('name', '=', arch).as('arch'),
  ]).executeTakeFirstOrThrow()
  const rows = await versionQuery(s).where('v.app_slug', '=', slug).where('v.published', '=', 1)
    .where('c.name', '=', channel).where('p.name', '=', platform).where('a.name', '=', arch).execute()
  const artifacts = new Map<string, ArtifactRow[]>()
  if (rows.length) {
    const list = await s.db.selectFrom('artifacts').selectAll().where('version_id', 'in', rows.map((r) => r.id)).orderBy('position').orderBy('id').execute()
    for (const a of list) artifacts.set(a.version_id, [...(artifacts.get(a.version_id) ?? []), a])
  }
  // A version semver refuses (stored before uploads were checked with it) cannot be compared: skip it.
  const releases = rows.flatMap((row) => {
    const parsed = parseVersion(row.version)
    return parsed ? [{
      row, version: row.version, parsed, critical: row.critical === 1,
      intermediate: row.intermediate === 1, rolloutPercentage: row.rollout_percentage,
      artifacts: artifacts.get(row.id) ?? [],
    }] : []
  }).sort((a, b) => a.parsed.compare(b.parsed) || a.row.seq - b.row.seq)
  const inCatalog = catalog.channel !== null && catalog.updater !== null && catalog.arch !== null
  return { app, channel, platform, arch, defaultFormat: (catalog.updater ?? 'ferry') as UpdaterFormat, inCatalog, releases }
}

/** Whether the answer for `current` depends on the device (a partial rollout lies above it). */
export function dependsOnDevice(target: Target, current: SemVer, mode: RolloutMode): boolean {
  return mode === 'server' && target.releases.some((r) => r.rolloutPercentage > 0 && r.rolloutPercentage < 100 && r.parsed.compare(current) > 0)
}

/** The release to offer a client on `current`, or `null` when it is up to date. */
export async function planOffer(target: Target, current: SemVer, deviceKey: string, mode: RolloutMode): Promise<Offer | null> {
  const above = target.releases.filter((r) => r.parsed.compare(current) > 0)
  const buckets = dependsOnDevice(target, current, mode) ? await bucketsFor(deviceKey, above) : new Map<string, number>()
  const plan = planUpdate(current, above, (r) => (mode === 'client' ? 0 : buckets.get(r.version) ?? 0))
  return plan ? { release: plan.target, critical: plan.critical } : null
}
