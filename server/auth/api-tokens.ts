/**
 * @module API tokens for machines: `ferry_<random>`, shown once, stored as a SHA-256 hash. A
 * token acts as its creator limited to its own grants, never as the admin, and never beyond
 * what the creator holds now (a creator who loses a grant or is removed takes it from the token).
 */
import { apiTokenWithCreator, stampApiTokenUse } from '../storage/accounts/api-tokens.ts'
import type { AuthDeps, AuthUser } from './auth-user.ts'
import { timestamp } from '../core/time.ts'
import { digestHex, randomId } from '../core/crypto.ts'
import { intersectPermissions } from './permissions.ts'
import { HttpProblem, forbidden } from '../core/problem.ts'
import { toAuthUser } from './users.ts'

/** Tells API tokens from JWTs without trying to verify them, and lets secret scanners find them. */
export const API_TOKEN_PREFIX = 'ferry_'
/** 32 base62 characters: about 190 bits, so a fast unsalted hash is enough to store it. */
const SECRET_LENGTH = 32
/** `lastUsedAt` is written at most this often per token, not on every request. */
export const LAST_USED_RESOLUTION_MS = 60_000

export const isApiToken = (bearer: string) => bearer.startsWith(API_TOKEN_PREFIX)

export function newApiToken(): string {
  return randomId(API_TOKEN_PREFIX.slice(0, -1), SECRET_LENGTH)
}

export const hashApiToken = (token: string) => digestHex('SHA-256', token)

const unauthorized = (detail: string) => new HttpProblem('unauthorized', detail)

/** Resolves an API token to the identity it acts as: its creator, role `user`, the intersected grants. */
export async function authenticateApiToken(s: Omit<AuthDeps, 'config'>, token: string): Promise<AuthUser> {
  const row = await apiTokenWithCreator(s.db, await hashApiToken(token))
  if (!row)
    throw unauthorized('The API token is not known: it was revoked, its creator was removed, or it was mistyped.')
  const now = s.now()
  if (row.expires_at !== null && row.expires_at <= timestamp(now)) {
    throw unauthorized(`The API token expired at ${row.expires_at}; create a new one.`)
  }
  // Tokens are used by CI on every request; one write per minute per token is enough to tell
  // which tokens are still in use, and spares the database a write per request.
  const stale = timestamp(new Date(now.getTime() - LAST_USED_RESOLUTION_MS))
  if (row.last_used_at === null || row.last_used_at <= stale) {
    await stampApiTokenUse(s.db, row.token_id, timestamp(now))
  }
  const creator = toAuthUser(row)
  return {
    ...creator,
    role: 'user',
    permissions: intersectPermissions(JSON.parse(row.token_permissions), creator.permissions),
    tokenId: row.token_id,
    tokenName: row.token_name,
  }
}

/** Token management and the admin's operations need a person who logged in, not a token. */
export function refuseApiToken(user: AuthUser, what: string): void {
  if (user.tokenId !== undefined) throw forbidden(`An API token cannot ${what}; log in with a password to do it.`)
}
