/** @module Migration `0019-update-rules`, as existing databases ran it: its name and statements never change. */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

// Fleet control (server/updates/rules.ts): an app's holds, pins and targeting rules. `criteria`
// is JSON (a targeting rule's cohorts, device lists and attribute conditions).
export const migration0019: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('update_rules')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('app_slug', 'text', (c) => c.notNull().references('apps.slug').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('cohort', 'text')
      .addColumn('version_range', 'text')
      .addColumn('version', 'text')
      .addColumn('criteria', 'text')
      .addColumn('reason', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('update_rules_app')
      .on('update_rules')
      .columns(['app_slug', 'created_at', 'id'])
      .execute()
  },
}
