/**
 * @module The origin of the absolute URLs an answer carries: `FERRY_PUBLIC_URL`, or the request's
 * scheme and Host when the host rule (`host-rule.ts`) allows it. Every link, redirect and cache
 * key is built from `requestBase`/`baseUrl`, and the app refuses other Hosts before routing, so
 * that no cache in front can keep links to a name a client chose.
 */
import { allowedHost, misdirected, type HostRule } from './host-rule.ts'
import type { HttpProblem } from '../core/problem.ts'
import type { Services } from './services.ts'

/** The host of an absolute URL (`scheme://host/...`), as written (cheaper than `new URL()`). */
function hostOf(url: string): { scheme: string; host: string } {
  const start = url.indexOf('//') + 2
  const slash = url.indexOf('/', start)
  return { scheme: url.slice(0, start - 3), host: slash === -1 ? url.slice(start) : url.slice(start, slash) }
}

/** The problem for a request to `requestUrl` whose Host the rule refuses; `undefined` when it is allowed. */
export function refusedHost(rule: HostRule, requestUrl: string): HttpProblem | undefined {
  if (rule.kind === 'any') return undefined
  const { host } = hostOf(requestUrl)
  return allowedHost(rule, host) === undefined ? misdirected(rule, host) : undefined
}

/**
 * Base of absolute URLs for a request to `requestUrl` (`scheme://host` and anything after): the
 * configured public URL, or the request's scheme and normalised Host; `undefined` when the Host
 * is refused.
 */
export function requestBase(s: Services, requestUrl: string): string | undefined {
  if (s.config.publicUrl) return s.config.publicUrl
  const { scheme, host } = hostOf(requestUrl)
  const allowed = allowedHost(s.hosts, host)
  return allowed === undefined ? undefined : `${scheme}://${allowed}`
}

/** `requestBase` in a handler: the app refused other Hosts before routing, so this throws only if that check is skipped. */
export function baseUrl(s: Services, requestUrl: string): string {
  const base = requestBase(s, requestUrl)
  if (base === undefined) throw misdirected(s.hosts, hostOf(requestUrl).host)
  return base
}
