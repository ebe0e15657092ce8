/**
 * @module The release queries of an update check: the target's app and catalog, the published
 * releases above a version (all, or only the range a plan can reach, through the
 * `versions_candidates`, `versions_intermediate` and `versions_critical` indexes), their files,
 * and the good releases below a pulled one. Rows only: rollout and planning are `server/updates/`.
 */
import { sql } from 'kysely'
import { prepared, type Slot, type Slots } from '../prepared.ts'
import type { ArtifactRow, Db } from '../../core/storage.ts'
import { fromVersions, withVersionRow, type VersionRow } from './versions.ts'

export type CatalogIds = { channel: string; platform: string; arch: string }

/** Every release of the app for this channel, platform and arch (`versions as v`): where each query below starts. */
const targetVersions = (db: Db, slug: string, ids: CatalogIds) =>
  fromVersions(db)
    .where('v.app_slug', '=', slug)
    .where('v.channel_id', '=', ids.channel)
    .where('v.platform_id', '=', ids.platform)
    .where('v.arch_id', '=', ids.arch)

/** The target's published releases that are not pulled: what an update check may offer. */
const offerable = (db: Db, slug: string, ids: CatalogIds) =>
  targetVersions(db, slug, ids).where('v.published', '=', 1).where('v.pulled_at', 'is', null)

/** The ids of the versions `q` filters, for a subquery. */
const idsOf = (q: ReturnType<typeof fromVersions>) => q.select('v.id')

export interface TargetRow {
  app: { slug: string; private: number; team_id: string }
  /** The catalog entries' ids; `undefined` unless the team has all three. */
  ids: CatalogIds | undefined
  /** The platform's updater, `null` when the team has no platform of that name. */
  updater: string | null
}

/** The app and its team's catalog entries of these names, or `null` when the app does not exist. */
export async function findTarget(
  db: Db,
  slug: string,
  channel: string,
  platform: string,
  arch: string,
): Promise<TargetRow | null> {
  const app = await db
    .selectFrom('apps')
    .select(['slug', 'private', 'team_id'])
    .where('slug', '=', slug)
    .executeTakeFirst()
  if (!app) return null
  const catalog = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('channels')
        .select('id')
        .where('team_id', '=', app.team_id)
        .where('name', '=', channel)
        .as('channel'),
      eb
        .selectFrom('platforms')
        .select('id')
        .where('team_id', '=', app.team_id)
        .where('name', '=', platform)
        .as('platform'),
      eb
        .selectFrom('platforms')
        .select('updater')
        .where('team_id', '=', app.team_id)
        .where('name', '=', platform)
        .as('updater'),
      eb.selectFrom('archs').select('id').where('team_id', '=', app.team_id).where('name', '=', arch).as('arch'),
    ])
    .executeTakeFirstOrThrow()
  const ids =
    catalog.channel !== null && catalog.platform !== null && catalog.arch !== null
      ? { channel: catalog.channel, platform: catalog.platform, arch: catalog.arch }
      : undefined
  return { app, ids, updater: catalog.updater }
}

/** Whether the release with this key is published and pulled. */
export async function isPulled(db: Db, slug: string, ids: CatalogIds, key: string): Promise<boolean> {
  const pulled = await targetVersions(db, slug, ids)
    .select('v.id')
    .where('v.published', '=', 1)
    .where('v.version_key', '=', key)
    .where('v.pulled_at', 'is not', null)
    .executeTakeFirst()
  return pulled !== undefined
}

/**
 * The updater keys the build of version `key` trusts (key rotation), or `null` when Ferry does
 * not know that version or stored no keys for it: then every release is offered as before.
 */
export async function trustedKeysOf(db: Db, slug: string, ids: CatalogIds, key: string): Promise<string[] | null> {
  const row = await targetVersions(db, slug, ids)
    .select('v.trusted_keys')
    .where('v.version_key', '=', key)
    .where('v.trusted_keys', 'is not', null)
    .orderBy('v.seq', 'desc')
    .executeTakeFirst()
  if (!row?.trusted_keys) return null
  const parsed: unknown = JSON.parse(row.trusted_keys)
  return Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string') : null
}

