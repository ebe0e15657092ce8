/**
 * @module What one client gets: the published releases of an app for one channel, platform and
 * architecture (all, or only those above the client's version, found by their `version_key`),
 * and the single planning step (`planUpdate`) every protocol renders.
 */
import { sql, type SelectQueryBuilder } from 'kysely'
import type { SemVer } from 'semver'
import type { Services } from '../http/context.ts'
import { versionQuery, type VersionRow } from '../storage/versions.ts'
import type { ArtifactRow, Database } from '../storage/types.ts'
import { rolloutAt } from './rollout.ts'
import { bucketsFor, planUpdate, type PlanNote } from './update-logic.ts'
import { parseVersion } from './version-input.ts'
import { versionKeyOf } from './version-key.ts'
import type { UpdaterFormat } from '../protocols/formats.ts'

export interface Release {
  row: VersionRow
  version: string
  parsed: SemVer
  critical: boolean
  intermediate: boolean
  /** The share offered now (`rolloutAt`: a ramp's step in force, 0 while paused). */
  rolloutPercentage: number
  paused: boolean
  /** Epoch ms of the release's next ramp step, when one is due. */
  nextStepAt: number | null
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
  /**
   * When set, `releases` holds only the releases above this version that a plan for it can
   * reach: from the highest one fully rolled out up to the first intermediate (see `loadReleases`).
   */
  above: SemVer | undefined
  /** Published releases, oldest first. */
  releases: Release[]
  /** A critical release lies above `above` but below every loaded one (a plan that skips it is critical). */
  criticalBelow: boolean
  /**
   * Set when the client's own version is pulled: the newest good release below it (published,
   * neither paused nor pulled, offered to 100 %), or `null` when there is none.
   */
  rollback: Release | null
  /**
   * Every published release above `above` up to the highest loaded one is loaded. False when a
   * client far behind got only the range a plan can reach: a protocol that chains deltas from the
   * client's version (Velopack) must not list an incomplete chain.
   */
  complete: boolean
}

/**
 * `server`: Ferry buckets the device for partial rollouts (Ferry JSON, Squirrel.Mac, Tauri,
 * Velopack, Sparkle).
 * `client`: the protocol carries the percentage and the client stages itself (Squirrel.Windows
 * `# N%`, electron-updater `stagingPercentage`), so every partial rollout counts as offered here.
 */
export type RolloutMode = 'server' | 'client'

export interface Offer {
  release: Release
  critical: boolean
  /** The release is below the client's version: the client runs a pulled version. */
  downgrade: boolean
}

/**
 * Loads the target, or `null` when the app does not exist. `releasesAbove`, given the platform's
 * default format, names the version only releases above which are loaded (all when `undefined`).
 */
export async function loadTarget(s: Services, slug: string, channel: string, platform: string, arch: string,
  releasesAbove: (defaultFormat: UpdaterFormat) => SemVer | undefined = () => undefined, current?: SemVer): Promise<Target | null> {
  const app = await s.db.selectFrom('apps').select(['slug', 'private', 'team_id']).where('slug', '=', slug).executeTakeFirst()
  if (!app) return null
  const catalog = await s.db.selectNoFrom((eb) => [
    eb.selectFrom('channels').select('id').where('team_id', '=', app.team_id).where('name', '=', channel).as('channel'),
    eb.selectFrom('platforms').select('id').where('team_id', '=', app.team_id).where('name', '=', platform).as('platform'),
    eb.selectFrom('platforms').select('updater').where('team_id', '=', app.team_id).where('name', '=', platform).as('updater'),
    eb.selectFrom('archs').select('id').where('team_id', '=', app.team_id).where('name', '=', arch).as('arch'),
  ]).executeTakeFirstOrThrow()
  const defaultFormat = (catalog.updater ?? 'ferry') as UpdaterFormat
  const above = releasesAbove(defaultFormat)
  const ids = catalog.channel !== null && catalog.platform !== null && catalog.arch !== null
    ? { channel: catalog.channel, platform: catalog.platform, arch: catalog.arch } : undefined
  const inCatalog = ids !== undefined && catalog.updater !== null
  // Versions are stored only for the app team's catalog entries: without all three, none exist.
  const { releases, criticalBelow, complete } = ids ? await loadReleases(s, slug, ids, above) : { releases: [], criticalBelow: false, complete: true }
  const rollback = ids && current ? await rollbackFor(s, slug, ids, current) : null
  return { app, channel, platform, arch, defaultFormat, inCatalog, above, releases, criticalBelow, complete, rollback }
}

