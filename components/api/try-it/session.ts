/**
 * What Try it remembers for this browser session (sessionStorage), shared by every panel of
 * every page: where requests go, and the token for each place. A login on one page's panel
 * holds on the next page's.
 */
import { useSyncExternalStore } from 'react'

export type TargetKind = 'sandbox' | 'server'

export interface Credentials {
  token: string
  /** Who the token belongs to, as shown: an email, or "a pasted token". */
  who: string
}

export interface TryItSession {
  target: TargetKind
  /** The reader's server, e.g. http://127.0.0.1:8080 (no trailing slash). */
  serverUrl: string
  /** Keyed by `sandbox` or the server URL. */
  credentials: Record<string, Credentials>
  /** Set when the reader logs out of the sandbox: Try it then stops signing in as the demo admin. */
  sandboxLoggedOut?: boolean
}

const KEY = 'ferry-try-it'
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:8080'
const INITIAL: TryItSession = { target: 'sandbox', serverUrl: DEFAULT_SERVER_URL, credentials: {} }

function read(): TryItSession {
  try {
    const saved: unknown = JSON.parse(window.sessionStorage.getItem(KEY) ?? 'null')
    if (saved && typeof saved === 'object') {
      const s = saved as Partial<TryItSession>
      return {
        target: s.target === 'server' ? 'server' : 'sandbox',
        serverUrl: typeof s.serverUrl === 'string' && s.serverUrl ? s.serverUrl : DEFAULT_SERVER_URL,
        credentials: s.credentials && typeof s.credentials === 'object' ? s.credentials : {},
        sandboxLoggedOut: s.sandboxLoggedOut === true,
      }
    }
  } catch {
    // Unreadable or unavailable storage: start afresh.
  }
  return INITIAL
}

let current: TryItSession | undefined
const listeners = new Set<() => void>()

export function session(): TryItSession {
  current ??= read()
  return current
}

export function updateSession(change: (s: TryItSession) => TryItSession): void {
  current = change(session())
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify(current))
  } catch {
    // Without storage it holds for this page only.
  }
  listeners.forEach((listener) => listener())
}

export function useTryItSession(): TryItSession {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    session,
    () => INITIAL,
  )
}

/** The key credentials are kept under for the current target. */
export const credentialsKey = (s: TryItSession): string => (s.target === 'sandbox' ? 'sandbox' : s.serverUrl)
