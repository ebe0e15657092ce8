/** @module Migration `0016-trusted-keys`, as existing databases ran it: its name and statements never change. */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

// Key rotation: the updater public keys a version's build trusts (a JSON array of key texts),
// so an update check offers a device only releases signed by a key its installed version trusts.
export const migration0016: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('versions').addColumn('trusted_keys', 'text').execute()
  },
}
