/** @module An update answer, cached or fresh, as the response sent. */
import { secured, withSecurityHeaders } from '../http/security-headers.ts'
import type { Answer } from '../protocols/answer.ts'

export function toResponse(a: Answer): Response {
  return secured(
    new Response(a.status === 204 || a.status === 302 || a.status === 304 ? null : a.body, {
      status: a.status,
      headers: withSecurityHeaders(a.headers),
    }),
  )
}