/** Up to 20 published releases below `key`, neither pulled nor paused, newest first: rollback candidates. */
export function rollbackCandidates(db: Db, slug: string, ids: CatalogIds, key: string): Promise<VersionRow[]> {
  return withVersionRow(offerable(db, slug, ids).where('v.version_key', '<', key).where('v.paused_at', 'is', null))
    .orderBy('v.version_key', 'desc')
    .limit(20)
    .execute()
}

/**
 * The key range of the releases a plan for a client above `floor` can reach (`planUpdate`): up
 * to the lowest intermediate (`gate`: nothing above it is offered yet), and down to the highest
 * release fully rolled out below that (`full`: offered to every device, so nothing below it is
 * chosen). Whether a critical release lies between `floor` and `full` is all the plan needs of
 * the rest. Three subqueries on the candidates index, one round trip.
 */
async function reachableRange(db: Db, slug: string, ids: CatalogIds, floor: string) {
  return db
    .selectNoFrom(() => {
      // Each subquery names its own `v`: an inner one's columns are its own rows'.
      const above = () => offerable(db, slug, ids).where('v.version_key', '>', floor)
      // Literal flags, so the planners can prove the partial indexes (`versions_intermediate`,
      // `versions_critical`) apply; ORDER BY + LIMIT walks the index and stops at the first match.
      const gate = above()
        .where('v.intermediate', '=', sql.lit(1))
        .select('v.version_key')
        .orderBy('v.version_key')
        .limit(1)
      // Fully rolled out by hand, not paused: a ramp's percentage depends on the clock (read in JS).
      const full = above()
        .where('v.rollout_percentage', '>=', 100)
        .where('v.ramp_steps', 'is', null)
        .where('v.paused_at', 'is', null)
        .where((e) => e.or([e(gate, 'is', null), e('v.version_key', '<=', gate)]))
        .select('v.version_key')
        .orderBy('v.version_key', 'desc')
        .limit(1)
      const critical = above()
        .where('v.critical', '=', sql.lit(1))
        .where('v.version_key', '<', full)
        .select('v.id')
        .limit(1)
      return [gate.as('gate'), full.as('full'), critical.as('criticalBelow')]
    })
    .executeTakeFirstOrThrow()
}

/** Published releases above `floor` (a version key; `''`: all), not pulled, lowest first, at most `limit`. */
export function releaseRowsAbove(
  db: Db,
  slug: string,
  ids: CatalogIds,
  floor: string,
  limit: number,
): Promise<VersionRow[]> {
  return withVersionRow(offerable(db, slug, ids).where('v.version_key', '>', floor))
    .orderBy('v.version_key')
    .limit(limit)
    .execute()
}

/**
 * Published releases above `floor` that a plan can reach (`reachableRange`, when `floor` is a
 * client's version), with their files; `criticalBelow` and `complete` as `Target` has them.
 */
export async function reachableReleaseRows(db: Db, slug: string, ids: CatalogIds, floor: string, ranged: boolean) {
  const range = ranged ? await reachableRange(db, slug, ids, floor) : { gate: null, full: null, criticalBelow: null }
  // One lower bound only (`full` lies above `floor`): SQLite range-scans the index on the first
  // of two lower bounds of a column and would walk every release above the client.
  const [op, bound] = range.full !== null ? (['>=', range.full] as const) : (['>', floor] as const)
  let reached = offerable(db, slug, ids).where('v.version_key', op, bound)
  if (range.gate !== null) reached = reached.where('v.version_key', '<=', range.gate)
  const list = await withVersionRow(reached).execute()
  // The artifacts by the same filter as a subquery: an id list could exceed the drivers' bound
  // parameters (SQLite 32,766) when every release is read.
  const artifacts = list.length ? await artifactsOf(db, idsOf(reached)) : new Map<string, ArtifactRow[]>()
  return { rows: list, artifacts, criticalBelow: range.criticalBelow !== null, complete: range.full === null }
}

