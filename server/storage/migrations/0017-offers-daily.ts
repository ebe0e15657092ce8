/** @module Migration `0017-offers-daily`, as existing databases ran it: its name and statements never change. */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

// Offers older than the health reports' retention, counted per version and UTC day
// (storage/telemetry/offers-daily.ts), so that raw offers stay bounded while adoption reads the same
// figures; and an index that finds the old ones without reading every version's.
export const migration0017: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('update_offers_daily')
      .addColumn('version_id', 'text', (c) => c.notNull().references('versions.id').onDelete('cascade'))
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('offered', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('update_offers_daily_pk', ['version_id', 'day'])
      .execute()
    await db.schema.createIndex('update_offers_offered_at').on('update_offers').column('offered_at').execute()
  },
}
