/** @module Migration `0003-artifact-position`, as existing databases ran it: its name and statements never change. */
import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../dialect.ts'

// A version's files keep their upload order without relying on SQLite's rowid.
export const migration0003 = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('artifacts')
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    if (dialect === 'sqlite') await sql`UPDATE artifacts SET position = rowid`.execute(db)
  },
})
