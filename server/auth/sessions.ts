/** @module Bearer tokens (jose, HS256, 24 h) and resolving the caller of a request (JWT or API token). */
import { userById } from '../storage/accounts/users.ts'
import { SignJWT, jwtVerify } from 'jose'
import type { AuthDeps, AuthUser } from './auth-user.ts'
import { timestamp } from '../core/time.ts'
import { toAuthUser } from './users.ts'
import { authenticateApiToken, isApiToken } from './api-tokens.ts'
import { HttpProblem } from '../core/problem.ts'
import { hmacKey } from '../core/crypto.ts'
import type { UsersTable } from '../core/storage.ts'

export const TOKEN_TTL_SECONDS = 24 * 60 * 60
const encoder = new TextEncoder()

export async function issueToken(s: Omit<AuthDeps, 'db'>, user: Pick<UsersTable, 'id' | 'team_id' | 'token_version'>) {
  const now = Math.floor(s.now().getTime() / 1000)
  const exp = now + TOKEN_TTL_SECONDS
  const token = await new SignJWT({ team: user.team_id, tv: user.token_version })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuedAt(now)
    .setExpirationTime(exp)
    .sign(encoder.encode(s.config.jwtSecret))
  return { token, tokenType: 'Bearer' as const, expiresAt: timestamp(new Date(exp * 1000)) }
}

const unauthorized = (detail: string) => new HttpProblem('unauthorized', detail)

/**
 * Resolves `Authorization: Bearer <token>` to its user. A JWT's user must still exist and the
 * token must carry their current token version (a password change revokes older tokens); an API
 * token (`ferry_…`) is looked up by its hash instead.
 */
export async function authenticate(s: AuthDeps, header: string | undefined): Promise<AuthUser> {
  if (!header) throw unauthorized('This operation needs a bearer token.')
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  if (!match?.[1]) throw unauthorized('The Authorization header must be "Bearer <token>".')
  if (isApiToken(match[1])) return authenticateApiToken(s, match[1])
  let sub: string | undefined
  let tv: unknown
  try {
    // A key imported once: given the raw secret, jose imports it on every verify.
    const { payload } = await jwtVerify(match[1], await hmacKey(s.config.jwtSecret, 'verify'), {
      algorithms: ['HS256'],
      // Without it a signed token lacking `exp` would never expire.
      requiredClaims: ['exp'],
      currentDate: s.now(),
    })
    sub = payload.sub
    tv = payload.tv
  } catch {
    throw unauthorized('The bearer token is invalid or has expired.')
  }
  const row = sub ? await userById(s.db, sub) : undefined
  if (!row || row.token_version !== tv) throw unauthorized('The bearer token is no longer valid; log in again.')
  return toAuthUser(row)
}
