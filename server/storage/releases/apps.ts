/**
 * @module Apps' SQL: insert, find one of a team's apps, page the team's apps by slug, update the
 * members given, the team's slugs, and deletion with the blob keys of every file the app held.
 */
import { forUpdate } from '../dialect.ts'
import { prepared, type Slots } from '../prepared.ts'
import type { AppsTable, Db } from '../../core/storage.ts'

export type AppChanges = Partial<
  Pick<
    AppsTable,
    | 'name'
    | 'description'
    | 'private'
    | 'tauri_public_key'
    | 'sparkle_public_key'
    | 'tauri_extra_keys'
    | 'sparkle_extra_keys'
  >
> &
  Pick<AppsTable, 'updated_at'>

export async function insertApp(db: Db, row: AppsTable): Promise<void> {
  await db.insertInto('apps').values(row).execute()
}

const teamAppStatement = prepared((db, $: Slots<{ teamId: string; slug: string }>) =>
  db.selectFrom('apps').selectAll().where('slug', '=', $.slug).where('team_id', '=', $.teamId),
)

/** The app with this slug if the team holds it. */
export async function teamApp(db: Db, teamId: string, slug: string): Promise<AppsTable | undefined> {
  const [app] = await teamAppStatement(db, { teamId, slug })
  return app
}

/** One page of the team's apps by slug, after `afterSlug`; `slugs`: only these (`null`: all). */
export function teamAppsPage(
  db: Db,
  teamId: string,
  slugs: ReadonlySet<string> | null,
  afterSlug: string | undefined,
  count: number,
): Promise<AppsTable[]> {
  let q = db.selectFrom('apps').selectAll().where('team_id', '=', teamId)
  // An empty IN list is not SQL: '' is no slug.
  if (slugs) q = q.where('slug', 'in', slugs.size ? [...slugs] : [''])
  if (afterSlug !== undefined) q = q.where('slug', '>', afterSlug)
  return q.orderBy('slug').limit(count).execute()
}

/** Writes the members given to the team's app; the row after, or `undefined` when the team has no such app. */
export function updateTeamApp(
  db: Db,
  teamId: string,
  slug: string,
  changes: AppChanges,
): Promise<AppsTable | undefined> {
  return db
    .updateTable('apps')
    .set(changes)
    .where('slug', '=', slug)
    .where('team_id', '=', teamId)
    .returningAll()
    .executeTakeFirst()
}

/** The slugs of every app of the team. */
export async function teamAppSlugs(db: Db, teamId: string): Promise<string[]> {
  return (await db.selectFrom('apps').select('slug').where('team_id', '=', teamId).execute()).map((a) => a.slug)
}

/**
 * Deletes the app (its versions and artifact rows go with it), in the caller's transaction `trx`;
 * the blob keys of the files it held, read with the rows, or `undefined` when there was no app.
 */
export async function deleteAppListingFiles(trx: Db, slug: string): Promise<string[] | undefined> {
  // Uploads to the app wait on this lock, then fail their foreign key: no file escapes the list.
  await forUpdate(trx, trx.selectFrom('apps').select('slug').where('slug', '=', slug)).execute()
  const files = await trx
    .selectFrom('artifacts')
    .innerJoin('versions', 'versions.id', 'artifacts.version_id')
    .select('artifacts.blob_key')
    .where('versions.app_slug', '=', slug)
    .execute()
  const deleted = await trx.deleteFrom('apps').where('slug', '=', slug).executeTakeFirst()
  return Number(deleted.numDeletedRows) === 0 ? undefined : files.map((f) => f.blob_key)
}
