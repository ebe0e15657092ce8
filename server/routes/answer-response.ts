/**
 * @module An update answer, cached or fresh, as the response sent: shared with CDNs when every
 * device gets it alike, with the `Cache-Control` of the moment (or `304`), and the security headers.
 */
import { appSurrogateKey, edgeAnswer, sharedAnswer, targetSurrogateKey } from '../cache/edge-headers.ts'
import { secured, withSecurityHeaders } from '../http/security-headers.ts'
import type { Services } from '../http/services.ts'
import type { Answer } from '../protocols/answer.ts'

/** The body sent: none for `204`, `302` and `304`. */
export const sentBody = (a: Answer): string | null =>
  a.status === 204 || a.status === 302 || a.status === 304 ? null : a.body

export function toResponse(a: Answer): Response {
  return secured(
    new Response(sentBody(a), {
      status: a.status,
      headers: withSecurityHeaders(a.headers),
    }),
  )
}

/**
 * `a` marked for CDNs when `shareable` (every device gets it alike, and the app is public: a
 * private one's answers carry signed links) and edge caching is on; else `a` as it is.
 */
export function shareAnswer(
  s: Pick<Services, 'config'>,
  a: Answer,
  shareable: boolean,
  target: { slug: string; channel: string; platform: string; arch: string },
): Answer | Promise<Answer> {
  if (!shareable || s.config.edgeCaching.cacheSeconds <= 0) return a
  const { slug, channel, platform, arch } = target
  return sharedAnswer(a, [appSurrogateKey(slug), targetSurrogateKey(slug, channel, platform, arch)])
}

/** The answer as sent now: the `Cache-Control` of this moment (until `until`), or `304` when the client holds it. */
export const answerAsSent = (
  s: Pick<Services, 'config' | 'now'>,
  a: Answer,
  until: number | undefined,
  ifNoneMatch: string | undefined,
): Answer => edgeAnswer(a, s.config.edgeCaching, s.now().getTime(), until, ifNoneMatch)

/** `answerAsSent` as a response. */
export const sendAnswer = (
  s: Pick<Services, 'config' | 'now'>,
  a: Answer,
  until: number | undefined,
  ifNoneMatch: string | undefined,
): Response => toResponse(answerAsSent(s, a, until, ifNoneMatch))
