/** @module Migration `0008-rollout-ramps`, as existing databases ran it: its name and statements never change. */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../dialect.ts'

// Rollouts that watch themselves (server/updates/rollout.ts): a scheduled ramp (steps as JSON, its start,
// the seconds it spent paused), a pause or pull with its reason, a per-version health policy
// (null: the server's default), and one health report per device and version, the device id
// stored only as a keyed hash. Reports before `health_since` (the last resume) no longer count.
export const migration0008 = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const columns: Array<[string, 'text' | 'integer' | 'real']> = [
      ['ramp_steps', 'text'],
      ['ramp_started_at', 'text'],
      ['paused_at', 'text'],
      ['pause_reason', 'text'],
      ['pulled_at', 'text'],
      ['pull_reason', 'text'],
      ['health_max_failure_ratio', 'real'],
      ['health_min_reports', 'integer'],
      ['health_since', 'text'],
    ]
    for (const [name, type] of columns) {
      await db.schema
        .alterTable('versions')
        .addColumn(name, type === 'real' && dialect === 'postgres' ? 'double precision' : type)
        .execute()
    }
    await db.schema
      .alterTable('versions')
      .addColumn('ramp_paused_seconds', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema
      .alterTable('versions')
      .addColumn('pause_automatic', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema
      .createTable('health_reports')
      .addColumn('version_id', 'text', (c) => c.notNull().references('versions.id').onDelete('cascade'))
      .addColumn('device_hash', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('from_version', 'text')
      .addColumn('reported_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('health_reports_pk', ['version_id', 'device_hash'])
      .execute()
  },
})
