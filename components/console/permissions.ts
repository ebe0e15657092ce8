import type { Permissions, WhoAmI } from '../demo/sandbox-api'

export type Area = keyof Permissions
export type Action = 'create' | 'edit' | 'delete' | 'upload' | 'download'

export const APP_ACTIONS = ['create', 'edit', 'delete', 'upload', 'download'] as const
export const CATALOG_ACTIONS = ['create', 'edit', 'delete'] as const

function grant(permissions: Permissions, area: Area, action: Action) {
  if (area === 'apps') return permissions.apps?.[action]
  return action === 'upload' || action === 'download' ? undefined : permissions[area]?.[action]
}

/**
 * Whether the API would allow this to the signed-in user (from GET /v1/whoami), so the console
 * can leave out what it would refuse. The API still checks every request.
 */
export function may(me: WhoAmI | undefined, area: Area, action: Action, target?: string): boolean {
  if (!me) return false
  if (me.user.role === 'admin') return true
  const g = grant(me.permissions, area, action)
  if (!g?.enabled) return false
  return !g.allowed || target === undefined || g.allowed.includes(target)
}

/** A grant in words: "all apps", "harbor-notes, tidewater", or "no". */
export function grantText(permissions: Permissions, area: Area, action: Action): string {
  const g = grant(permissions, area, action)
  if (!g?.enabled) return 'no'
  if (!g.allowed) return area === 'apps' ? 'all apps' : 'all'
  return g.allowed.length ? g.allowed.join(', ') : 'none listed'
}
