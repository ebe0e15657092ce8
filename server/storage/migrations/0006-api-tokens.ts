/** @module Migration `0006-api-tokens`, as existing databases ran it: its name and statements never change. */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

// Long-lived machine tokens (server/auth/api-tokens.ts). Revoking deletes the row: a revoked token
// has no further use (Ferry keeps no audit log), and nothing else needs it. Removing the
// creator removes their tokens with them. Only the SHA-256 of the secret is stored.
export const migration0006: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('api_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('created_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('permissions', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('last_used_at', 'text')
      .execute()
    // The two lists (the admin's, a user's own), newest first; the second also serves the cascade.
    await db.schema.createIndex('api_tokens_team').on('api_tokens').columns(['team_id', 'created_at', 'id']).execute()
    await db.schema
      .createIndex('api_tokens_creator')
      .on('api_tokens')
      .columns(['created_by', 'created_at', 'id'])
      .execute()
  },
}
