/** @module Team users and their permission matrix, and the admin's own password (admin only). */
import { noteAudit } from '../http/audit-hook.ts'
import { commitWrite } from '../http/write-unit.ts'
import { removedChanges } from '../audit/entry.ts'
import { noContent, timestamp, type Handlers } from '../http/respond.ts'
import type { Services } from '../http/services.ts'
import { hashPassword, randomId, verifyPassword } from '../auth/crypto.ts'
import { currentUser } from '../auth/auth-user.ts'
import { isUniqueViolation } from '../storage/dialect.ts'
import { toTeamUser } from './api-objects.ts'
import { decodeCursor, hasString, page } from '../http/pagination.ts'
import { normalizePermissions } from '../auth/permissions.ts'
import { admitLogin } from '../auth/login-guard.ts'
import { conflict, notFound, validationProblem } from '../http/problem.ts'
import type { UsersTable } from '../storage/types.ts'

type TeamOps = 'createTeamUser' | 'listTeamUsers' | 'updateTeamUser' | 'deleteTeamUser' | 'updateAdminPassword'

/**
 * Emails sign in without naming a team, so they are unique on the whole server. A taken email
 * answers the same whichever team holds it.
 */
export const emailTaken = (email: string) => conflict(`The email ${email} is already registered on this server.`)

export function teamHandlers(s: Services): Pick<Handlers, TeamOps> {
  return {
    async createTeamUser(c, { body }, respond) {
      const admin = currentUser(c.get('user'))
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
        await commitWrite(s, c, async (trx) => {
          await trx.insertInto('users').values(row).execute()
          noteAudit(c, { created: toTeamUser(row) })
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw emailTaken(row.email)
        throw error
      }
      return respond(201, toTeamUser(row))
    },

    async listTeamUsers(c, { query }, respond) {
      const admin = currentUser(c.get('user'))
      const cursor = decodeCursor(query.cursor, hasString('e'))
      let q = s.db.selectFrom('users').selectAll().where('team_id', '=', admin.teamId).where('role', '=', 'user')
      if (cursor) q = q.where('email', '>', cursor.e)
      const rows = await q.orderBy('email').limit(query.limit + 1).execute()
      return respond(200, page(rows, query.limit, toTeamUser, (r) => ({ e: r.email })))
    },

    async updateTeamUser(c, { path, body }, respond) {
      const admin = currentUser(c.get('user'))
      const passwordHash = body.password === undefined ? undefined : await hashPassword(body.password, s.config.passwordIterations)
      const row = await commitWrite(s, c, async (trx) => {
        const old = await trx.selectFrom('users').select(['name', 'permissions'])
          .where('id', '=', path.id).where('team_id', '=', admin.teamId).where('role', '=', 'user').executeTakeFirst()
        if (old) {
          // Grants compared cell by cell as stored (normalised), so only a real change is listed.
          noteAudit(c, {
            before: { name: old.name },
            ...(body.permissions !== undefined ? { changes: { permissions: { from: normalizePermissions(JSON.parse(old.permissions)), to: normalizePermissions(body.permissions) } } } : {}),
          })
        }
        // Only the members sent are written (a password change cannot put back permissions revoked
        // meanwhile), and a new password revokes tokens by a counter incremented in SQL.
        const changes = {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.permissions !== undefined ? { permissions: JSON.stringify(normalizePermissions(body.permissions)) } : {}),
          ...(passwordHash !== undefined ? { password_hash: passwordHash } : {}),
        }
        const stored = Object.keys(changes).length === 0
          ? await trx.selectFrom('users').selectAll()
            .where('id', '=', path.id).where('team_id', '=', admin.teamId).where('role', '=', 'user').executeTakeFirst()
          : await trx.updateTable('users')
            .set((eb) => ({ ...changes, ...(passwordHash !== undefined ? { token_version: eb('token_version', '+', 1) } : {}) }))
            .where('id', '=', path.id).where('team_id', '=', admin.teamId).where('role', '=', 'user')
            .returningAll().executeTakeFirst()
        if (!stored) throw notFound(`No team user with id ${path.id}.`)
        return stored
      })
      return respond(200, toTeamUser(row))
    },

    async deleteTeamUser(c, { path }) {
      const admin = currentUser(c.get('user'))
      await commitWrite(s, c, async (trx) => {
        const gone = await trx.deleteFrom('users')
          .where('id', '=', path.id).where('team_id', '=', admin.teamId).where('role', '=', 'user').returning(['email', 'name']).executeTakeFirst()
        if (!gone) throw notFound(`No team user with id ${path.id}.`)
        noteAudit(c, { changes: removedChanges({ email: gone.email, name: gone.name }) })
      })
      return noContent()
    },

    async updateAdminPassword(c, { body }) {
      const admin = currentUser(c.get('user'))
      // Counted like a login, so a stolen token is no way around the limit on password guesses.
      const attempt = await admitLogin(s, c, admin.email)
      const row = await s.db.selectFrom('users').select('password_hash').where('id', '=', admin.id).executeTakeFirstOrThrow()
      if (!(await verifyPassword(body.currentPassword, row.password_hash))) {
        throw validationProblem([{ pointer: '/currentPassword', message: 'does not match the current password' }])
      }
      await s.loginLimiter.succeeded(attempt)
      // Compare-and-set: of two changes checked against the same password, only one lands.
      const passwordHash = await hashPassword(body.newPassword, s.config.passwordIterations)
      const updated = await commitWrite(s, c, (trx) => trx.updateTable('users')
        .set((eb) => ({ password_hash: passwordHash, token_version: eb('token_version', '+', 1) }))
        .where('id', '=', admin.id).where('password_hash', '=', row.password_hash).executeTakeFirst())
      if (Number(updated.numUpdatedRows) === 0) throw conflict('The password was changed by another request meanwhile; log in again and retry.')
      return noContent()
    },
  }
}
