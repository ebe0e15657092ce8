/** @module Migration `0020-tuf-metadata`, as existing databases ran it: its name and statements never change. */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

// Signed update metadata (TUF, server/tuf/): each app's metadata files by role and version, as
// served, and the server's online key that signs snapshot and timestamp.
export const migration0020: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('tuf_metadata')
      .addColumn('app_slug', 'text', (c) => c.notNull().references('apps.slug').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('expires', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('tuf_metadata_pk', ['app_slug', 'role', 'version'])
      .execute()
    await db.schema
      .createTable('tuf_online_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('private_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
  },
}
