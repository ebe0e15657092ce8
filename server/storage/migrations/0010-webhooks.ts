/** @module Migration `0010-webhooks`, as existing databases ran it: its name and statements never change. */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

// Webhooks (server/webhooks/): a team's subscriptions, the outbox of deliveries (one row per
// subscription and event, claimed by pushing `next_attempt_at` past a lease), and the last ramp
// step announced per version so "ramp step reached" fires once per step.
export const migration0010: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('webhook_subscriptions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('apps', 'text')
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('disabled_reason', 'text')
      .addColumn('failing_since', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('webhook_subscriptions_team')
      .on('webhook_subscriptions')
      .columns(['team_id', 'created_at', 'id'])
      .execute()
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('subscription_id', 'text', (c) =>
        c.notNull().references('webhook_subscriptions.id').onDelete('cascade'),
      )
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('last_attempt_at', 'text')
      .addColumn('response_status', 'integer')
      .addColumn('error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('webhook_deliveries_due')
      .on('webhook_deliveries')
      .columns(['status', 'next_attempt_at'])
      .execute()
    await db.schema
      .createIndex('webhook_deliveries_subscription')
      .on('webhook_deliveries')
      .columns(['subscription_id', 'created_at', 'id'])
      .execute()
    await db.schema
      .createTable('webhook_ramp_marks')
      .addColumn('version_id', 'text', (c) => c.primaryKey().references('versions.id').onDelete('cascade'))
      .addColumn('ramp_started_at', 'text', (c) => c.notNull())
      .addColumn('step', 'integer', (c) => c.notNull())
      .execute()
  },
}
