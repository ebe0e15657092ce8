/** @module Migration `0015-health-daily`, as existing databases ran it: its name and statements never change. */
import type { Migration } from 'kysely/migration'

// Health reports older than a month, summed per version, UTC day and client address
// (storage/telemetry/health-daily.ts), so that raw rows stay bounded while adoption and the health tally
// read the same figures; '' stands for a report without an offer. And the ramp holds announced
// by webhooks (server/webhooks/worker.ts): the hold (its start) last told as holding and as
// paused at its deadline, so each is sent once per hold across instances.
export const migration0015: Migration = {
  async up(db) {
    await db.schema
      .createTable('health_daily')
      .addColumn('version_id', 'text', (c) => c.notNull().references('versions.id').onDelete('cascade'))
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('address_hash', 'text', (c) => c.notNull())
      .addColumn('installed', 'integer', (c) => c.notNull())
      .addColumn('failed', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('health_daily_pk', ['version_id', 'day', 'address_hash'])
      .execute()
    await db.schema.alterTable('webhook_ramp_marks').addColumn('held_since', 'text').execute()
    await db.schema.alterTable('webhook_ramp_marks').addColumn('lapsed_since', 'text').execute()
  },
}
