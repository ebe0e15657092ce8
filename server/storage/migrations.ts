/**
 * @module Schema migrations of the metadata database, applied in order at start, on SQLite and
 * PostgreSQL. The SQLite statements are exactly those existing databases already ran; where the
 * dialects differ (an auto-numbered key, 64-bit sizes) each gets its own column type.
 */
import { sql, type CreateTableBuilder, type Kysely } from 'kysely'
import { type Migration, Migrator, type MigrationProvider } from 'kysely/migration'
import { versionKey } from './releases/version-key.ts'
import { dialectOf, type Dialect } from './drivers/dialect.ts'
import type { Database } from '../core/storage.ts'

/** The table of `0004-login-limits`. */
export const LOGIN_LIMITS_TABLE = 'ferry_login_limits'

export const migrationsFor = (dialect: Dialect): Record<string, Migration> => ({
  '0001-initial': {
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
  },
  '0002-telemetry': {
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
  },
  // A version's files keep their upload order without relying on SQLite's rowid.
  '0003-artifact-position': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('artifacts')
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      if (dialect === 'sqlite') await sql`UPDATE artifacts SET position = rowid`.execute(db)
    },
  },
  // Login attempts counted by every instance on this PostgreSQL (rate-limiter-flexible's
  // RateLimiterPostgres layout; see server/auth/login-limiter-stores.ts). Created here rather than by
  // the library so that instances starting together do not race: migrations run under a lock.
  // SQLite serves one process, whose limiter is in memory.
  '0004-login-limits': {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return
      await db.schema
        .createTable(LOGIN_LIMITS_TABLE)
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expire', 'bigint')
        .execute()
    },
  },
  // The update check reads only the releases above the client's version, by a key the database
  // compares bytewise (PostgreSQL's default collation may be a locale's), indexed with the filters.
  '0005-version-key': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('versions')
        .addColumn('version_key', dialect === 'postgres' ? sql`text collate "C"` : 'text')
        .execute()
      const { rows } = await sql<{ seq: number; version: string }>`SELECT seq, version FROM versions`.execute(db)
      for (let start = 0; start < rows.length; start += 500) {
        const keyed = rows.slice(start, start + 500).flatMap(({ seq, version }) => {
          const key = versionKey(version)
          return key === null ? [] : [{ seq, key }]
        })
        if (keyed.length === 0) continue
        await sql`UPDATE versions SET version_key = CASE seq ${sql.join(
          keyed.map((r) => sql`WHEN ${r.seq} THEN ${r.key}`),
          sql` `,
        )} END
          WHERE seq IN (${sql.join(keyed.map((r) => r.seq))})`.execute(db)
      }
      await db.schema
        .createIndex('versions_candidates')
        .on('versions')
        .columns(['app_slug', 'channel_id', 'platform_id', 'arch_id', 'published', 'version_key'])
        .execute()
      // The first intermediate and any critical release above a client are found without
      // walking the releases in between (usually few are either; offer.ts's reachableRange).
      for (const flag of ['intermediate', 'critical'] as const) {
        await db.schema
          .createIndex(`versions_${flag}`)
          .on('versions')
          .columns(['app_slug', 'channel_id', 'platform_id', 'arch_id', 'published', 'version_key'])
          .where(sql.ref(flag), '=', sql.lit(1))
          .execute()
      }
      // A prefix of the new index.
      await db.schema.dropIndex('versions_lookup').execute()
    },
  },
  // Long-lived machine tokens (server/auth/api-tokens.ts). Revoking deletes the row: a revoked token
  // has no further use (Ferry keeps no audit log), and nothing else needs it. Removing the
  // creator removes their tokens with them. Only the SHA-256 of the secret is stored.
  '0006-api-tokens': {
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
  },
  // Public keys an app's uploads are checked against (server/transfer/signatures.ts): Tauri's minisign key
  // as in tauri.conf.json, Sparkle's EdDSA key as in SUPublicEDKey. NULL checks nothing. Also a
  // version's minimum OS version for Sparkle appcasts.
  '0007-app-signing-keys': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('apps').addColumn('tauri_public_key', 'text').execute()
      await db.schema.alterTable('apps').addColumn('sparkle_public_key', 'text').execute()
      // The oldest OS a build runs on, for Sparkle's sparkle:minimumSystemVersion.
      await db.schema.alterTable('versions').addColumn('minimum_system_version', 'text').execute()
    },
  },
  // Rollouts that watch themselves (server/updates/rollout.ts): a scheduled ramp (steps as JSON, its start,
  // the seconds it spent paused), a pause or pull with its reason, a per-version health policy
  // (null: the server's default), and one health report per device and version, the device id
  // stored only as a keyed hash. Reports before `health_since` (the last resume) no longer count.
  '0008-rollout-ramps': {
    async up(db: Kysely<unknown>) {
      const columns: Array<[string, 'text' | 'integer' | 'real']> = [
        ['ramp_steps', 'text'],
        ['ramp_started_at', 'text'],
        ['paused_at', 'text'],
        ['pause_reason', 'text'],
        ['pulled_at', 'text'],
        ['pull_reason', 'text'],
        ['health_max_failure_ratio', 'real'],
        ['health_min_reports', 'integer'],
        ['health_since', 'text'],
      ]
      for (const [name, type] of columns) {
        await db.schema
          .alterTable('versions')
          .addColumn(name, type === 'real' && dialect === 'postgres' ? 'double precision' : type)
          .execute()
      }
      await db.schema
        .alterTable('versions')
        .addColumn('ramp_paused_seconds', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema
        .alterTable('versions')
        .addColumn('pause_automatic', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema
        .createTable('health_reports')
        .addColumn('version_id', 'text', (c) => c.notNull().references('versions.id').onDelete('cascade'))
        .addColumn('device_hash', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('from_version', 'text')
        .addColumn('reported_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('health_reports_pk', ['version_id', 'device_hash'])
        .execute()
    },
  },
  // Health reports count only from devices Ferry offered the version (server/updates/health-evidence.ts):
  // one row per version and device, written by the update check, with the keyed hash of the
  // client address that got the offer. The policy gains its per-address members.
  '0009-update-offers': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('update_offers')
        .addColumn('version_id', 'text', (c) => c.notNull().references('versions.id').onDelete('cascade'))
        .addColumn('device_hash', 'text', (c) => c.notNull())
        .addColumn('address_hash', 'text', (c) => c.notNull())
        .addColumn('offered_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('update_offers_pk', ['version_id', 'device_hash'])
        .execute()
      await db.schema
        .createIndex('update_offers_address')
        .on('update_offers')
        .columns(['version_id', 'address_hash'])
        .execute()
      await db.schema.alterTable('versions').addColumn('health_min_addresses', 'integer').execute()
      await db.schema.alterTable('versions').addColumn('health_max_reports_per_address', 'integer').execute()
    },
  },
  // Who signed a version's Windows executables, read at upload, and a declared change of signer.
  '0014-signer-identities': {
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
  },
  // Webhooks (server/webhooks/): a team's subscriptions, the outbox of deliveries (one row per
  // subscription and event, claimed by pushing `next_attempt_at` past a lease), and the last ramp
  // step announced per version so "ramp step reached" fires once per step.
  '0010-webhooks': {
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
  },
  // The audit log (server/audit/): one row per successful write, listed newest first per team
  // and filtered by app or actor; pruned by age in batches (hence the index on `at` alone).
  '0012-audit-log': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('actor_type', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text', (c) => c.notNull())
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('actor_email', 'text')
        .addColumn('actor_user_id', 'text')
        .addColumn('creator_email', 'text')
        .addColumn('operation_id', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text')
        .addColumn('app_slug', 'text')
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('address', 'text')
        .execute()
      await db.schema.createIndex('audit_log_team_at').on('audit_log').columns(['team_id', 'at', 'id']).execute()
      await db.schema
        .createIndex('audit_log_team_app_at')
        .on('audit_log')
        .columns(['team_id', 'app_slug', 'at'])
        .execute()
      await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute()
    },
  },
  // apt and rpm repositories (server/routes/linux-repositories.ts): each app's OpenPGP signing key,
  // made on first use, and what an index needs of each uploaded .deb/.rpm, read once at upload.
  '0013-linux-repositories': {
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
  },
  // Gated ramps: the gate (JSON), whether its evidence is there, and the ramp-clock second at which
  // it last closed (server/updates/rollout.ts).
  '0011-gated-ramps': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('versions').addColumn('ramp_gate', 'text').execute()
      await db.schema
        .alterTable('versions')
        .addColumn('gate_open', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema
        .alterTable('versions')
        .addColumn('gate_closed_seconds', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      // Adoption (server/storage/telemetry/adoption.ts): downloads counted per version and day, and indexes
      // that keep each per-day count to one version's rows in the asked range.
      await db.schema
        .createTable('version_downloads')
        .addColumn('version_id', 'text', (c) => c.notNull().references('versions.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('downloads', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('version_downloads_pk', ['version_id', 'day'])
        .execute()
      await db.schema
        .createIndex('update_offers_day')
        .on('update_offers')
        .columns(['version_id', 'offered_at'])
        .execute()
      await db.schema
        .createIndex('health_reports_day')
        .on('health_reports')
        .columns(['version_id', 'reported_at'])
        .execute()
      await db.schema
        .createIndex('telemetry_devices_version')
        .on('telemetry_devices')
        .columns(['app_slug', 'version', 'channel', 'platform', 'arch', 'day'])
        .execute()
    },
  },
  // Health reports older than a month, summed per version, UTC day and client address
  // (storage/telemetry/health-daily.ts), so that raw rows stay bounded while adoption and the health tally
  // read the same figures; '' stands for a report without an offer. And the ramp holds announced
  // by webhooks (server/webhooks/worker.ts): the hold (its start) last told as holding and as
  // paused at its deadline, so each is sent once per hold across instances.
  '0015-health-daily': {
    async up(db) {
      await db.schema
        .createTable('health_daily')
        .addColumn('version_id', 'text', (c) => c.notNull().references('versions.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('address_hash', 'text', (c) => c.notNull())
        .addColumn('installed', 'integer', (c) => c.notNull())
        .addColumn('failed', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('health_daily_pk', ['version_id', 'day', 'address_hash'])
        .execute()
      await db.schema.alterTable('webhook_ramp_marks').addColumn('held_since', 'text').execute()
      await db.schema.alterTable('webhook_ramp_marks').addColumn('lapsed_since', 'text').execute()
    },
  },
  // Key rotation: the updater public keys a version's build trusts (a JSON array of key texts),
  // so an update check offers a device only releases signed by a key its installed version trusts.
  '0016-trusted-keys': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('versions').addColumn('trusted_keys', 'text').execute()
    },
  },
  // Offers older than the health reports' retention, counted per version and UTC day
  // (storage/telemetry/offers-daily.ts), so that raw offers stay bounded while adoption reads the same
  // figures; and an index that finds the old ones without reading every version's.
  '0017-offers-daily': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('update_offers_daily')
        .addColumn('version_id', 'text', (c) => c.notNull().references('versions.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('offered', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('update_offers_daily_pk', ['version_id', 'day'])
        .execute()
      await db.schema.createIndex('update_offers_offered_at').on('update_offers').column('offered_at').execute()
    },
  },
  // A device far behind during a key rotation (releases.ts's reachableTrustedRows): per updater key
  // that signed them, the releases, the first intermediate and any critical one, without walking
  // the releases signed by keys the device does not trust. And the apt indexes a Release listed
  // (storage/releases/apt-index-files.ts), kept a while after they change so `by-hash/` paths still answer.
  '0018-update-key-indexes-apt-by-hash': {
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
  },
})

/** Raised when the database holds migrations this Ferry does not know: it was upgraded by a newer one. */
export class SchemaNewerError extends Error {}

/** Brings the schema up to date; throws with the failing migration's name. */
export async function migrate(db: Kysely<Database>): Promise<void> {
  const dialect = dialectOf(db)
  if (dialect === 'sqlite') await sql`PRAGMA foreign_keys = ON`.execute(db)
  const migrations = migrationsFor(dialect)
  const provider: MigrationProvider = { getMigrations: async () => migrations }
  const migrator = new Migrator({ db, provider })
  // Kysely lists only the migrations it knows; its own table tells which ran (none on a new database).
  const recorded = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db).then(
    (r) => r.rows.map((row) => row.name),
    () => [],
  )
  const newer = recorded.filter((name) => !(name in migrations))
  if (newer.length) {
    throw new SchemaNewerError(
      `the database schema is newer than this Ferry: it has run migration ${newer[0]}, which this version does not know; run the Ferry version that upgraded it, or newer`,
    )
  }
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown'
    throw new Error(`database migration failed: migration=${failed}`, { cause: error })
  }
}
