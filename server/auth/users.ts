/** @module A user row as the identity of a request. */
import type { AuthUser } from './auth-user.ts'
import { normalizePermissions } from './permissions.ts'
import type { UsersTable } from '../core/storage.ts'

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
