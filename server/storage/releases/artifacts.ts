/**
 * @module Artifacts' SQL beyond the update check's (`releases.ts`): a new version's rows, one
 * version's files under a lock (deleting one of them), and one artifact with its version and app.
 */
import type { Insertable } from 'kysely'
import { forUpdate } from '../dialect.ts'
import type { ArtifactsTable, Db } from '../../core/storage.ts'

export async function insertArtifacts(db: Db, rows: Insertable<ArtifactsTable>[]): Promise<void> {
  await db.insertInto('artifacts').values(rows).execute()
}

/**
 * The files of the app's version, read after locking the version's row for the transaction
 * `trx`, so that two deletes of its files run one after the other.
 */
export async function lockedVersionFiles(trx: Db, slug: string, versionId: string) {
  await forUpdate(trx, trx.selectFrom('versions').select('id').where('id', '=', versionId)).execute()
  return trx
    .selectFrom('artifacts')
    .innerJoin('versions', 'versions.id', 'artifacts.version_id')
    .select(['artifacts.id', 'artifacts.blob_key', 'artifacts.file_name'])
    .where('versions.id', '=', versionId)
    .where('versions.app_slug', '=', slug)
    .execute()
}

export async function deleteArtifactRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('artifacts').where('id', '=', id).execute()
}

/** The artifact of the app's version, joined with the version and the app; callers select what they read. */
export function appArtifact(db: Db, slug: string, versionId: string, artifactId: string) {
  return db
    .selectFrom('artifacts')
    .innerJoin('versions', 'versions.id', 'artifacts.version_id')
    .innerJoin('apps', 'apps.slug', 'versions.app_slug')
    .where('artifacts.id', '=', artifactId)
    .where('versions.id', '=', versionId)
    .where('apps.slug', '=', slug)
}

/** What a download decides on: the file, the app's team and privacy, whether the version is published. */
export function artifactToDownload(db: Db, slug: string, versionId: string, artifactId: string) {
  return appArtifact(db, slug, versionId, artifactId)
    .select([
      'artifacts.file_name',
      'artifacts.blob_key',
      'artifacts.sha256',
      'artifacts.size',
      'apps.private',
      'apps.team_id',
      'versions.published',
    ])
    .executeTakeFirst()
}
