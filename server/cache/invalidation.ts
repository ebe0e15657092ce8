/** @module Which apps' cached answers a successful write changed, as its operation declares (`x-ferry-invalidates`). */
import type { Ctx } from '../http/context.ts'
import type { Services } from '../http/services.ts'
import type { OperationSpec } from '../http/spec.ts'

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
  if (op.invalidates === 'team' && user) {
    return (await s.db.selectFrom('apps').select('slug').where('team_id', '=', user.teamId).execute()).map((a) => a.slug)
  }
  return []
}
