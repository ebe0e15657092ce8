/**
 * @module What one client gets: the published releases of an app for one channel, platform and
 * architecture (all, or only those above the client's version, found by their `version_key`),
 * and the single planning step (`planUpdate`) every protocol renders.
 */
import type { SemVer } from 'semver'
import type { components } from '../../contract/generated/api.ts'
import {
  artifactsOf,
  findTarget,
  isPulled,
  trustedKeysOf,
  reachableReleaseRows,
  reachableTrustedRows,
  releaseRowsAbove,
  rollbackCandidates,
  type CatalogIds,
} from '../storage/releases/releases.ts'
import type { ArtifactRow, Db } from '../core/storage.ts'
import type { VersionRow } from '../storage/releases/versions.ts'
import { rolloutAt } from './rollout.ts'
import { bucketsFor, isPartial, planUpdate, type PlanNote } from './update-logic.ts'
import { parseVersion, versionKeyOf } from '../storage/releases/version-key.ts'

export type UpdaterFormat = components['schemas']['UpdaterFormat']

/** What loading a target needs: the database and the app's clock. */
export interface TargetSource {
  db: Db
  now: () => Date
}

/** A file of a release, as stored. */
export type ReleaseFile = ArtifactRow

export interface Release {
  row: VersionRow
  version: string
  parsed: SemVer
  critical: boolean
  intermediate: boolean
  /** The share offered now (`rolloutAt`: a ramp's step in force, 0 while paused). */
  rolloutPercentage: number
  paused: boolean
  /** Epoch ms at which the release's percentage next changes by the clock (a ramp step, or a held ramp's deadline). */
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
   * The updater keys the client's version trusts (key rotation): a release signed by another key
   * is not offered to it. `null`: Ferry does not know them, and every release is offered.
   */
  trustedKeys: string[] | null
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
export async function loadTarget(
  s: TargetSource,
  slug: string,
  channel: string,
  platform: string,
  arch: string,
  releasesAbove: (defaultFormat: UpdaterFormat) => SemVer | undefined = () => undefined,
  current?: SemVer,
): Promise<Target | null> {
  const found = await findTarget(s.db, slug, channel, platform, arch)
  if (!found) return null
  const { app, ids } = found
  const defaultFormat = (found.updater ?? 'ferry') as UpdaterFormat
  const above = releasesAbove(defaultFormat)
  const inCatalog = ids !== undefined && found.updater !== null
  // The releases and the rollback are read side by side: on PostgreSQL, on two connections.
  const [{ trustedKeys, releases, criticalBelow, complete }, rollback] = await Promise.all([
    (async () => {
      const trustedKeys = ids && current ? await trustedKeysOf(s.db, slug, ids, versionKeyOf(current)) : null
      // Versions are stored only for the app team's catalog entries: without all three, none exist.
      const loaded = ids
        ? await loadReleases(s, slug, ids, above, trustedKeys)
        : { releases: [], criticalBelow: false, complete: true }
      return { ...loaded, trustedKeys }
    })(),
    ids && current ? rollbackFor(s, slug, ids, current) : null,
  ])
  return {
    app,
    channel,
    platform,
    arch,
    defaultFormat,
    inCatalog,
    above,
    releases,
    criticalBelow,
    complete,
    rollback,
    trustedKeys,
  }
}

/**
 * When `current` is a pulled release of the target: the newest good release below it, else
 * `null` (also when `current` is not pulled). Paused, ramped and partial releases are not
 * "good": a rollback goes to a version every device may run.
 */
async function rollbackFor(s: TargetSource, slug: string, ids: CatalogIds, current: SemVer): Promise<Release | null> {
  const key = versionKeyOf(current)
  if (!(await isPulled(s.db, slug, ids, key))) return null
  const rows = await rollbackCandidates(s.db, slug, ids, key)
  const now = s.now().getTime()
  const good = rows.find((r) => rolloutAt(r, now).percentage >= 100)
  if (!good) return null
  const [release] = toReleases(s, [good], await artifactsOf(s.db, [good.id]))
  return release ?? null
}

/** Releases above a client read in one query before the reachable range is worth its own. */
const NEAR_RELEASES = 64

/**
 * Published releases of the target, oldest first. With `above`: the releases above that version
 * when there are at most `NEAR_RELEASES` (one query, the usual case), otherwise only the range a
 * plan can reach (`reachableReleaseRows`), so a client far behind costs no more than one near the
 * top. A client that trusts only some updater keys (`trustedKeys`) is planned among the releases
 * it can verify, so far behind that range is found among those alone (`reachableTrustedRows`).
 */
async function loadReleases(
  s: TargetSource,
  slug: string,
  ids: CatalogIds,
  above: SemVer | undefined,
  trustedKeys: string[] | null,
): Promise<{ releases: Release[]; criticalBelow: boolean; complete: boolean }> {
  // Every key is non-empty, and a version semver refuses has none: `> ''` keeps all comparable ones.
  const floor = above ? versionKeyOf(above) : ''
  if (above) {
    const near = await releaseRowsAbove(s.db, slug, ids, floor, NEAR_RELEASES + 1)
    if (near.length <= NEAR_RELEASES) {
      const artifacts = near.length
        ? await artifactsOf(
            s.db,
            near.map((r) => r.id),
          )
        : new Map<string, ArtifactRow[]>()
      return { releases: toReleases(s, near, artifacts), criticalBelow: false, complete: true }
    }
  }
  const { rows, artifacts, criticalBelow, complete } =
    above && trustedKeys
      ? await reachableTrustedRows(s.db, slug, ids, floor, trustedKeys)
      : await reachableReleaseRows(s.db, slug, ids, floor, above !== undefined)
  return { releases: toReleases(s, rows, artifacts), criticalBelow, complete }
}

/** Rows → releases with their artifacts, semver order. */
function toReleases(s: TargetSource, rows: VersionRow[], artifacts: Map<string, ArtifactRow[]>): Release[] {
  // A version semver refuses (stored before uploads were checked with it) cannot be compared: skip it.
  const now = s.now().getTime()
  return rows
    .flatMap((row) => {
      const parsed = parseVersion(row.version)
      if (!parsed) return []
      const position = rolloutAt(row, now)
      return [
        {
          row,
          version: row.version,
          parsed,
          critical: row.critical === 1,
          intermediate: row.intermediate === 1,
          rolloutPercentage: position.percentage,
          paused: row.paused_at !== null || position.hold?.expired === true,
          nextStepAt: position.changesAt,
          artifacts: artifacts.get(row.id) ?? [],
        },
      ]
    })
    .sort((a, b) => a.parsed.compare(b.parsed) || a.row.seq - b.row.seq)
}

/**
 * The releases above `current` offered to some devices but not all: where a device's bucket
 * decides (`mode` `server`). Empty when the answer for `current` is the same for every device.
 */
export function partialRolloutsAbove(target: Target, current: SemVer, mode: RolloutMode): Release[] {
  if (mode !== 'server') return []
  return target.releases.filter((r) => isPartial(r.rolloutPercentage) && r.parsed.compare(current) > 0)
}

/**
 * The release to offer a client on `current`, or `null` when it is up to date (`target` loaded
 * with all releases or those above `current`). A client on a pulled release with nothing newer
 * to install is offered `target.rollback` when its updater can install an older version
 * (`downgrades`). With `notes`, the planner records why it passed over each release (explain).
 */
export async function planOffer(
  target: Target,
  current: SemVer,
  deviceKey: string,
  mode: RolloutMode,
  downgrades: boolean,
  notes?: Array<PlanNote<Release>>,
): Promise<Offer | null> {
  const untrusted = untrustedAbove(target, current)
  for (const r of untrusted) notes?.push({ candidate: r, rule: 'untrusted-key', bucket: null })
  const releases = untrusted.length ? target.releases.filter((r) => !untrusted.includes(r)) : target.releases
  const above = releases.filter((r) => r.parsed.compare(current) > 0)
  const buckets = partialRolloutsAbove(target, current, mode).length
    ? await bucketsFor(deviceKey, above)
    : new Map<string, number>()
  const plan = planUpdate(
    current,
    notes ? releases : above,
    (r) => (mode === 'client' ? 0 : (buckets.get(r.version) ?? 0)),
    notes,
  )
  if (plan) return { release: plan.target, critical: plan.critical || target.criticalBelow, downgrade: false }
  return target.rollback && downgrades
    ? { release: target.rollback, critical: target.rollback.critical, downgrade: true }
    : null
}

/**
 * The releases above `current` signed by an updater key that `current` does not trust (key
 * rotation): the client could not verify them, so the plan picks among the rest (the bridge).
 */
export function untrustedAbove(target: Target, current: SemVer): Release[] {
  const trusted = target.trustedKeys
  if (!trusted) return []
  return target.releases.filter(
    (r) => r.row.update_key !== null && !trusted.includes(r.row.update_key) && r.parsed.compare(current) > 0,
  )
}

/**
 * Epoch ms at which a loaded release's ramp takes its next step: an answer computed now stays
 * right until then (the answer cache keeps it no longer). Releases below the client count too:
 * Squirrel.Windows' RELEASES lists their percentages.
 */
export function nextChangeAt(target: Target): number | null {
  let next: number | null = null
  for (const r of target.releases)
    if (r.nextStepAt !== null && (next === null || r.nextStepAt < next)) next = r.nextStepAt
  return next
}
