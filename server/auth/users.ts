/** @module The identity of a request: a user row as `AuthUser`, and the user a handler may rely on. */
import type { AuthUser } from '../http/context.ts'
import { normalizePermissions } from './permissions.ts'
import type { UsersTable } from '../storage/types.ts'

/** A user row as the identity of a request. */
export function toAuthUser(row: UsersTable): AuthUser {
  return {
    id: row.id,
    teamId: row.team_id,
    role: row.role,
    email: row.email,
    name: row.name,
    createdAt: row.created_at,
    permissions: normalizePermissions(JSON.parse(row.permissions), row.role === 'admin'),
  }
}

export function currentUser(user: AuthUser | undefined): AuthUser {
  if (!user) throw new Error('operation reached its handler without an authenticated user')
  return user
}
