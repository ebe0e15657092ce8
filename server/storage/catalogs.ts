/**
 * @module The team's catalogs' SQL: channels, platforms and architectures (insert, page by name,
 * find, update the members given, delete one no version uses).
 */
import type { ArchsTable, ChannelsTable, Db, PlatformsTable } from './types.ts'

export type CatalogTable = 'channels' | 'platforms' | 'archs'
interface Rows {
  channels: ChannelsTable
  platforms: PlatformsTable
  archs: ArchsTable
}
type Changes = {
  channels: Partial<Pick<ChannelsTable, 'name' | 'description'>>
  platforms: Partial<Pick<PlatformsTable, 'name' | 'updater'>>
  archs: Partial<Pick<ArchsTable, 'name'>>
}

const USED_BY = { channels: 'channel_id', platforms: 'platform_id', archs: 'arch_id' } as const

/** One typed query set per table, so callers name the table once. */
function queries<T extends CatalogTable>(
  table: T,
  run: {
    insert: (db: Db, row: Rows[T]) => Promise<unknown>
    page: (db: Db, teamId: string, after: string, count: number) => Promise<Rows[T][]>
    find: (db: Db, teamId: string, id: string) => Promise<Rows[T] | undefined>
    update: (db: Db, teamId: string, id: string, changes: Changes[T]) => Promise<Rows[T] | undefined>
  },
) {
  return { table, ...run }
}

export const channels = queries('channels', {
  insert: (db, row) => db.insertInto('channels').values(row).execute(),
  page: (db, teamId, after, count) =>
    db
      .selectFrom('channels')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('name', '>', after)
      .orderBy('name')
      .limit(count)
      .execute(),
  find: (db, teamId, id) =>
    db.selectFrom('channels').selectAll().where('id', '=', id).where('team_id', '=', teamId).executeTakeFirst(),
  update: (db, teamId, id, changes) =>
    db
      .updateTable('channels')
      .set(changes)
      .where('id', '=', id)
      .where('team_id', '=', teamId)
      .returningAll()
      .executeTakeFirst(),
})

export const platforms = queries('platforms', {
  insert: (db, row) => db.insertInto('platforms').values(row).execute(),
  page: (db, teamId, after, count) =>
    db
      .selectFrom('platforms')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('name', '>', after)
      .orderBy('name')
      .limit(count)
      .execute(),
  find: (db, teamId, id) =>
    db.selectFrom('platforms').selectAll().where('id', '=', id).where('team_id', '=', teamId).executeTakeFirst(),
  update: (db, teamId, id, changes) =>
    db
      .updateTable('platforms')
      .set(changes)
      .where('id', '=', id)
      .where('team_id', '=', teamId)
      .returningAll()
      .executeTakeFirst(),
})

export const archs = queries('archs', {
  insert: (db, row) => db.insertInto('archs').values(row).execute(),
  page: (db, teamId, after, count) =>
    db
      .selectFrom('archs')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('name', '>', after)
      .orderBy('name')
      .limit(count)
      .execute(),
  find: (db, teamId, id) =>
    db.selectFrom('archs').selectAll().where('id', '=', id).where('team_id', '=', teamId).executeTakeFirst(),
  update: (db, teamId, id, changes) =>
    db
      .updateTable('archs')
      .set(changes)
      .where('id', '=', id)
      .where('team_id', '=', teamId)
      .returningAll()
      .executeTakeFirst(),
})

/** The entry's id and name, if the team has it. */
export function findCatalogEntry(db: Db, table: CatalogTable, teamId: string, id: string) {
  return db
    .selectFrom(table)
    .select(['id', 'name'])
    .where('id', '=', id)
    .where('team_id', '=', teamId)
    .executeTakeFirst()
}

/** Whether any version uses the entry. */
export async function catalogEntryInUse(db: Db, table: CatalogTable, id: string): Promise<boolean> {
  return (
    (await db.selectFrom('versions').select('id').where(USED_BY[table], '=', id).limit(1).executeTakeFirst()) !==
    undefined
  )
}

export async function deleteCatalogEntry(db: Db, table: CatalogTable, id: string): Promise<void> {
  await db.deleteFrom(table).where('id', '=', id).execute()
}
