/**
 * @module CORS: which browser origins may call the API (`FERRY_CORS_ORIGINS`), the answers to
 * preflights, and the headers of actual responses. Ferry never uses cookies, so credentials are
 * never allowed; a cross-origin page still needs a bearer token for anything but public endpoints.
 */
import { SECURITY_HEADERS, secured } from './security-headers.ts'
import type { OperationSpec } from './spec.ts'

/** Exact origins (`https://admin.example.com`), `'*'` (any origin) or `[]` (none: no CORS headers). */
export type CorsOrigins = '*' | readonly string[]

/** Request headers a cross-origin caller may send besides the CORS-safelisted ones. */
const BASE_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'Range', 'X-Ferry-Signup-Key']
/** Response headers a cross-origin caller may read besides the CORS-safelisted ones. */
const EXPOSED_HEADERS =
  'Accept-Ranges, Content-Disposition, Content-Range, Digest, Location, Retry-After, WWW-Authenticate'
/** How long browsers may reuse a preflight's answer (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = '3600'

export interface Cors {
  /** False when no origin is allowed: actual responses need nothing then. */
  readonly enabled: boolean
  /** Adds the CORS headers of an actual (non-preflight) response for the request's `Origin`. */
  decorate(headers: Headers, origin: string | undefined): void
  /** The 204 answer to `OPTIONS` on a path of the contract; `undefined` for other paths (a 404 then). */
  preflight(path: string, origin: string | undefined): Response | undefined
}

/**
 * Each path of the contract as a pattern, with its methods (`GET, PATCH, DELETE`). Matched here
 * rather than registered as OPTIONS routes: those made the router slower for every request.
 */
function methodsByPath(operations: readonly OperationSpec[]): Array<[RegExp, string]> {
  const byPath = new Map<string, string[]>()
  for (const op of operations) {
    const methods = byPath.get(op.path) ?? []
    methods.push(op.method.toUpperCase())
    byPath.set(op.path, methods)
  }
  const pattern = (template: string) =>
    new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`)
  return [...byPath].map(([template, methods]) => [pattern(template), methods.join(', ')])
}

export function createCors(origins: CorsOrigins, operations: readonly OperationSpec[]): Cors {
  const any = origins === '*'
  const allowed = new Set(any ? [] : origins)
  const enabled = any || allowed.size > 0
  const headerParams = operations.flatMap((op) => op.parameters.filter((p) => p.in === 'header').map((p) => p.name))
  const requestHeaders = [...new Set([...BASE_REQUEST_HEADERS, ...headerParams].map((h) => h.toLowerCase()))].join(', ')
  /** The `Access-Control-Allow-Origin` value for this origin, or `undefined` when it is not allowed. */
  const allowOrigin = (origin: string | undefined) =>
    any ? '*' : origin !== undefined && allowed.has(origin) ? origin : undefined
  const paths = methodsByPath(operations)

  return {
    enabled,
    decorate(headers, origin) {
      if (!enabled) return
      // With a list the answer depends on Origin, also for requests without one (a shared cache
      // must not hand that answer to a listed origin).
      if (!any) headers.append('vary', 'Origin')
      const value = allowOrigin(origin)
      if (value === undefined) return
      headers.set('access-control-allow-origin', value)
      headers.set('access-control-expose-headers', EXPOSED_HEADERS)
    },
    preflight(path, origin) {
      const methods = paths.find(([pattern]) => pattern.test(path))?.[1]
      if (methods === undefined) return undefined
      const headers: Record<string, string> = { allow: `${methods}, OPTIONS`, ...SECURITY_HEADERS }
      if (enabled && !any) headers.vary = 'Origin'
      const value = allowOrigin(origin)
      if (value !== undefined) {
        headers['access-control-allow-origin'] = value
        headers['access-control-allow-methods'] = methods
        headers['access-control-allow-headers'] = requestHeaders
        headers['access-control-max-age'] = PREFLIGHT_MAX_AGE_SECONDS
      }
      return secured(new Response(null, { status: 204, headers }))
    },
  }
}
