/** @module Which SQL dialect a Kysely instance speaks, for the few statements that differ. */
import { PostgresAdapter, type Kysely } from 'kysely'

export type Dialect = 'sqlite' | 'postgres'

export function dialectOf<DB>(db: Kysely<DB>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}
