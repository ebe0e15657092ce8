/**
 * @module Security headers suited to an API that serves no HTML. Responses built from
 * `withSecurityHeaders` (JSON, problems, update answers) already carry them and are marked with
 * `secured`; the app's middleware (`response-headers.ts`) sets them on every other response.
 */

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
export const SECURITY_ENTRIES = Object.entries(SECURITY_HEADERS)

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
export const SECURED = Symbol('security headers included')
export type Marked = Response & { [SECURED]?: true }

/** Marks a response whose headers came from `withSecurityHeaders`. */
export function secured(response: Response): Response {
  ;(response as Marked)[SECURED] = true
  return response
}
