/** @module The signer recorded on the newest published version of an app's channel and platform. */
import type { Db } from './types.ts'

/**
 * The newest published version (semver order, then upload order) of an app on a channel and
 * platform, any architecture, whose signer was read; `undefined` when there is none.
 */
export async function newestPublishedSigner(db: Db, app: string, channelId: string, platformId: string, exceptId?: string): Promise<{ version: string; signer: string | null } | undefined> {
  let q = db.selectFrom('versions').select(['version', 'signer'])
    .where('app_slug', '=', app).where('channel_id', '=', channelId).where('platform_id', '=', platformId)
    .where('published', '=', 1).where('signer_read', '=', 1)
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId)
  return q.orderBy((eb) => eb.fn.coalesce('version_key', eb.val('')), 'desc').orderBy('seq', 'desc').limit(1).executeTakeFirst()
}
