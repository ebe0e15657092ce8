/**
 * @module Headers every response gets, whatever produced it (JSON, problems, downloads, update
 * feeds, redirects, 404s): security headers suited to an API that serves no HTML, then CORS.
 *
 * Responses built from `withSecurityHeaders` (JSON, problems, update answers) already carry them
 * and are marked with `secured`; the app's middleware sets them on every other response. Reading
 * `Response.headers` makes @hono/node-server build a Headers object it otherwise skips, which
 * costs the cached update check about a sixth of its CPU time.
 */
import type { Ctx } from './context.ts'
import type { Cors } from './cors.ts'

/**
 * No Cross-Origin-Resource-Policy: Ferry has no cookies, so a cross-origin no-cors load gets only
 * what a direct request gets, while CORP has blocked downloads before (crbug.com/952834).
 * No Strict-Transport-Security: TLS ends at the reverse proxy, which knows whether it is https.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
}
const SECURITY_ENTRIES = Object.entries(SECURITY_HEADERS)

const merged = new WeakMap<Readonly<Record<string, string>>, Record<string, string>>()

/** `headers` followed by the security headers; one object per `headers` object (constants, cached answers). */
export function withSecurityHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  let all = merged.get(headers)
  if (!all) {
    all = { ...headers, ...SECURITY_HEADERS }
    merged.set(headers, all)
  }
  return all
}

/** A property rather than a WeakSet: a WeakSet entry per response costs the garbage collector more. */
const SECURED = Symbol('security headers included')
type Marked = Response & { [SECURED]?: true }

/** Marks a response whose headers came from `withSecurityHeaders`. */
export function secured(response: Response): Response {
  (response as Marked)[SECURED] = true
  return response
}

/** Adds the security headers (unless `secured`) and, for actual requests, the CORS headers to `c.res`. */
export function responseHeaders(cors: Cors, origin: (c: Ctx) => string | undefined): (c: Ctx) => void {
  return (c) => {
    if (!(c.res as Marked)[SECURED]) {
      const headers = c.res.headers
      for (const [name, value] of SECURITY_ENTRIES) headers.set(name, value)
    }
    if (cors.enabled && c.req.method !== 'OPTIONS') cors.decorate(c.res.headers, origin(c))
  }
}
