/** @module Migration `0001-initial`, as existing databases ran it: its name and statements never change. */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../dialect.ts'

export const migration0001 = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('teams')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('apps')
      .addColumn('slug', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('private', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    for (const table of ['channels', 'platforms', 'archs']) {
      let t = db.schema
        .createTable(table)
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
      if (table === 'channels') t = t.addColumn('description', 'text', (c) => c.notNull())
      if (table === 'platforms') t = t.addColumn('updater', 'text', (c) => c.notNull())
      await t
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint(`${table}_team_name`, ['team_id', 'name'])
        .execute()
    }
    await db.schema
      .createTable('versions')
      .addColumn('seq', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('app_slug', 'text', (c) => c.notNull().references('apps.slug').onDelete('cascade'))
      .addColumn('version', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull().references('channels.id').onDelete('restrict'))
      .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id').onDelete('restrict'))
      .addColumn('arch_id', 'text', (c) => c.notNull().references('archs.id').onDelete('restrict'))
      .addColumn('changelog', 'text', (c) => c.notNull())
      .addColumn('published', 'integer', (c) => c.notNull())
      .addColumn('critical', 'integer', (c) => c.notNull())
      .addColumn('intermediate', 'integer', (c) => c.notNull())
      .addColumn('rollout_percentage', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('published_at', 'text')
      .addUniqueConstraint('versions_unique_target', ['app_slug', 'version', 'channel_id', 'platform_id', 'arch_id'])
      .execute()
    await db.schema
      .createIndex('versions_lookup')
      .on('versions')
      .columns(['app_slug', 'channel_id', 'platform_id', 'arch_id'])
      .execute()
    await db.schema
      .createTable('artifacts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('version_id', 'text', (c) => c.notNull().references('versions.id').onDelete('cascade'))
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('package_type', 'text', (c) => c.notNull())
      .addColumn('size', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
      .addColumn('sha1', 'text', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('sha512', 'text', (c) => c.notNull())
      .addColumn('blob_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('artifacts_version').on('artifacts').column('version_id').execute()
  },
})
