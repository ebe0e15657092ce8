/** @module Metadata database on better-sqlite3 (Node only): WAL journal, foreign keys on. */
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { migrate } from './migrations.ts'
import type { Database } from './types.ts'

/** Opens (creating if needed) the database file and migrates it. `:memory:` works too. */
export async function openNodeDb(file: string): Promise<Kysely<Database>> {
  const database = new BetterSqlite3(file)
  database.pragma('journal_mode = WAL')
  database.pragma('foreign_keys = ON')
  database.pragma('busy_timeout = 5000')
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) })
  await migrate(db)
  return db
}
