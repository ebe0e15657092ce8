/**
 * @module What webhook events read: a version with its catalog names and states (as events
 * describe it), and the state a write is judged against (a version's, a token's) before it runs.
 */
import type { Db } from '../../core/storage.ts'
import { VERSION_NAMES, versionsWithCatalogNames } from '../releases/versions.ts'

/** A version with its channel, platform and architecture names; `undefined` when there is none. */
export function versionForEvent(db: Db, versionId: string) {
  return versionsWithCatalogNames(db)
    .select([
      ...VERSION_NAMES,
      'v.published',
      'v.paused_at',
      'v.pause_reason',
      'v.pause_automatic',
      'v.pulled_at',
      'v.pull_reason',
    ])
    .where('v.id', '=', versionId)
    .executeTakeFirst()
}

/** Whether an app's version is published, paused, pulled; `undefined` when the app has no such version. */
export function versionStates(db: Db, app: string, versionId: string) {
  return db
    .selectFrom('versions')
    .select(['published', 'paused_at', 'pulled_at'])
    .where('id', '=', versionId)
    .where('app_slug', '=', app)
    .executeTakeFirst()
}

/** A team's API token's id, name and creator; `undefined` when the team has no such token. */
export function teamToken(db: Db, teamId: string, id: string) {
  return db
    .selectFrom('api_tokens')
    .select(['id', 'name', 'created_by'])
    .where('id', '=', id)
    .where('team_id', '=', teamId)
    .executeTakeFirst()
}
