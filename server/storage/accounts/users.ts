/**
 * @module Teams' and users' SQL: a signup's team and admin, a user by email or id, the team's
 * users paged by email, their updates (a new password bumps `token_version`, which revokes the
 * user's sessions), deletion, and the admin's compare-and-set password change.
 */
import { prepared, type Slots } from '../prepared.ts'
import type { Db, TeamsTable, UsersTable } from '../../core/storage.ts'

/** A team with its first user, in the caller's transaction. */
export async function insertTeam(db: Db, team: TeamsTable, admin: UsersTable): Promise<void> {
  await db.insertInto('teams').values(team).execute()
  await db.insertInto('users').values(admin).execute()
}

export function teamById(db: Db, id: string) {
  return db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst()
}

export function userByEmail(db: Db, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst()
}

const userStatement = prepared((db, $: Slots<{ id: string }>) =>
  db.selectFrom('users').selectAll().where('id', '=', $.id),
)

/** The user with this id, read by every signed-in request. */
export async function userById(db: Db, id: string) {
  const [user] = await userStatement(db, { id })
  return user
}

export async function insertUser(db: Db, row: UsersTable): Promise<void> {
  await db.insertInto('users').values(row).execute()
}

/** A team user (not the admin) of the team. */
export function teamUser(db: Db, teamId: string, id: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .where('team_id', '=', teamId)
    .where('role', '=', 'user')
    .executeTakeFirst()
}

/** One page of the team's users by email, after `afterEmail`. */
export function teamUsersPage(db: Db, teamId: string, afterEmail: string | undefined, count: number) {
  let q = db.selectFrom('users').selectAll().where('team_id', '=', teamId).where('role', '=', 'user')
  if (afterEmail !== undefined) q = q.where('email', '>', afterEmail)
  return q.orderBy('email').limit(count).execute()
}

/** Writes the members given; a new `password_hash` also revokes the user's tokens. */
export function updateTeamUser(
  db: Db,
  teamId: string,
  id: string,
  changes: Partial<Pick<UsersTable, 'name' | 'permissions' | 'password_hash'>>,
) {
  return db
    .updateTable('users')
    .set((eb) => ({
      ...changes,
      ...(changes.password_hash !== undefined ? { token_version: eb('token_version', '+', 1) } : {}),
    }))
    .where('id', '=', id)
    .where('team_id', '=', teamId)
    .where('role', '=', 'user')
    .returningAll()
    .executeTakeFirst()
}

/** Deletes a team user; returns what it held, or undefined when there was none. */
export function deleteTeamUser(db: Db, teamId: string, id: string) {
  return db
    .deleteFrom('users')
    .where('id', '=', id)
    .where('team_id', '=', teamId)
    .where('role', '=', 'user')
    .returning(['email', 'name'])
    .executeTakeFirst()
}

/**
 * Sets a new password hash if the stored one is still `expected` (compare-and-set); `revoke`
 * also revokes the user's tokens. Returns whether it was set.
 */
export async function replacePasswordHash(
  db: Db,
  id: string,
  expected: string,
  hash: string,
  revoke: boolean,
): Promise<boolean> {
  const updated = await db
    .updateTable('users')
    .set((eb) => ({ password_hash: hash, ...(revoke ? { token_version: eb('token_version', '+', 1) } : {}) }))
    .where('id', '=', id)
    .where('password_hash', '=', expected)
    .executeTakeFirst()
  return Number(updated.numUpdatedRows) > 0
}

/** The user and their team; throws (Kysely's `NoResultError`) when either is gone. */
export async function userAndTeam(
  db: Db,
  userId: string,
  teamId: string,
): Promise<{ user: UsersTable; team: TeamsTable }> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow()
  const team = await db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirstOrThrow()
  return { user, team }
}