/**
 * `reachableReleaseRows` for a client that trusts only some updater keys (key rotation): the
 * range a plan can reach among the releases signed by one of `keys` or by none, so that a client
 * far behind still finds the newest release it can verify (the bridge) however many releases
 * signed by other keys lie above it. Each key is its own seek on the `versions_*update_key`
 * indexes (a handful of keys, a few round trips), so releases by other keys are never read.
 */
export async function reachableTrustedRows(db: Db, slug: string, ids: CatalogIds, floor: string, keys: string[]) {
  const signers = [...new Set(keys), null]
  const signedBy = (key: string | null) =>
    offerable(db, slug, ids)
      .where('v.update_key', key === null ? 'is' : '=', key)
      .where('v.version_key', '>', floor)
  const firstOf = async (pick: (key: string | null) => Promise<{ version_key: string | null } | undefined>) =>
    (await Promise.all(signers.map(pick))).flatMap((r) => (r?.version_key ? [r.version_key] : []))
  const gates = await firstOf((key) =>
    signedBy(key)
      .where('v.intermediate', '=', sql.lit(1))
      .select('v.version_key')
      .orderBy('v.version_key')
      .limit(1)
      .executeTakeFirst(),
  )
  const gate = gates.length ? gates.reduce((a, b) => (b < a ? b : a)) : null
  const upToGate = (key: string | null) => {
    const q = signedBy(key)
    return gate === null ? q : q.where('v.version_key', '<=', gate)
  }
  const fulls = await firstOf((key) =>
    upToGate(key)
      .where('v.rollout_percentage', '>=', 100)
      .where('v.ramp_steps', 'is', null)
      .where('v.paused_at', 'is', null)
      .select('v.version_key')
      .orderBy('v.version_key', 'desc')
      .limit(1)
      .executeTakeFirst(),
  )
  const full = fulls.length ? fulls.reduce((a, b) => (b > a ? b : a)) : null
  const reached = (key: string | null) => {
    const q = upToGate(key)
    return full === null ? q : q.where('v.version_key', '>=', full)
  }
  const [lists, criticals] = await Promise.all([
    Promise.all(signers.map((key) => withVersionRow(reached(key)).execute())),
    full === null
      ? []
      : Promise.all(
          signers.map((key) =>
            signedBy(key)
              .where('v.critical', '=', sql.lit(1))
              .where('v.version_key', '<', full)
              .select('v.id')
              .limit(1)
              .executeTakeFirst(),
          ),
        ),
  ])
  const artifacts = new Map<string, ArtifactRow[]>()
  for (const [i, key] of signers.entries()) {
    if (!lists[i]?.length) continue
    for (const [id, files] of await artifactsOf(db, idsOf(reached(key)))) artifacts.set(id, files)
  }
  // Releases by keys the client does not trust are not read: a delta chain from its version
  // (Velopack) could miss one, so the list is never complete.
  return { rows: lists.flat(), artifacts, criticalBelow: criticals.some((c) => c !== undefined), complete: false }
}

const filesOf = (db: Db, versionIds: ReadonlyArray<Slot<string>> | ReturnType<typeof idsOf>) =>
  db.selectFrom('artifacts').selectAll().where('version_id', 'in', versionIds).orderBy('position').orderBy('id')

const filesOfIds = prepared((db, $: Slots<{ ids: string[] }>) => filesOf(db, $.ids))

/** The files of these versions (ids, or a query selecting them), by version id, in upload order. */
export async function artifactsOf(db: Db, versionIds: string[] | ReturnType<typeof idsOf>) {
  const artifacts = new Map<string, ArtifactRow[]>()
  const list = await (Array.isArray(versionIds)
    ? filesOfIds(db, { ids: versionIds })
    : filesOf(db, versionIds).execute())
  for (const a of list) {
    const files = artifacts.get(a.version_id)
    if (files) files.push(a)
    else artifacts.set(a.version_id, [a])
  }
  return artifacts
}
