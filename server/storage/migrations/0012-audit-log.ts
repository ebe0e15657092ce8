/** @module Migration `0012-audit-log`, as existing databases ran it: its name and statements never change. */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

// The audit log (server/audit/): one row per successful write, listed newest first per team
// and filtered by app or actor; pruned by age in batches (hence the index on `at` alone).
export const migration0012: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('actor_type', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'text', (c) => c.notNull())
      .addColumn('actor_name', 'text', (c) => c.notNull())
      .addColumn('actor_email', 'text')
      .addColumn('actor_user_id', 'text')
      .addColumn('creator_email', 'text')
      .addColumn('operation_id', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target_type', 'text', (c) => c.notNull())
      .addColumn('target_id', 'text')
      .addColumn('app_slug', 'text')
      .addColumn('changes', 'text', (c) => c.notNull())
      .addColumn('address', 'text')
      .execute()
    await db.schema.createIndex('audit_log_team_at').on('audit_log').columns(['team_id', 'at', 'id']).execute()
    await db.schema
      .createIndex('audit_log_team_app_at')
      .on('audit_log')
      .columns(['team_id', 'app_slug', 'at'])
      .execute()
    await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute()
  },
}
