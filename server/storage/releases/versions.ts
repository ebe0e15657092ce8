/**
 * @module Version rows with their catalog names and the app's privacy, as routes and the update
 * check read them; the versions API's SQL: pages of a team's or an app's versions, one version,
 * insert, update the columns given, delete with its files.
 */
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely'
import { forUpdate } from '../dialect.ts'
import { perDatabase } from '../per-database.ts'
import { prepared, type Slot, type Slots } from '../prepared.ts'
import { V_POLICY_COLUMNS, V_ROLLOUT_COLUMNS } from './rollouts.ts'
import { versionKey } from './version-key.ts'
import type { Db, VersionsTable } from '../../core/storage.ts'

/** A version as `versionQuery` selects it: catalog names instead of ids, plus the app's privacy. */
export type VersionRow = Omit<
  Selectable<VersionsTable>,
  'channel_id' | 'platform_id' | 'arch_id' | 'version_key' | 'trusted_keys'
> & {
  channel: string
  platform: string
  arch: string
  app_private: number
}

/** `versions as v`, where a version query starts: filters on it compose with `withVersionRow`. */
export const fromVersions = (db: Db) => db.selectFrom('versions as v')

/** A version's id, app, version and catalog names, of `versionsWithCatalogNames`. */
export const VERSION_NAMES = [
  'v.id',
  'v.app_slug',
  'v.version',
  'c.name as channel',
  'p.name as platform',
  'a.name as arch',
] as const

/** Versions joined with their catalog names and app privacy; callers add filters. */
export const versionQuery = perDatabase((db) => withVersionRow(fromVersions(db)))

/** The versions `q` selects, joined with their catalog names and app privacy: a `VersionRow` each. */
export function withVersionRow(q: ReturnType<typeof fromVersions>) {
  return withCatalogNames(q)
    .innerJoin('apps', 'apps.slug', 'v.app_slug')
    .select([
      ...VERSION_NAMES,
      'v.changelog',
      'v.published',
      'v.critical',
      'v.intermediate',
      'v.created_at',
      'v.published_at',
      'v.minimum_system_version',
      'v.seq',
      'apps.private as app_private',
      ...V_ROLLOUT_COLUMNS,
      'v.pause_reason',
      'v.pause_automatic',
      'v.pull_reason',
      ...V_POLICY_COLUMNS,
      'v.health_since',
      'v.signer_read',
      'v.signer',
      'v.signer_change_note',
      'v.signer_previous',
      'v.update_key',
    ])
}

/** Versions (`v`) joined with their channel (`c`), platform (`p`) and architecture (`a`); callers select and filter. */
export function versionsWithCatalogNames(db: Db) {
  return withCatalogNames(fromVersions(db))
}

function withCatalogNames(q: ReturnType<typeof fromVersions>) {
  return q
    .innerJoin('channels as c', 'c.id', 'v.channel_id')
    .innerJoin('platforms as p', 'p.id', 'v.platform_id')
    .innerJoin('archs as a', 'a.id', 'v.arch_id')
}

/** The listings' filters by catalog name and flag; members left out do not filter (a type, so `prepared` takes it as values). */
export type VersionFilters = {
  channel?: string | undefined
  platform?: string | undefined
  arch?: string | undefined
  published?: boolean | undefined
  critical?: boolean | undefined
}

function teamVersions(db: Db, teamId: Slot<string>, f: Slots<VersionFilters>) {
  let q = versionQuery(db).where('apps.team_id', '=', teamId)
  if (f.channel !== undefined) q = q.where('c.name', '=', f.channel)
  if (f.platform !== undefined) q = q.where('p.name', '=', f.platform)
  if (f.arch !== undefined) q = q.where('a.name', '=', f.arch)
  if (f.published !== undefined) q = q.where('v.published', '=', f.published ? 1 : 0)
  if (f.critical !== undefined) q = q.where('v.critical', '=', f.critical ? 1 : 0)
  return q
}

const filtersOf = (f: VersionFilters): VersionFilters => ({
  channel: f.channel,
  platform: f.platform,
  arch: f.arch,
  published: f.published,
  critical: f.critical,
})

const teamVersionsStatement = prepared(
  (
    db,
    $: Slots<
      VersionFilters & {
        teamId: string
        apps: string[] | null
        app: string | undefined
        afterSeq: number | undefined
        count: number
      }
    >,
  ) => {
    let q = teamVersions(db, $.teamId, $)
    if ($.apps !== null) q = q.where('v.app_slug', 'in', $.apps)
    if ($.app !== undefined) q = q.where('v.app_slug', '=', $.app)
    if ($.afterSeq !== undefined) q = q.where('v.seq', '<', $.afterSeq)
    return q.orderBy('v.seq', 'desc').limit($.count)
  },
)

