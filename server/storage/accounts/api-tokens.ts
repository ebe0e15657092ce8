/**
 * @module API tokens' SQL: insert, whether a name is taken, look one up by its hash with its creator, stamp its last use,
 * page the team's (or one creator's) tokens newest first, revoke.
 */
import type { ApiTokensTable, Db } from '../../core/storage.ts'

export async function insertApiToken(db: Db, row: ApiTokensTable): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute()
}

/** Whether the team holds a token named `name` (names are unique in a team, so a list tells them apart). */
export async function apiTokenNameTaken(db: Db, teamId: string, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('api_tokens')
    .select('id')
    .where('team_id', '=', teamId)
    .where('name', '=', name)
    .executeTakeFirst()
  return row !== undefined
}

/** The token with `hash`, joined with its creator's row. */
export function apiTokenWithCreator(db: Db, hash: string) {
  return db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.created_by')
    .selectAll('u')
    .select([
      't.id as token_id',
      't.name as token_name',
      't.permissions as token_permissions',
      't.expires_at',
      't.last_used_at',
    ])
    .where('t.token_hash', '=', hash)
    .executeTakeFirst()
}

export async function stampApiTokenUse(db: Db, id: string, at: string): Promise<void> {
  await db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute()
}

/** One page of the team's tokens (only `createdBy`'s when given), newest first, after the cursor `(createdAt, id)`. */
export function apiTokensPage(
  db: Db,
  teamId: string,
  createdBy: string | undefined,
  after: { c: string; i: string } | undefined,
  count: number,
) {
  let q = db.selectFrom('api_tokens').selectAll().where('team_id', '=', teamId)
  if (createdBy !== undefined) q = q.where('created_by', '=', createdBy)
  if (after)
    q = q.where((eb) =>
      eb.or([eb('created_at', '<', after.c), eb.and([eb('created_at', '=', after.c), eb('id', '<', after.i)])]),
    )
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(count).execute()
}

/** Deletes the team's token (only if `createdBy` made it, when given); returns what it held, or undefined. */
export function revokeApiToken(db: Db, teamId: string, id: string, createdBy: string | undefined) {
  let q = db.deleteFrom('api_tokens').where('id', '=', id).where('team_id', '=', teamId)
  if (createdBy !== undefined) q = q.where('created_by', '=', createdBy)
  return q.returning(['name', 'expires_at']).executeTakeFirst()
}