/**
 * When `current` is a pulled release of the target: the newest good release below it, else
 * `null` (also when `current` is not pulled). Paused, ramped and partial releases are not
 * "good": a rollback goes to a version every device may run.
 */
async function rollbackFor(s: Services, slug: string, ids: CatalogIds, current: SemVer): Promise<Release | null> {
  const key = versionKeyOf(current)
  const pulled = await s.db.selectFrom('versions').select('id').where('app_slug', '=', slug).where('channel_id', '=', ids.channel)
    .where('platform_id', '=', ids.platform).where('arch_id', '=', ids.arch).where('published', '=', 1).where('version_key', '=', key)
    .where('pulled_at', 'is not', null).executeTakeFirst()
  if (!pulled) return null
  const rows = await versionQuery(s.db).where('v.app_slug', '=', slug).where('v.channel_id', '=', ids.channel)
    .where('v.platform_id', '=', ids.platform).where('v.arch_id', '=', ids.arch).where('v.published', '=', 1)
    .where('v.version_key', '<', key).where('v.pulled_at', 'is', null).where('v.paused_at', 'is', null)
    .orderBy('v.version_key', 'desc').limit(20).execute()
  const now = s.now().getTime()
  const good = rows.find((r) => rolloutAt(r, now).percentage >= 100)
  if (!good) return null
  const [release] = await toReleases(s, [good], [good.id])
  return release ?? null
}

type CatalogIds = { channel: string; platform: string; arch: string }

/**
 * The key range of the releases a plan for a client above `floor` can reach (`planUpdate`): up
 * to the lowest intermediate (`gate`: nothing above it is offered yet), and down to the highest
 * release fully rolled out below that (`full`: offered to every device, so nothing below it is
 * chosen). Whether a critical release lies between `floor` and `full` is all the plan needs of
 * the rest. Three subqueries on the candidates index, one round trip.
 */
async function reachableRange(s: Services, slug: string, ids: CatalogIds, floor: string) {
  return s.db.selectNoFrom((eb) => {
    const above = () => eb.selectFrom('versions').where('app_slug', '=', slug).where('channel_id', '=', ids.channel)
      .where('platform_id', '=', ids.platform).where('arch_id', '=', ids.arch).where('published', '=', 1).where('version_key', '>', floor)
      .where('pulled_at', 'is', null)
    // Literal flags, so the planners can prove the partial indexes (`versions_intermediate`,
    // `versions_critical`) apply; ORDER BY + LIMIT walks the index and stops at the first match.
    const gate = above().where('intermediate', '=', sql.lit(1)).select('version_key').orderBy('version_key').limit(1)
    // Fully rolled out by hand, not paused: a ramp's percentage depends on the clock (read in JS).
    const full = above().where('rollout_percentage', '>=', 100).where('ramp_steps', 'is', null).where('paused_at', 'is', null)
      .where((e) => e.or([e(gate, 'is', null), e('version_key', '<=', gate)])).select('version_key').orderBy('version_key', 'desc').limit(1)
    const critical = above().where('critical', '=', sql.lit(1)).where('version_key', '<', full).select('id').limit(1)
    return [gate.as('gate'), full.as('full'), critical.as('criticalBelow')]
  }).executeTakeFirstOrThrow()
}

/** Releases above a client read in one query before the reachable range is worth its own. */
const NEAR_RELEASES = 64

/**
 * Published releases of the target, oldest first. With `above`: the releases above that version
 * when there are at most `NEAR_RELEASES` (one query, the usual case), otherwise only the range a
 * plan can reach (`reachableRange`), so a client far behind costs no more than one near the top.
 */
