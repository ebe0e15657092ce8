/** @module Which apps' cached answers a write request may have changed. */
import type { AuthUser, Services } from '../context.ts'

const APP_PATH = /^\/v1\/apps\/([^/]+)/
const CATALOG_PATH = /^\/v1\/(?:channels|platforms|archs)(?:\/|$)/

/**
 * A write under `/v1/apps/{app}` changes that app's answers (versions, artifacts, privacy,
 * deletion). A catalog write (a renamed channel, a platform's default format) changes every
 * answer of the caller's team. Nothing else reaches an update answer.
 */
export async function appsAffectedBy(s: Services, path: string, user: AuthUser | undefined): Promise<string[]> {
  const app = APP_PATH.exec(path)?.[1]
  if (app) return [decodeURIComponent(app)]
  if (CATALOG_PATH.test(path) && user) {
    return (await s.db.selectFrom('apps').select('slug').where('team_id', '=', user.teamId).execute()).map((a) => a.slug)
  }
  return []
}
