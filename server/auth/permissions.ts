/** @module The permission matrix: normalising grants and deciding who may do what. */
import type { AuthUser } from './auth-user.ts'
import type { components } from '../../contract/generated/api.ts'
import type { PermissionName } from '../../contract/operation-spec.ts'

type Schemas = components['schemas']

type Permissions = Schemas['Permissions']
type Grant = Schemas['PermissionGrant']

export const APP_ACTIONS = ['create', 'edit', 'delete', 'upload', 'download'] as const
export const CATALOG_ACTIONS = ['create', 'edit', 'delete'] as const

type Full = {
  apps: Record<(typeof APP_ACTIONS)[number], Grant>
  channels: Record<(typeof CATALOG_ACTIONS)[number], Grant>
  platforms: Record<(typeof CATALOG_ACTIONS)[number], Grant>
  archs: Record<(typeof CATALOG_ACTIONS)[number], Grant>
}

function grant(g: Grant | undefined, all: boolean): Grant {
  if (all) return { enabled: true }
  if (!g?.enabled) return { enabled: false }
  return g.allowed ? { enabled: true, allowed: [...new Set(g.allowed)] } : { enabled: true }
}

/** Fills every cell of the matrix: missing grants are not given. */
export function normalizePermissions(p: Permissions | undefined, all = false): Full {
  const section = <A extends string>(actions: readonly A[], src: Partial<Record<A, Grant>> | undefined) =>
    Object.fromEntries(actions.map((a) => [a, grant(src?.[a], all)])) as Record<A, Grant>
  return {
    apps: section(APP_ACTIONS, p?.apps),
    channels: section(CATALOG_ACTIONS, p?.channels),
    platforms: section(CATALOG_ACTIONS, p?.platforms),
    archs: section(CATALOG_ACTIONS, p?.archs),
  }
}

export function isMatrixPermission(
  p: PermissionName,
): p is Exclude<PermissionName, 'public' | 'signupKey' | 'authenticated' | 'admin'> {
  return p.includes('.')
}

function cell(user: AuthUser, permission: string): Grant | undefined {
  const [area, action] = permission.split('.') as [keyof Full, string]
  return (user.permissions[area] as Record<string, Grant> | undefined)?.[action]
}

/** Whether the user holds the permission at all (for any resource). */
export function holds(user: AuthUser, permission: string): boolean {
  return user.role === 'admin' || Boolean(cell(user, permission)?.enabled)
}

/**
 * Whether the user holds the permission for this resource (app slug or catalog id).
 * Without a resource (creating a catalog entry, whose id does not exist yet) the grant's
 * allowed list does not apply.
 */
export function allows(user: AuthUser, permission: string, resource?: string): boolean {
  if (user.role === 'admin') return true
  const g = cell(user, permission)
  if (!g?.enabled) return false
  return !g.allowed || resource === undefined || g.allowed.includes(resource)
}

/**
 * The app slugs a user may see, or `null` for all. A team user is limited only when every
 * app grant they hold carries an allowed list; then they see the union of those lists.
 */
export function visibleApps(user: AuthUser): Set<string> | null {
  if (user.role === 'admin') return null
  const grants = Object.values(user.permissions.apps ?? {}).filter((g) => g?.enabled)
  if (grants.length === 0 || grants.some((g) => !g.allowed)) return null
  return new Set(grants.flatMap((g) => g.allowed ?? []))
}

/** A grant both sides hold: the narrower allowed list, or not given when no resource is left. */
function intersectGrant(a: Grant, b: Grant): Grant {
  if (!a.enabled || !b.enabled) return { enabled: false }
  if (!a.allowed || !b.allowed) {
    const allowed = a.allowed ?? b.allowed
    return allowed ? { enabled: true, allowed } : { enabled: true }
  }
  const other = new Set(b.allowed)
  const allowed = a.allowed.filter((r) => other.has(r))
  return allowed.length > 0 ? { enabled: true, allowed } : { enabled: false }
}

/** Each cell of two matrices side by side, named like the permissions (`apps.upload`). */
function cellPairs(a: Permissions, b: Permissions): Array<[string, Grant, Grant]> {
  const x = normalizePermissions(a)
  const y = normalizePermissions(b)
  const section = <A extends string>(area: string, actions: readonly A[], p: Record<A, Grant>, q: Record<A, Grant>) =>
    actions.map((action): [string, Grant, Grant] => [`${area}.${action}`, p[action], q[action]])
  return [
    ...section('apps', APP_ACTIONS, x.apps, y.apps),
    ...section('channels', CATALOG_ACTIONS, x.channels, y.channels),
    ...section('platforms', CATALOG_ACTIONS, x.platforms, y.platforms),
    ...section('archs', CATALOG_ACTIONS, x.archs, y.archs),
  ]
}

/** What both matrices give: an API token's effective permissions are its own ∩ its creator's current ones. */
export function intersectPermissions(a: Permissions, b: Permissions): Full {
  const p: Record<string, Record<string, Grant>> = {}
  for (const [name, x, y] of cellPairs(a, b)) {
    const [area, action] = name.split('.') as [string, string]
    p[area] = { ...p[area], [action]: intersectGrant(x, y) }
  }
  return normalizePermissions(p)
}

/**
 * The first grant of `wanted` that `held` does not cover, named for a problem detail
 * (`apps.upload`, `apps.upload for harbor-notes`), or `undefined` when `held` covers them all.
 */
export function exceedingGrant(wanted: Permissions, held: Permissions): string | undefined {
  for (const [name, w, h] of cellPairs(wanted, held)) {
    if (!w.enabled) continue
    if (!h.enabled) return name
    if (!h.allowed) continue
    if (!w.allowed) return `${name} without an allowed list (you hold it for ${h.allowed.join(', ') || 'nothing'})`
    const missing = w.allowed.find((r) => !h.allowed?.includes(r))
    if (missing !== undefined) return `${name} for ${missing}`
  }
  return undefined
}
