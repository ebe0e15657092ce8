/** @module An app's TUF metadata files by role and version, and the server's online key. */
import type { Db, TufMetadataTable, TufOnlineKeysTable } from '../../core/storage.ts'

export type TufRole = 'root' | 'targets' | 'snapshot' | 'timestamp'

/** The newest stored file of a role, or `undefined` when the app has none. */
export function latestTufFile(db: Db, slug: string, role: TufRole): Promise<TufMetadataTable | undefined> {
  return db
    .selectFrom('tuf_metadata')
    .selectAll()
    .where('app_slug', '=', slug)
    .where('role', '=', role)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst()
}

export function tufFile(db: Db, slug: string, role: TufRole, version: number): Promise<TufMetadataTable | undefined> {
  return db
    .selectFrom('tuf_metadata')
    .selectAll()
    .where('app_slug', '=', slug)
    .where('role', '=', role)
    .where('version', '=', version)
    .executeTakeFirst()
}

/** Stores one file; `false` when its version is already stored (another request or instance wrote it first). */
export async function insertTufFile(db: Db, row: TufMetadataTable): Promise<boolean> {
  const done = await db
    .insertInto('tuf_metadata')
    .values(row)
    .onConflict((oc) => oc.columns(['app_slug', 'role', 'version']).doNothing())
    .executeTakeFirst()
  return Number(done.numInsertedOrUpdatedRows ?? 0) > 0
}

/** Drops the app's timestamps older than `version`: only the newest is ever served. */
export async function pruneTimestamps(db: Db, slug: string, version: number): Promise<void> {
  await db
    .deleteFrom('tuf_metadata')
    .where('app_slug', '=', slug)
    .where('role', '=', 'timestamp')
    .where('version', '<', version)
    .execute()
}

/** Stores the online key unless another instance stored one first; returns the key that holds. */
export async function keepOnlineKey(db: Db, row: TufOnlineKeysTable): Promise<TufOnlineKeysTable> {
  await db
    .insertInto('tuf_online_keys')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
  const kept = await onlineKey(db, row.id)
  if (!kept) throw new Error(`the online TUF key ${row.id} vanished while it was stored`)
  return kept
}

export function onlineKey(db: Db, id: string): Promise<TufOnlineKeysTable | undefined> {
  return db.selectFrom('tuf_online_keys').selectAll().where('id', '=', id).executeTakeFirst()
}

/** The app's artifacts among `ids` (at most 500 per query), with their version and what a target states. */
export async function artifactsForTargets(db: Db, slug: string, ids: string[]) {
  const rows = []
  for (let i = 0; i < ids.length; i += 500) {
    rows.push(
      ...(await db
        .selectFrom('artifacts')
        .innerJoin('versions', 'versions.id', 'artifacts.version_id')
        .select(['artifacts.id', 'artifacts.version_id', 'artifacts.size', 'artifacts.sha256', 'artifacts.sha512'])
        .where('versions.app_slug', '=', slug)
        .where('artifacts.id', 'in', ids.slice(i, i + 500))
        .execute()),
    )
  }
  return rows
}
