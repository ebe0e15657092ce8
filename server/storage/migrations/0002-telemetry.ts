/** @module Migration `0002-telemetry`, as existing databases ran it: its name and statements never change. */
import type { CreateTableBuilder, Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

export const migration0002: Migration = {
  async up(db: Kysely<unknown>) {
    const group = ['app_slug', 'day', 'version', 'channel', 'platform', 'arch'] as const
    const groupColumns = (t: CreateTableBuilder<string>) =>
      t
        .addColumn('app_slug', 'text', (c) => c.notNull().references('apps.slug').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('platform', 'text', (c) => c.notNull())
        .addColumn('arch', 'text', (c) => c.notNull())
    await groupColumns(db.schema.createTable('telemetry_counts'))
      .addColumn('checks', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('telemetry_counts_pk', [...group])
      .execute()
    await groupColumns(db.schema.createTable('telemetry_devices'))
      .addColumn('device_hash', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('telemetry_devices_pk', [...group, 'device_hash'])
      .execute()
    await db.schema.createIndex('telemetry_counts_day').on('telemetry_counts').columns(['day', 'app_slug']).execute()
  },
}
