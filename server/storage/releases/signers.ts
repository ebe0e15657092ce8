/**
 * @module The signer recorded on the newest published version of an app's channel and platform, the
 * lock that keeps it, and what publishing a stored version checks of its own signer.
 */
import { sql } from 'kysely'
import { dialectOf } from '../dialect.ts'
import type { Db } from '../../core/storage.ts'

/**
 * Serializes signer checks of one app, channel and platform until the transaction `trx` ends, so
 * two publishes by different signers cannot both pass the check before either is recorded.
 * PostgreSQL: a transaction-scoped advisory lock on the line's key. SQLite: the transaction
 * already holds the one connection every other query waits for.
 */
export async function lockSignerLine(trx: Db, app: string, channelId: string, platformId: string): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return
  await sql`select pg_advisory_xact_lock(hashtextextended(${`ferry-signer ${app} ${channelId} ${platformId}`}, 0))`.execute(
    trx,
  )
}

/**
 * The newest published version (semver order, then upload order) of an app on a channel and
 * platform, any architecture, whose signer was read; `undefined` when there is none.
 */
export async function newestPublishedSigner(
  db: Db,
  app: string,
  channelId: string,
  platformId: string,
  exceptId?: string,
): Promise<{ version: string; signer: string | null } | undefined> {
  let q = db
    .selectFrom('versions')
    .select(['version', 'signer'])
    .where('app_slug', '=', app)
    .where('channel_id', '=', channelId)
    .where('platform_id', '=', platformId)
    .where('published', '=', 1)
    .where('signer_read', '=', 1)
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId)
  return q
    .orderBy((eb) => eb.fn.coalesce('version_key', eb.val('')), 'desc')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/** What the signer check of publishing a stored version reads of it; `undefined` when the app has no such version. */
export function versionSignerState(db: Db, app: string, versionId: string) {
  return db
    .selectFrom('versions')
    .select(['version', 'channel_id', 'platform_id', 'published', 'signer_read', 'signer', 'signer_change_note'])
    .where('id', '=', versionId)
    .where('app_slug', '=', app)
    .executeTakeFirst()
}
