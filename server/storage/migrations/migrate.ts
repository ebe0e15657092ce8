/**
 * @module Schema migrations of the metadata database, applied in order at start, on SQLite and
 * PostgreSQL. The SQLite statements are exactly those existing databases already ran; where the
 * dialects differ (an auto-numbered key, 64-bit sizes) each gets its own column type. One file
 * per migration, named as the database records it.
 */
import { sql, type Kysely } from 'kysely'
import { type Migration, Migrator, type MigrationProvider } from 'kysely/migration'
import { dialectOf, type Dialect } from '../dialect.ts'
import type { Database } from '../../core/storage.ts'
import { migration0001 } from './0001-initial.ts'
import { migration0002 } from './0002-telemetry.ts'
import { migration0003 } from './0003-artifact-position.ts'
import { migration0004 } from './0004-login-limits.ts'
import { migration0005 } from './0005-version-key.ts'
import { migration0006 } from './0006-api-tokens.ts'
import { migration0007 } from './0007-app-signing-keys.ts'
import { migration0008 } from './0008-rollout-ramps.ts'
import { migration0009 } from './0009-update-offers.ts'
import { migration0010 } from './0010-webhooks.ts'
import { migration0011 } from './0011-gated-ramps.ts'
import { migration0012 } from './0012-audit-log.ts'
import { migration0013 } from './0013-linux-repositories.ts'
import { migration0014 } from './0014-signer-identities.ts'
import { migration0015 } from './0015-health-daily.ts'
import { migration0016 } from './0016-trusted-keys.ts'
import { migration0017 } from './0017-offers-daily.ts'
import { migration0018 } from './0018-update-key-indexes-apt-by-hash.ts'
import { migration0019 } from './0019-update-rules.ts'
import { migration0020 } from './0020-tuf-metadata.ts'

/** Every migration by the name the database records, in the order they were written. */
export const migrationsFor = (dialect: Dialect): Record<string, Migration> => ({
  '0001-initial': migration0001(dialect),
  '0002-telemetry': migration0002,
  '0003-artifact-position': migration0003(dialect),
  '0004-login-limits': migration0004(dialect),
  '0005-version-key': migration0005(dialect),
  '0006-api-tokens': migration0006,
  '0007-app-signing-keys': migration0007,
  '0008-rollout-ramps': migration0008(dialect),
  '0009-update-offers': migration0009,
  '0014-signer-identities': migration0014,
  '0010-webhooks': migration0010,
  '0012-audit-log': migration0012,
  '0013-linux-repositories': migration0013,
  '0011-gated-ramps': migration0011,
  '0015-health-daily': migration0015,
  '0016-trusted-keys': migration0016,
  '0017-offers-daily': migration0017,
  '0018-update-key-indexes-apt-by-hash': migration0018(dialect),
  '0019-update-rules': migration0019,
  '0020-tuf-metadata': migration0020,
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
