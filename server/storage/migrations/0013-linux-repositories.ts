/** @module Migration `0013-linux-repositories`, as existing databases ran it: its name and statements never change. */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

// apt and rpm repositories (server/routes/linux-repositories.ts): each app's OpenPGP signing key,
// made on first use, and what an index needs of each uploaded .deb/.rpm, read once at upload.
export const migration0013: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('app_signing_keys')
      .addColumn('app_slug', 'text', (c) => c.primaryKey().references('apps.slug').onDelete('cascade'))
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('private_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('linux_packages')
      .addColumn('artifact_id', 'text', (c) => c.primaryKey().references('artifacts.id').onDelete('cascade'))
      .addColumn('version_id', 'text', (c) => c.notNull().references('versions.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('arch', 'text', (c) => c.notNull())
      .addColumn('metadata', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('linux_packages_version').on('linux_packages').column('version_id').execute()
  },
}
