/** @module The MSIX package route's one read: a published artifact of an app's version, with its app's privacy. */
import { appArtifact } from './artifacts.ts'
import type { Db } from '../../core/storage.ts'

export function publishedArtifact(db: Db, slug: string, versionId: string, artifactId: string) {
  return appArtifact(db, slug, versionId, artifactId)
    .select([
      'artifacts.file_name',
      'artifacts.package_type',
      'artifacts.blob_key',
      'artifacts.sha256',
      'artifacts.size',
      'apps.private',
    ])
    .where('versions.published', '=', 1)
    .executeTakeFirst()
}
