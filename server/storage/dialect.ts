/** @module Which SQL dialect a Kysely instance speaks, for the few statements that differ. */
import { PostgresAdapter } from 'kysely'

export type Dialect = 'sqlite' | 'postgres'

/** Any Kysely instance or transaction. */
interface HasAdapter { getExecutor(): { readonly adapter: unknown } }

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
