/** @module Who a request acts as, and the user a handler behind an authenticated gate may rely on. */
import type { Db } from '../core/storage.ts'
import type { components } from '../../contract/generated/api.ts'

/** What resolving and issuing tokens needs of the app: the database, the clock and the signing key. */
export interface AuthDeps {
  db: Db
  now: () => Date
  config: { jwtSecret: string }
}

export interface AuthUser {
  id: string
  teamId: string
  role: 'admin' | 'user'
  email: string
  name: string
  createdAt: string
  permissions: components['schemas']['Permissions']
  /** Set when the request came with an API token (server/auth/api-tokens.ts): its id. */
  tokenId?: string
  /** With `tokenId`: the token's name, for the audit log. */
  tokenName?: string
}

export function currentUser(user: AuthUser | undefined): AuthUser {
  if (!user) throw new Error('operation reached its handler without an authenticated user')
  return user
}
