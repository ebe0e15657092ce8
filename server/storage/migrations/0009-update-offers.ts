/** @module Migration `0009-update-offers`, as existing databases ran it: its name and statements never change. */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

// Health reports count only from devices Ferry offered the version (server/updates/health-evidence.ts):
// one row per version and device, written by the update check, with the keyed hash of the
// client address that got the offer. The policy gains its per-address members.
export const migration0009: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('update_offers')
      .addColumn('version_id', 'text', (c) => c.notNull().references('versions.id').onDelete('cascade'))
      .addColumn('device_hash', 'text', (c) => c.notNull())
      .addColumn('address_hash', 'text', (c) => c.notNull())
      .addColumn('offered_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('update_offers_pk', ['version_id', 'device_hash'])
      .execute()
    await db.schema
      .createIndex('update_offers_address')
      .on('update_offers')
      .columns(['version_id', 'address_hash'])
      .execute()
    await db.schema.alterTable('versions').addColumn('health_min_addresses', 'integer').execute()
    await db.schema.alterTable('versions').addColumn('health_max_reports_per_address', 'integer').execute()
  },
}
