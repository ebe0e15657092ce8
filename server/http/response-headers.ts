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
import { SECURED, SECURITY_ENTRIES, type Marked } from './security-headers.ts'

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
