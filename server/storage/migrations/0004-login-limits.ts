/** @module Migration `0004-login-limits`, as existing databases ran it: its name and statements never change. */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../dialect.ts'

/** The table of `0004-login-limits`. */
export const LOGIN_LIMITS_TABLE = 'ferry_login_limits'

// Login attempts counted by every instance on this PostgreSQL (rate-limiter-flexible's
// RateLimiterPostgres layout; see server/auth/login-limiter-stores.ts). Created here rather than by
// the library so that instances starting together do not race: migrations run under a lock.
// SQLite serves one process, whose limiter is in memory.
export const migration0004 = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return
    await db.schema
      .createTable(LOGIN_LIMITS_TABLE)
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expire', 'bigint')
      .execute()
  },
})
