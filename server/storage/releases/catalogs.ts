/**
 * @module The team's catalogs' SQL: channels, platforms and architectures (insert, page by name,
 * find, update the members given, delete one no version uses).
 */
import type { ArchsTable, ChannelsTable, Db, PlatformsTable } from '../../core/storage.ts'

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

/** The queries of one catalog table, typed by its rows and the members an update may change. */
interface CatalogQueries<T extends CatalogTable> {
  table: T
  insert: (db: Db, row: Rows[T]) => Promise<void>
  /** The team's entries named after `after`, by name, at most `count`. */
  page: (db: Db, teamId: string, after: string, count: number) => Promise<Rows[T][]>
  find: (db: Db, teamId: string, id: string) => Promise<Rows[T] | undefined>
  /** Sets `changes` on the team's entry and returns it; `undefined` when the team has none. */
  update: (db: Db, teamId: string, id: string, changes: Changes[T]) => Promise<Rows[T] | undefined>
}

/** One query set serves each catalog table: they share `id`, `team_id` and `name`. */
function catalogQueries<T extends CatalogTable>(table: T): CatalogQueries<T> {
  // Kysely cannot resolve a column of a generic table name, so the queries name the union of the
  // three; its rows carry every catalog column, so the compiler accepts them as rows of `T`.
  const from: CatalogTable = table
  return {
    table,
    insert: async (db, row) => {
      await db.insertInto(from).values(row).execute()
    },
    page: (db, teamId, after, count) =>
      db
        .selectFrom(from)
        .selectAll()
        .where('team_id', '=', teamId)
        .where('name', '>', after)
        .orderBy('name')
        .limit(count)
        .execute(),
    find: (db, teamId, id) =>
      db.selectFrom(from).selectAll().where('id', '=', id).where('team_id', '=', teamId).executeTakeFirst(),
    update: (db, teamId, id, changes) =>
      db
        .updateTable(from)
        .set(changes)
        .where('id', '=', id)
        .where('team_id', '=', teamId)
        .returningAll()
        .executeTakeFirst(),
  }
}

export const channels = catalogQueries('channels')
export const platforms = catalogQueries('platforms')
export const archs = catalogQueries('archs')

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

/** The id of the team's entry with this name, if there is one. */
export async function catalogIdByName(
  db: Db,
  table: CatalogTable,
  teamId: string,
  name: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('team_id', '=', teamId)
    .where('name', '=', name)
    .executeTakeFirst()
  return row?.id
}

/** The updater format of the platform with this id, if it exists. */
export async function platformUpdater(db: Db, id: string): Promise<PlatformsTable['updater'] | undefined> {
  return (await db.selectFrom('platforms').select('updater').where('id', '=', id).executeTakeFirst())?.updater
}
