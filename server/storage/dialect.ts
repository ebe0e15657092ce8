/** @module Which SQL dialect a Kysely instance speaks: the few statements that differ, and the drivers' error codes. */
import { PostgresAdapter } from 'kysely'
import { errorCode } from '../core/outage.ts'

export type Dialect = 'sqlite' | 'postgres'

/** Any Kysely instance or transaction. */
interface HasAdapter {
  getExecutor(): { readonly adapter: unknown }
}

export function dialectOf(db: HasAdapter): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}

/**
 * `SELECT … FOR UPDATE` on PostgreSQL, where concurrent transactions run side by side; SQLite
 * has one writer at a time and no such clause, so there the query is left as it is.
 */
export function forUpdate<Q extends { forUpdate(): Q }>(db: HasAdapter, query: Q): Q {
  return dialectOf(db) === 'postgres' ? query.forUpdate() : query
}

/**
 * A constraint failure, by the codes each driver gives: PostgreSQL's SQLSTATE (`23505`, `23503`),
 * better-sqlite3's extended codes; sql.js gives only the message.
 */
function violates(error: unknown, pgCode: string, sqliteCodes: string[], message: RegExp): boolean {
  if (!(error instanceof Error)) return false
  const code = errorCode(error)
  if (code !== undefined) return code === pgCode || sqliteCodes.includes(code)
  return message.test(error.message)
}

export const isUniqueViolation = (error: unknown) =>
  violates(error, '23505', ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'], /UNIQUE constraint failed/)

/** A catalog entry or app deleted while a version was being recorded. */
export const isForeignKeyViolation = (error: unknown) =>
  violates(error, '23503', ['SQLITE_CONSTRAINT_FOREIGNKEY'], /FOREIGN KEY constraint failed/)