async function loadReleases(s: Services, slug: string, ids: CatalogIds, above: SemVer | undefined): Promise<{ releases: Release[]; criticalBelow: boolean; complete: boolean }> {
  // Every key is non-empty, and a version semver refuses has none: `> ''` keeps all comparable ones.
  const floor = above ? versionKeyOf(above) : ''
  const target = (q: ReturnType<typeof versionQuery>) => q.where('v.app_slug', '=', slug).where('v.channel_id', '=', ids.channel)
    .where('v.platform_id', '=', ids.platform).where('v.arch_id', '=', ids.arch).where('v.published', '=', 1).where('v.pulled_at', 'is', null)
  if (above) {
    const near = await target(versionQuery(s.db)).where('v.version_key', '>', floor).orderBy('v.version_key').limit(NEAR_RELEASES + 1).execute()
    if (near.length <= NEAR_RELEASES) return { releases: await toReleases(s, near, near.map((r) => r.id)), criticalBelow: false, complete: true }
  }
  const range = above ? await reachableRange(s, slug, ids, floor) : { gate: null, full: null, criticalBelow: null }
  // One lower bound only (`full` lies above `floor`): SQLite range-scans the index on the first
  // of two lower bounds of a column and would walk every release above the client.
  const [op, bound] = range.full !== null ? ['>=', range.full] as const : ['>', floor] as const
  let rows = target(versionQuery(s.db)).where('v.version_key', op, bound)
  let candidates = s.db.selectFrom('versions').select('id')
    .where('app_slug', '=', slug).where('channel_id', '=', ids.channel).where('platform_id', '=', ids.platform)
    .where('arch_id', '=', ids.arch).where('published', '=', 1).where('version_key', op, bound).where('pulled_at', 'is', null)
  if (range.gate !== null) {
    rows = rows.where('v.version_key', '<=', range.gate)
    candidates = candidates.where('version_key', '<=', range.gate)
  }
  // The artifacts by the same filter as a subquery: an id list could exceed the drivers' bound
  // parameters (SQLite 32,766) when every release is read.
  return { releases: await toReleases(s, await rows.execute(), candidates), criticalBelow: range.criticalBelow !== null, complete: range.full === null }
}

/** Rows → releases with their artifacts (`versionIds`: the rows' ids, or a query selecting them), semver order. */
async function toReleases(s: Services, rows: VersionRow[], versionIds: string[] | SelectQueryBuilder<Database, 'versions', { id: string }>): Promise<Release[]> {
  const artifacts = new Map<string, ArtifactRow[]>()
  if (rows.length) {
    const list = await s.db.selectFrom('artifacts').selectAll().where('version_id', 'in', versionIds).orderBy('position').orderBy('id').execute()
    for (const a of list) artifacts.set(a.version_id, [...(artifacts.get(a.version_id) ?? []), a])
  }
  // A version semver refuses (stored before uploads were checked with it) cannot be compared: skip it.
  const now = s.now().getTime()
  return rows.flatMap((row) => {
    const parsed = parseVersion(row.version)
    if (!parsed) return []
    const position = rolloutAt(row, now)
    return [{
      row, version: row.version, parsed, critical: row.critical === 1,
      intermediate: row.intermediate === 1, rolloutPercentage: position.percentage,
      paused: row.paused_at !== null, nextStepAt: position.nextStepAt,
      artifacts: artifacts.get(row.id) ?? [],
    }]
  }).sort((a, b) => a.parsed.compare(b.parsed) || a.row.seq - b.row.seq)
}

/** Whether the answer for `current` depends on the device (a partial rollout lies above it). */
export function dependsOnDevice(target: Target, current: SemVer, mode: RolloutMode): boolean {
  return mode === 'server' && target.releases.some((r) => r.rolloutPercentage > 0 && r.rolloutPercentage < 100 && r.parsed.compare(current) > 0)
}

/**
 * The release to offer a client on `current`, or `null` when it is up to date (`target` loaded
 * with all releases or those above `current`). A client on a pulled release with nothing newer
 * to install is offered `target.rollback` when its updater can install an older version
 * (`downgrades`). With `notes`, the planner records why it passed over each release (explain).
 */
export async function planOffer(target: Target, current: SemVer, deviceKey: string, mode: RolloutMode, downgrades: boolean,
  notes?: Array<PlanNote<Release>>): Promise<Offer | null> {
  const above = target.releases.filter((r) => r.parsed.compare(current) > 0)
  const buckets = dependsOnDevice(target, current, mode) ? await bucketsFor(deviceKey, above) : new Map<string, number>()
  const plan = planUpdate(current, notes ? target.releases : above, (r) => (mode === 'client' ? 0 : buckets.get(r.version) ?? 0), notes)
  if (plan) return { release: plan.target, critical: plan.critical || target.criticalBelow, downgrade: false }
  return target.rollback && downgrades ? { release: target.rollback, critical: target.rollback.critical, downgrade: true } : null
}

/**
 * Epoch ms at which a loaded release's ramp takes its next step: an answer computed now stays
 * right until then (the answer cache keeps it no longer). Releases below the client count too:
 * Squirrel.Windows' RELEASES lists their percentages.
 */
export function nextChangeAt(target: Target): number | null {
  let next: number | null = null
  for (const r of target.releases) if (r.nextStepAt !== null && (next === null || r.nextStepAt < next)) next = r.nextStepAt
  return next
}