/**
 * One page of the team's versions, newest upload first, after `afterSeq`; `apps`: only these
 * apps' (`null`: all), `app`: only this app's.
 */
export function teamVersionsPage(
  db: Db,
  teamId: string,
  f: VersionFilters & { apps: ReadonlySet<string> | null; app?: string | undefined },
  afterSeq: number | undefined,
  count: number,
): Promise<VersionRow[]> {
  return teamVersionsStatement(db, {
    ...filtersOf(f),
    teamId,
    // An empty IN list is not SQL: '' is no slug.
    apps: f.apps ? (f.apps.size ? [...f.apps] : ['']) : null,
    app: f.app,
    afterSeq,
    count,
  })
}

const appVersionsStatement = prepared(
  (
    db,
    $: Slots<
      VersionFilters & { teamId: string; slug: string; from: string | undefined; afterSeq: number; count: number }
    >,
  ) => {
    const key = sql<string>`coalesce(v.version_key, '')`
    let q = teamVersions(db, $.teamId, $).where('v.app_slug', '=', $.slug)
    const { from } = $
    if (from !== undefined)
      q = q.where((eb) => eb.or([eb(key, '<', from), eb.and([eb(key, '=', from), eb('v.seq', '<', $.afterSeq)])]))
    return q.orderBy(key, 'desc').orderBy('v.seq', 'desc').limit($.count)
  },
)

/**
 * One page of an app's versions, newest first by semver precedence (the sort key), then upload,
 * after the cursor (`v`: its version, `s`: its seq). A version semver refuses, stored before
 * uploads were checked, has no key and comes last.
 */
export function appVersionsPage(
  db: Db,
  teamId: string,
  slug: string,
  f: VersionFilters,
  after: { v: string; s: number } | undefined,
  count: number,
): Promise<VersionRow[]> {
  return appVersionsStatement(db, {
    ...filtersOf(f),
    teamId,
    slug,
    from: after ? (versionKey(after.v) ?? '') : undefined,
    afterSeq: after?.s ?? 0,
    count,
  })
}

const appVersionStatement = prepared((db, $: Slots<{ id: string; slug: string }>) =>
  versionQuery(db).where('v.id', '=', $.id).where('v.app_slug', '=', $.slug),
)

/** The app's version with this id, as `versionQuery` reads it: one row, or none. */
export function appVersionRows(db: Db, slug: string, id: string): Promise<VersionRow[]> {
  return appVersionStatement(db, { id, slug })
}

/** The app's version with this id, every column as stored. */
export function storedAppVersion(db: Db, slug: string, id: string): Promise<Selectable<VersionsTable> | undefined> {
  return db.selectFrom('versions').selectAll().where('id', '=', id).where('app_slug', '=', slug).executeTakeFirst()
}

export async function insertVersion(db: Db, row: Insertable<VersionsTable>): Promise<void> {
  await db.insertInto('versions').values(row).execute()
}

/**
 * Writes the columns given to the app's version; `published` sets the flag, and a first publish
 * stamps `published_at` with `now` in SQL, so two concurrent publishes keep the first time (an
 * unpublish clears it). Returns whether the version was there.
 */
export async function updateAppVersion(
  db: Db,
  slug: string,
  id: string,
  changes: Omit<Updateable<VersionsTable>, 'published' | 'published_at'>,
  published: boolean | undefined,
  now: string,
): Promise<boolean> {
  const updated = await db
    .updateTable('versions')
    .set((eb) => ({
      ...changes,
      ...(published !== undefined
        ? {
            published: published ? 1 : 0,
            published_at: published ? eb.fn.coalesce('published_at', eb.val(now)) : null,
          }
        : {}),
    }))
    .where('id', '=', id)
    .where('app_slug', '=', slug)
    .executeTakeFirst()
  return Number(updated.numUpdatedRows) > 0
}

/**
 * Deletes the app's version (its artifact rows go with it) in the caller's transaction `trx`,
 * its row locked first; what it was called (when the lock found it) and its files' blob keys,
 * or `undefined` when nothing was deleted.
 */
export async function deleteAppVersionListingFiles(
  trx: Db,
  slug: string,
  id: string,
): Promise<{ version: string | undefined; blobKeys: string[] } | undefined> {
  const old = await forUpdate(
    trx,
    trx.selectFrom('versions').select(['id', 'version']).where('id', '=', id).where('app_slug', '=', slug),
  ).executeTakeFirst()
  const files = await trx.selectFrom('artifacts').select('blob_key').where('version_id', '=', id).execute()
  const deleted = await trx.deleteFrom('versions').where('id', '=', id).where('app_slug', '=', slug).executeTakeFirst()
  if (Number(deleted.numDeletedRows) === 0) return undefined
  return { version: old?.version, blobKeys: files.map((f) => f.blob_key) }
}
