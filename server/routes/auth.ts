/** @module Signup (creates a team and its admin) and login. */
import { issueToken } from '../auth/sessions.ts'
import { type Handlers } from '../http/respond.ts'
import { timestamp } from '../core/time.ts'
import { noteAudit } from '../http/writes/audit-hook.ts'
import { commitWrite } from '../http/writes/write-unit.ts'
import type { Services } from '../http/services.ts'
import { hashPassword, randomId, verifyPassword } from '../core/crypto.ts'
import { admitLogin, loginSucceeded } from '../auth/login-guard.ts'
import { isUniqueViolation } from '../storage/dialect.ts'
import { toTeam, toUser } from './api-objects.ts'
import { HttpProblem } from '../core/problem.ts'
import type { UsersTable } from '../core/storage.ts'
import { insertTeam, teamById, userByEmail } from '../storage/accounts/users.ts'
import { emailTaken } from './team.ts'

/** Responses that carry a token must not be kept by any cache. */
const NO_STORE = { 'cache-control': 'no-store' }

export function authHandlers(s: Services): Pick<Handlers, 'signup' | 'login'> {
  let dummyHash: Promise<string> | undefined

  return {
    async signup(c, { body }, respond) {
      const now = timestamp(s.now())
      const team = { id: randomId('tm'), name: body.teamName, created_at: now }
      const user: UsersTable = {
        id: randomId('usr'),
        team_id: team.id,
        email: body.email.toLowerCase(),
        name: body.name,
        role: 'admin',
        password_hash: await hashPassword(body.password, s.config.passwordIterations),
        permissions: '{}',
        token_version: 0,
        created_at: now,
      }
      try {
        await commitWrite(s, c, async (trx) => {
          await insertTeam(trx, team, user)
          // The entry's actor is the new admin (there was no caller).
          noteAudit(c, { created: { user: toUser(user), team: toTeam(team) } })
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw emailTaken(user.email)
        throw error
      }
      return respond(201, { ...(await issueToken(s, user)), user: toUser(user), team: toTeam(team) }, NO_STORE)
    },

    async login(c, { body }, respond) {
      const email = body.email.toLowerCase()
      const attempt = await admitLogin(s.loginLimiter, { email, address: s.clientIp(c) })
      const user = await userByEmail(s.db, email)
      // Unknown emails cost the same PBKDF2 work as wrong passwords.
      dummyHash ??= hashPassword('not-a-password', s.config.passwordIterations)
      const ok = await verifyPassword(body.password, user?.password_hash ?? (await dummyHash))
      if (!user || !ok) throw new HttpProblem('invalid-credentials', 'The email or password is wrong.')
      await loginSucceeded(s, attempt, user, body.password)
      const team = await teamById(s.db, user.team_id)
      if (!team) throw new Error(`user ${user.id} has no team ${user.team_id}`)
      return respond(200, { ...(await issueToken(s, user)), user: toUser(user), team: toTeam(team) }, NO_STORE)
    },
  }
}
