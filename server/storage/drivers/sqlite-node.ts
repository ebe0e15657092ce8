/** @module Metadata database on better-sqlite3 (Node only): WAL journal, foreign keys on. */
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely'
import { LRUCache } from 'lru-cache'
import { migrate } from '../migrations/migrate.ts'
import type { Database } from '../../core/storage.ts'

/** Distinct SQL texts Ferry runs are a few hundred; the bound only guards against surprises. */
const STATEMENTS = 500

/**
 * Kysely prepares every query anew; preparing was a fifth of an uncached update check's CPU.
 * better-sqlite3 statements are reusable, and Kysely runs one query at a time on the
 * connection, so each SQL text is prepared once.
 */
function withStatementCache(database: BetterSqlite3.Database): SqliteDatabase {
  const statements = new LRUCache<string, SqliteStatement>({ max: STATEMENTS })
  return {
    close: () => database.close(),
    prepare(sql) {
      let statement = statements.get(sql)
      if (!statement) {
        statement = database.prepare(sql)
        statements.set(sql, statement)
      }
      return statement
    },
  }
}

/** Opens (creating if needed) the database file and migrates it. `:memory:` works too. */
export async function openNodeDb(file: string): Promise<Kysely<Database>> {
  const database = new BetterSqlite3(file)
  database.pragma('journal_mode = WAL')
  database.pragma('foreign_keys = ON')
  database.pragma('busy_timeout = 5000')
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) })
  await migrate(db)
  return db
}
