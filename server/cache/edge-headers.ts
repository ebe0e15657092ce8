/**
 * @module Whether a CDN or proxy may keep an update answer, and for how long: `Cache-Control`,
 * a strong `ETag`, and the surrogate keys (`Surrogate-Key`, `Cache-Tag`) a purge names.
 * Only answers that every device gets alike are shared; an answer bucketed per device, or
 * carrying a private app's signed links, stays `private, no-store`.
 */
import type { Answer } from '../protocols/answer.ts'

/** `FERRY_UPDATE_CACHE_SECONDS` and `FERRY_UPDATE_STALE_SECONDS`; `cacheSeconds: 0` keeps every answer `no-store`. */
export interface EdgeCaching {
  cacheSeconds: number
  staleSeconds: number
}

export const EDGE_CACHING_OFF: EdgeCaching = { cacheSeconds: 0, staleSeconds: 0 }

/** A surrogate key is one token: anything but letters, digits, `.`, `_` and `-` is percent-encoded. */
const token = (part: string) =>
  part.replace(/[^A-Za-z0-9._-]/g, (ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, '0')}`)

/** The key every shared answer of `app` carries: a write to the app purges it. */
export const appSurrogateKey = (app: string) => `ferry-app-${token(app)}`

/** The key of one channel/platform/arch target's answers. */
export const targetSurrogateKey = (app: string, channel: string, platform: string, arch: string) =>
  `ferry-target-${[app, channel, platform, arch].map(token).join('.')}`

const encoder = new TextEncoder()

/** A strong validator over what a cache would send: status, type and body. */
export async function answerETag(a: Answer): Promise<string> {
  const bytes = encoder.encode(`${a.status}\n${a.headers['content-type'] ?? ''}\n${a.body}`)
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
  let hex = ''
  for (const b of digest.subarray(0, 16)) hex += b.toString(16).padStart(2, '0')
  return `"${hex}"`
}

/**
 * Marks `a` shared: an ETag (not on redirects, which have no body to validate) and the
 * surrogate keys. Done once when the answer is computed, so cached copies keep them.
 */
export async function sharedAnswer(a: Answer, keys: string[]): Promise<Answer> {
  const headers: Record<string, string> = { ...a.headers, 'surrogate-key': keys.join(' '), 'cache-tag': keys.join(',') }
  if (a.status !== 302) headers.etag = await answerETag(a)
  return { ...a, headers, shared: true }
}

/**
 * The `Cache-Control` of a shared answer at `now`: the TTL never runs past `until` (a ramp's next
 * step), stale serving included; `no-store` when caching is off or the step is under a second away.
 */
export function sharedCacheControl(edge: EdgeCaching, now: number, until: number | undefined): string {
  const left = until === undefined ? Infinity : Math.floor((until - now) / 1000)
  const maxAge = Math.min(edge.cacheSeconds, left)
  if (maxAge < 1) return 'no-store'
  const stale = Math.min(edge.staleSeconds, left - maxAge)
  return stale >= 1 ? `public, max-age=${maxAge}, stale-while-revalidate=${stale}` : `public, max-age=${maxAge}`
}

/** Whether `If-None-Match` names `etag` (a list, weak or strong, or `*`). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string | undefined): boolean {
  if (!ifNoneMatch || !etag) return false
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim()
    return tag === '*' || tag === etag || tag === `W/${etag}`
  })
}

/**
 * What `edgeAnswer` made of a shared answer for its last `Cache-Control`: a cached answer is sent
 * many times with the same one, and the same objects let the security headers and the Node lane's
 * `Content-Length` be added once (both are kept per headers object).
 */
const sentAs = new WeakMap<Answer, { cacheControl: string; full: Answer; notModified: Answer }>()

/**
 * The answer as sent at `now`: a shared one gets its public `Cache-Control` (and `304` when the
 * client already holds it); any other stays as rendered (`no-store`). The result is shared
 * between calls: never mutate it.
 */
export function edgeAnswer(
  a: Answer,
  edge: EdgeCaching,
  now: number,
  until: number | undefined,
  ifNoneMatch: string | undefined,
): Answer {
  if (!a.shared) return a
  const cacheControl = sharedCacheControl(edge, now, until)
  if (cacheControl === 'no-store') {
    const { 'surrogate-key': _k, 'cache-tag': _t, etag: _e, ...headers } = a.headers
    return { ...a, headers: { ...headers, 'cache-control': 'no-store' } }
  }
  let sent = sentAs.get(a)
  if (sent?.cacheControl !== cacheControl) {
    const headers: Record<string, string> = { ...a.headers, 'cache-control': cacheControl }
    const { 'content-type': _c, ...kept } = headers
    sent = { cacheControl, full: { ...a, headers }, notModified: { ...a, status: 304, headers: kept, body: '' } }
    sentAs.set(a, sent)
  }
  return etagMatches(ifNoneMatch, sent.full.headers.etag) ? sent.notModified : sent.full
}
