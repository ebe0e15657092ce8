/**
 * @module API tokens: any team member creates them within their own grants; the admin lists and
 * revokes every token of the team, a team user their own. Tokens cannot manage tokens.
 */
import { apiTokenNameTaken, apiTokensPage, insertApiToken, revokeApiToken } from '../storage/accounts/api-tokens.ts'
import { noContent, type Handlers } from '../http/respond.ts'
import { timestamp } from '../core/time.ts'
import { noteAudit } from '../http/writes/audit-hook.ts'
import { commitWrite } from '../http/writes/write-unit.ts'
import { removedChanges } from '../audit/entry.ts'
import type { Schemas } from '../http/spec.ts'
import type { Services } from '../http/services.ts'
import { hashApiToken, newApiToken, refuseApiToken } from '../auth/api-tokens.ts'
import { randomId } from '../core/crypto.ts'
import { currentUser } from '../auth/auth-user.ts'
import { decodeCursor, hasString, page } from '../http/pagination.ts'
import { exceedingGrant, normalizePermissions } from '../auth/permissions.ts'
import { conflict, forbidden, notFound, validationProblem } from '../core/problem.ts'
import type { ApiTokensTable } from '../core/storage.ts'

type TokenOps = 'createApiToken' | 'listApiTokens' | 'revokeApiToken'

/** The longest lifetime an expiring token may ask for. */
const MAX_LIFETIME_MS = 10 * 366 * 24 * 60 * 60 * 1000

function toApiToken(row: ApiTokensTable): Schemas['ApiToken'] {
  return {
    id: row.id,
    name: row.name,
    permissions: normalizePermissions(JSON.parse(row.permissions)),
    createdBy: row.created_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
  }
}

/** `expiresAt` as stored: in the future and within the bound, else a 400 naming it. */
function expiry(s: Services, expiresAt: string | undefined): string | null {
  if (expiresAt === undefined) return null
  const at = new Date(expiresAt)
  const now = s.now().getTime()
  if (!(at.getTime() > now)) throw validationProblem([{ pointer: '/expiresAt', message: 'must be in the future' }])
  if (at.getTime() - now > MAX_LIFETIME_MS)
    throw validationProblem([{ pointer: '/expiresAt', message: 'must be at most 10 years ahead' }])
  return timestamp(at)
}

export function tokenHandlers(s: Services): Pick<Handlers, TokenOps> {
  return {
    async createApiToken(c, { body }, respond) {
      const user = currentUser(c.get('user'))
      refuseApiToken(user, 'create API tokens')
      const excess = exceedingGrant(body.permissions ?? {}, user.permissions)
      if (excess !== undefined) throw forbidden(`A token cannot hold more than its creator: you do not hold ${excess}.`)
      const token = newApiToken()
      const row: ApiTokensTable = {
        id: randomId('tok'),
        team_id: user.teamId,
        created_by: user.id,
        name: body.name,
        token_hash: await hashApiToken(token),
        permissions: JSON.stringify(normalizePermissions(body.permissions)),
        created_at: timestamp(s.now()),
        expires_at: expiry(s, body.expiresAt),
        last_used_at: null,
      }
      await commitWrite(s, c, async (trx) => {
        if (await apiTokenNameTaken(trx, user.teamId, body.name))
          throw conflict(`A token named ${body.name} already exists in this team; revoke it or choose another name.`)
        await insertApiToken(trx, row)
        noteAudit(c, { created: toApiToken(row) })
      })
      return respond(201, { ...toApiToken(row), token }, { 'cache-control': 'no-store' })
    },

    async listApiTokens(c, { query }, respond) {
      const user = currentUser(c.get('user'))
      refuseApiToken(user, 'list API tokens')
      const cursor = decodeCursor(query.cursor, hasString('c', 'i'))
      const rows = await apiTokensPage(
        s.db,
        user.teamId,
        user.role === 'admin' ? undefined : user.id,
        cursor,
        query.limit + 1,
      )
      return respond(
        200,
        page(rows, query.limit, toApiToken, (r) => ({ c: r.created_at, i: r.id })),
      )
    },

    async revokeApiToken(c, { path }) {
      const user = currentUser(c.get('user'))
      refuseApiToken(user, 'revoke API tokens')
      await commitWrite(s, c, async (trx) => {
        const gone = await revokeApiToken(trx, user.teamId, path.id, user.role === 'admin' ? undefined : user.id)
        if (!gone) throw notFound(`No API token with id ${path.id}.`)
        noteAudit(c, { changes: removedChanges({ name: gone.name, expiresAt: gone.expires_at }) })
      })
      return noContent()
    },
  }
}
