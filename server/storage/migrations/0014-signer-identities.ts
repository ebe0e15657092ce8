/** @module Migration `0014-signer-identities`, as existing databases ran it: its name and statements never change. */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

// Who signed a version's Windows executables, read at upload, and a declared change of signer.
export const migration0014: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('versions')
      .addColumn('signer_read', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema.alterTable('versions').addColumn('signer', 'text').execute()
    await db.schema.alterTable('versions').addColumn('signer_change_note', 'text').execute()
    await db.schema.alterTable('versions').addColumn('signer_previous', 'text').execute()
    // Key rotation: the non-current updater keys, JSON [{ key, role }].
    await db.schema.alterTable('apps').addColumn('tauri_extra_keys', 'text').execute()
    await db.schema.alterTable('apps').addColumn('sparkle_extra_keys', 'text').execute()
    // The updater key that verified the version's .sig / .edsig, to count devices per key.
    await db.schema.alterTable('versions').addColumn('update_key', 'text').execute()
  },
}
