import type { components } from '../../contract/generated/api.ts'

export type Session = components['schemas']['Session']

/**
 * The console's session lives in this tab's sessionStorage, never in localStorage or a cookie:
 * it goes with the tab, and no request carries it unless the console adds the header (no CSRF).
 */
const KEY = 'ferry.console.session'

function isSession(value: unknown): value is Session {
  if (typeof value !== 'object' || value === null) return false
  return 'token' in value && typeof value.token === 'string' && 'user' in value && typeof value.user === 'object'
}

export function loadSession(): Session | undefined {
  try {
    const raw = sessionStorage.getItem(KEY)
    const value: unknown = raw ? JSON.parse(raw) : undefined
    return isSession(value) ? value : undefined
  } catch {
    return undefined
  }
}

export function saveSession(session: Session | undefined): void {
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session))
  else sessionStorage.removeItem(KEY)
}
