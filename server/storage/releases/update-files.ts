/**
 * @module The reads of the update routes besides the decision's (`releases.ts`): an app's
 * privacy, a published file of a feed, and the newest build of a package type.
 */
import type { Db } from '../../core/storage.ts'
import { versionQuery } from './versions.ts'

/** One channel/platform/arch target of an app. */
export interface FeedTarget {
  slug: string
  channel: string
  platform: string
  arch: string
}

/** The app's slug, privacy and team, or `undefined` when there is no such app. */
export function appOf(db: Db, slug: string) {
  return db.selectFrom('apps').select(['slug', 'private', 'team_id']).where('slug', '=', slug).executeTakeFirst()
}

const publishedIn = (db: Db, t: FeedTarget) =>
  versionQuery(db)
    .where('v.app_slug', '=', t.slug)
    .where('v.published', '=', 1)
    .where('c.name', '=', t.channel)
    .where('p.name', '=', t.platform)
    .where('a.name', '=', t.arch)
    .innerJoin('artifacts as art', 'art.version_id', 'v.id')

/** The artifact named `file` of package type `type` in any published version of the target. */
export function publishedPackage(db: Db, t: FeedTarget, type: string, file: string) {
  return publishedIn(db, t)
    .where('art.package_type', '=', type)
    .where('art.file_name', '=', file)
    .select(['art.id as artifact_id'])
    .executeTakeFirst()
}

/** The artifact named `file` of the published `version` of the target, with what a download needs. */
export function publishedVersionFile(db: Db, t: FeedTarget, version: string, file: string) {
  return publishedIn(db, t)
    .where('v.version', '=', version)
    .where('art.file_name', '=', file)
    .select(['art.id as artifact_id', 'art.blob_key', 'art.sha256', 'art.size'])
    .executeTakeFirst()
}

/**
 * The first artifact of package type `type` in the newest published version of the target that
 * is not pulled (a pulled version is offered to nobody, new installs included). A version semver
 * refuses has no key and is never the newest.
 */
export async function newestBuild(db: Db, t: FeedTarget, type: string) {
  const rows = await publishedIn(db, t)
    .where('v.pulled_at', 'is', null)
    .where('art.package_type', '=', type)
    .select(['art.id as artifact_id'])
    .where('v.version_key', 'is not', null)
    .orderBy('v.version_key', 'desc')
    .orderBy('v.seq', 'desc')
    .orderBy('art.position')
    .limit(1)
    .execute()
  return rows[0]
}
