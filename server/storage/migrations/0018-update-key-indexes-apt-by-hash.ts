/** @module Migration `0018-update-key-indexes-apt-by-hash`, as existing databases ran it: its name and statements never change. */
import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../dialect.ts'

// A device far behind during a key rotation (releases.ts's reachableTrustedRows): per updater key
// that signed them, the releases, the first intermediate and any critical one, without walking
// the releases signed by keys the device does not trust. And the apt indexes a Release listed
// (storage/releases/apt-index-files.ts), kept a while after they change so `by-hash/` paths still answer.
export const migration0018 = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('apt_index_files')
      .addColumn('app_slug', 'text', (c) => c.notNull().references('apps.slug').onDelete('cascade'))
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('binary_arch', 'text', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('file', 'text', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('body', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      .addColumn('listed_at', 'text', (c) => c.notNull())
      .addColumn('replaced_at', 'text')
      .addPrimaryKeyConstraint('apt_index_files_pk', ['app_slug', 'channel', 'binary_arch', 'sha256'])
      .execute()
    const columns = ['app_slug', 'channel_id', 'platform_id', 'arch_id', 'published', 'update_key', 'version_key']
    await db.schema.createIndex('versions_update_key').on('versions').columns(columns).execute()
    for (const flag of ['intermediate', 'critical'] as const) {
      await db.schema
        .createIndex(`versions_${flag}_update_key`)
        .on('versions')
        .columns(columns)
        .where(sql.ref(flag), '=', sql.lit(1))
        .execute()
    }
  },
})
