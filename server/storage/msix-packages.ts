/** @module The MSIX package route's one read: a published artifact of an app's version, with its app's privacy. */
import type { Db } from './types.ts'

export function publishedArtifact(db: Db, slug: string, versionId: string, artifactId: string) {
  return db
    .selectFrom('artifacts')
    .innerJoin('versions', 'versions.id', 'artifacts.version_id')
    .innerJoin('apps', 'apps.slug', 'versions.app_slug')
    .select([
      'artifacts.file_name',
      'artifacts.package_type',
      'artifacts.blob_key',
      'artifacts.sha256',
      'artifacts.size',
      'apps.private',
    ])
    .where('artifacts.id', '=', artifactId)
    .where('versions.id', '=', versionId)
    .where('apps.slug', '=', slug)
    .where('versions.published', '=', 1)
    .executeTakeFirst()
}
