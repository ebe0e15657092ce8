/** @module Team users and their permission matrix, and the admin's own password (admin only). */
import { noteAudit } from '../http/writes/audit-hook.ts'
import { commitWrite } from '../http/writes/write-unit.ts'
import { removedChanges } from '../audit/entry.ts'
import { noContent, type Handlers } from '../http/respond.ts'
import { timestamp } from '../core/time.ts'
import type { Services } from '../http/services.ts'
import { hashPassword, randomId, verifyPassword } from '../core/crypto.ts'
import { currentUser } from '../auth/auth-user.ts'
import { isUniqueViolation } from '../storage/dialect.ts'
import { toTeamUser } from './api-objects.ts'
import { decodeCursor, hasString, page } from '../http/pagination.ts'
import { normalizePermissions } from '../auth/permissions.ts'
import { admitLogin } from '../auth/login-guard.ts'
import { conflict, notFound, validationProblem } from '../core/problem.ts'
import type { UsersTable } from '../core/storage.ts'
import {
  deleteTeamUser,
  insertUser,
  replacePasswordHash,
  teamUser,
  teamUsersPage,
  updateTeamUser,
  userById,
} from '../storage/accounts/users.ts'

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
          await insertUser(trx, row)
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
      const rows = await teamUsersPage(s.db, admin.teamId, cursor?.e, query.limit + 1)
      return respond(
        200,
        page(rows, query.limit, toTeamUser, (r) => ({ e: r.email })),
      )
    },

    async updateTeamUser(c, { path, body }, respond) {
      const admin = currentUser(c.get('user'))
      const passwordHash =
        body.password === undefined ? undefined : await hashPassword(body.password, s.config.passwordIterations)
      const row = await commitWrite(s, c, async (trx) => {
        const old = await teamUser(trx, admin.teamId, path.id)
        if (old) {
          // Grants compared cell by cell as stored (normalised), so only a real change is listed.
          noteAudit(c, {
            before: { name: old.name },
            ...(body.permissions !== undefined
              ? {
                  changes: {
                    permissions: {
                      from: normalizePermissions(JSON.parse(old.permissions)),
                      to: normalizePermissions(body.permissions),
                    },
                  },
                }
              : {}),
          })
        }
        // Only the members sent are written (a password change cannot put back permissions revoked
        // meanwhile), and a new password revokes tokens by a counter incremented in SQL.
        const changes = {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.permissions !== undefined
            ? { permissions: JSON.stringify(normalizePermissions(body.permissions)) }
            : {}),
          ...(passwordHash !== undefined ? { password_hash: passwordHash } : {}),
        }
        const stored =
          Object.keys(changes).length === 0 ? old : await updateTeamUser(trx, admin.teamId, path.id, changes)
        if (!stored) throw notFound(`No team user with id ${path.id}.`)
        return stored
      })
      return respond(200, toTeamUser(row))
    },

    async deleteTeamUser(c, { path }) {
      const admin = currentUser(c.get('user'))
      await commitWrite(s, c, async (trx) => {
        const gone = await deleteTeamUser(trx, admin.teamId, path.id)
        if (!gone) throw notFound(`No team user with id ${path.id}.`)
        noteAudit(c, { changes: removedChanges({ email: gone.email, name: gone.name }) })
      })
      return noContent()
    },

    async updateAdminPassword(c, { body }) {
      const admin = currentUser(c.get('user'))
      // Counted like a login, so a stolen token is no way around the limit on password guesses.
      const attempt = await admitLogin(s.loginLimiter, { email: admin.email, address: s.clientIp(c) })
      const row = await userById(s.db, admin.id)
      if (!row) throw notFound(`No user with id ${admin.id}.`)
      if (!(await verifyPassword(body.currentPassword, row.password_hash))) {
        throw validationProblem([{ pointer: '/currentPassword', message: 'does not match the current password' }])
      }
      await s.loginLimiter.succeeded(attempt)
      // Compare-and-set: of two changes checked against the same password, only one lands.
      const passwordHash = await hashPassword(body.newPassword, s.config.passwordIterations)
      const updated = await commitWrite(s, c, (trx) =>
        replacePasswordHash(trx, admin.id, row.password_hash, passwordHash, true),
      )
      if (!updated) throw conflict('The password was changed by another request meanwhile; log in again and retry.')
      return noContent()
    },
  }
}
