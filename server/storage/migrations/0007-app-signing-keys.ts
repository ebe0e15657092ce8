/** @module Migration `0007-app-signing-keys`, as existing databases ran it: its name and statements never change. */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

// Public keys an app's uploads are checked against (server/transfer/signatures.ts): Tauri's minisign key
// as in tauri.conf.json, Sparkle's EdDSA key as in SUPublicEDKey. NULL checks nothing. Also a
// version's minimum OS version for Sparkle appcasts.
export const migration0007: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('apps').addColumn('tauri_public_key', 'text').execute()
    await db.schema.alterTable('apps').addColumn('sparkle_public_key', 'text').execute()
    // The oldest OS a build runs on, for Sparkle's sparkle:minimumSystemVersion.
    await db.schema.alterTable('versions').addColumn('minimum_system_version', 'text').execute()
  },
}
