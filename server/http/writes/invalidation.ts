/**
 * @module Which apps' cached answers a successful write changed, as its operation declares
 * (`x-ferry-invalidates`), and dropping them: from the answer cache, then from the CDN in front.
 */
import type { Ctx } from '../context.ts'
import type { Services } from '../services.ts'
import type { OperationSpec } from '../spec.ts'
import { purgeApps } from '../../cache/edge-purge.ts'
import { teamAppSlugs } from '../../storage/releases/apps.ts'

/**
 * `app`: the app in the request's path (versions, artifacts, privacy, deletion). `team`: every
 * app of the caller's team (a renamed channel, a platform's default format). Called only after
 * the handler succeeded, so the app exists and is the caller's: nothing grows per request.
 */
export async function appsInvalidatedBy(s: Services, op: OperationSpec, c: Ctx): Promise<string[]> {
  if (op.invalidates === 'app') {
    const app = c.req.param('app')
    return app === undefined ? [] : [app]
  }
  const user = c.get('user')
  if (op.invalidates === 'team' && user) return teamAppSlugs(s.db, user.teamId)
  return []
}

/**
 * Drops `apps`' answers from the answer cache, then from the CDN in front (`purgeApps`), in that
 * order: a CDN miss right after the purge must not be refilled from a stale answer cache. Once
 * dropped, the apps' hot answers are computed again in the background (`HotAnswers.refresh`),
 * from the data the write committed.
 */
export async function invalidateAnswers(s: Services, apps: string[], reqId?: string): Promise<void> {
  if (!apps.length) return
  try {
    await s.answers?.invalidate(apps)
    if (s.answers) s.hotAnswers.refresh(apps)
  } finally {
    if (s.purger) await purgeApps(s.purger, apps, s.logger, (ms) => new Promise((done) => setTimeout(done, ms)), reqId)
  }
}
