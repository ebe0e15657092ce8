/** @module Migration `0011-gated-ramps`, as existing databases ran it: its name and statements never change. */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

// Gated ramps: the gate (JSON), whether its evidence is there, and the ramp-clock second at which
// it last closed (server/updates/rollout.ts).
export const migration0011: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('versions').addColumn('ramp_gate', 'text').execute()
    await db.schema
      .alterTable('versions')
      .addColumn('gate_open', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema
      .alterTable('versions')
      .addColumn('gate_closed_seconds', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    // Adoption (server/storage/telemetry/adoption.ts): downloads counted per version and day, and indexes
    // that keep each per-day count to one version's rows in the asked range.
    await db.schema
      .createTable('version_downloads')
      .addColumn('version_id', 'text', (c) => c.notNull().references('versions.id').onDelete('cascade'))
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('downloads', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('version_downloads_pk', ['version_id', 'day'])
      .execute()
    await db.schema.createIndex('update_offers_day').on('update_offers').columns(['version_id', 'offered_at']).execute()
    await db.schema
      .createIndex('health_reports_day')
      .on('health_reports')
      .columns(['version_id', 'reported_at'])
      .execute()
    await db.schema
      .createIndex('telemetry_devices_version')
      .on('telemetry_devices')
      .columns(['app_slug', 'version', 'channel', 'platform', 'arch', 'day'])
      .execute()
  },
}
