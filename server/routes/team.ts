/** @module Team users and their permission matrix, and the admin's own password (admin only). */
import { json, noContent, timestamp, type Handlers, type Schemas, type Services } from '../context.ts'
import { hashPassword, randomId, verifyPassword } from '../crypto.ts'
import { currentUser, isUniqueViolation, toTeamUser } from '../model.ts'
import { decodeCursor, page } from '../pagination.ts'
import { normalizePermissions } from '../permissions.ts'
import { conflict, notFound, validationProblem } from '../problem.ts'
import type { UsersTable } from '../storage/types.ts'

type TeamOps = 'createTeamUser' | 'listTeamUsers' | 'updateTeamUser' | 'deleteTeamUser' | 'updateAdminPassword'

export function teamHandlers(s: Services): Pick<Handlers, TeamOps> {
  const findUser = async (teamId: string, id: string): Promise<UsersTable> => {
    const row = await s.db.selectFrom('users').selectAll().where('id', '=', id).where('team_id', '=', teamId)
      .where('role', '=', 'user').executeTakeFirst()
    if (!row) throw notFound(`No team user with id ${id}.`)
    return row
  }

  return {
    async createTeamUser(c, input) {
      const admin = currentUser(c.get('user'))
      const body = input.body as Schemas['TeamUserCreate']
      const row: UsersTable = {
        id: randomId('usr'),
        team_id: admin.teamId,
        email: body.email.toLowerCase(),
        name: body.name,
        role: 'user',
        password_hash: await hashPassword(body.password, s.config.passwordIterations),
        permissions: JSON.stringify(normalizePermissions(body.permissions)),
        token_version: 0,
        created_at: timestamp(s.now()),
      }
      try {
        await s.db.insertInto('users').values(row).execute()
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`A user with email ${row.email} already exists.`)
        throw error
      }
      return json(toTeamUser(row), 201)
    },

    async listTeamUsers(c, input) {
      const admin = currentUser(c.get('user'))
      const limit = input.query.limit as number
      const cursor = decodeCursor<{ e: string }>(input.query.cursor, (v) => typeof v.e === 'string')
      let q = s.db.selectFrom('users').selectAll().where('team_id', '=', admin.teamId).where('role', '=', 'user')
      if (cursor) q = q.where('email', '>', cursor.e)
      const rows = await q.orderBy('email').limit(limit + 1).execute()
      return json(page(rows, limit, toTeamUser, (r) => ({ e: r.email })))
    },

    async updateTeamUser(c, input) {
      const admin = currentUser(c.get('user'))
      const row = await findUser(admin.teamId, input.path.id as string)
      const body = input.body as Schemas['TeamUserUpdate']
      const next = { ...row }
      if (body.name !== undefined) next.name = body.name
      if (body.permissions !== undefined) next.permissions = JSON.stringify(normalizePermissions(body.permissions))
      if (body.password !== undefined) {
        next.password_hash = await hashPassword(body.password, s.config.passwordIterations)
        next.token_version = row.token_version + 1
      }
      await s.db.updateTable('users')
        .set({ name: next.name, permissions: next.permissions, password_hash: next.password_hash, token_version: next.token_version })
        .where('id', '=', row.id).execute()
      return json(toTeamUser(next))
    },

    async deleteTeamUser(c, input) {
      const admin = currentUser(c.get('user'))
      const row = await findUser(admin.teamId, input.path.id as string)
      await s.db.deleteFrom('users').where('id', '=', row.id).execute()
      return noContent()
    },

    async updateAdminPassword(c, input) {
      const admin = currentUser(c.get('user'))
      const body = input.body as Schemas['AdminPasswordUpdate']
      const row = await s.db.selectFrom('users').selectAll().where('id', '=', admin.id).executeTakeFirstOrThrow()
      if (!(await verifyPassword(body.currentPassword, row.password_hash))) {
        throw validationProblem([{ pointer: '/currentPassword', message: 'does not match the current password' }])
      }
      await s.db.updateTable('users')
        .set({ password_hash: await hashPassword(body.newPassword, s.config.passwordIterations), token_version: row.token_version + 1 })
        .where('id', '=', row.id).execute()
      return noContent()
    },
  }
}
