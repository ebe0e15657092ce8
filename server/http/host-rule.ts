/**
 * @module The Host names the server answers. Without `FERRY_PUBLIC_URL` a link starts with the
 * request's scheme and Host, so the Host must be one the operator named (`FERRY_ALLOWED_HOSTS`),
 * by default a loopback name; any other is refused with a 421 (`misdirected`).
 */
import { HttpProblem } from '../core/problem.ts'

/** The names answered, with any port, while neither `FERRY_PUBLIC_URL` nor `FERRY_ALLOWED_HOSTS` is set. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]']

/** A Host's name (lower case, without a trailing dot; IPv6 in brackets) and its port (`''`: none). */
interface HostName {
  name: string
  port: string
}

const NAME = /^(?:\[[0-9a-f:.]+\]|[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?)$/

/** `host[:port]` as a Host header or `FERRY_ALLOWED_HOSTS` writes it, normalised; `undefined` when it is none. */
export function parseHost(raw: string): HostName | undefined {
  const text = raw.toLowerCase()
  const close = text.startsWith('[') ? text.indexOf(']') : -1
  const colon = text.indexOf(':', close + 1)
  let name = colon === -1 ? text : text.slice(0, colon)
  const port = colon === -1 ? '' : text.slice(colon + 1)
  if (port !== '' && (!/^\d{1,5}$/.test(port) || Number(port) > 65535)) return undefined
  if (close === -1 && name.endsWith('.')) name = name.slice(0, -1)
  if (!NAME.test(name)) return undefined
  return { name, port: port === '' ? '' : String(Number(port)) }
}

/** Which Host names the server answers: `any` (links come from `FERRY_PUBLIC_URL`), or those listed. */
export type HostRule =
  | { kind: 'any' }
  | {
      kind: 'listed'
      /** Per name: the ports allowed, `null` for any. */
      names: ReadonlyMap<string, ReadonlySet<string> | null>
      /** `FERRY_ALLOWED_HOSTS` set; else the loopback default. */
      configured: boolean
      /** Recent Hosts and what `allowedHost` made of them (`null`: refused); clients repeat a few. */
      seen: Map<string, string | null>
    }

/**
 * The rule for a server: the allowlist when one is set; else any Host when links come from
 * `publicUrl`; else loopback names. An entry without a port allows the name on every port.
 * Throws on an entry that is no `host[:port]`.
 */
export function hostRule(publicUrl: string | undefined, allowedHosts: readonly string[] | undefined): HostRule {
  if (!allowedHosts && publicUrl) return { kind: 'any' }
  const names = new Map<string, Set<string> | null>()
  for (const entry of allowedHosts ?? LOOPBACK_HOSTS) {
    const host = parseHost(entry.trim())
    if (!host) throw new Error(`not a host name with an optional port: ${JSON.stringify(entry)}`)
    const ports = names.get(host.name)
    if (ports === null) continue
    if (host.port === '') names.set(host.name, null)
    else names.set(host.name, new Set([...(ports ?? []), host.port]))
  }
  return { kind: 'listed', names, configured: allowedHosts !== undefined, seen: new Map() }
}

/** Hosts remembered per rule (all are forgotten when full) and the longest remembered: 256 of 255 characters at most. */
const MAX_SEEN = 256
const MAX_SEEN_HOST = 255

/** `host` normalised when the rule allows it, else `undefined`. */
export function allowedHost(rule: HostRule, host: string): string | undefined {
  if (rule.kind === 'any') return normalised(host)
  const seen = rule.seen.get(host)
  if (seen !== undefined) return seen ?? undefined
  const parsed = parseHost(host)
  const ports = parsed && rule.names.get(parsed.name)
  const allowed =
    parsed && ports !== undefined && (ports === null || ports.has(parsed.port)) ? joined(parsed) : undefined
  if (host.length <= MAX_SEEN_HOST) {
    if (rule.seen.size >= MAX_SEEN) rule.seen.clear()
    rule.seen.set(host, allowed ?? null)
  }
  return allowed
}

const joined = (host: HostName) => (host.port === '' ? host.name : `${host.name}:${host.port}`)

function normalised(host: string): string | undefined {
  const parsed = parseHost(host)
  return parsed && joined(parsed)
}

/** The 421 a request to `host` gets: the Host it sent and what the operator sets to serve it. */
export function misdirected(rule: HostRule, host: string): HttpProblem {
  const sent = JSON.stringify(host.length > 200 ? `${host.slice(0, 200)}…` : host)
  const detail =
    rule.kind === 'listed' && rule.configured
      ? `The Host ${sent} is not one this server answers: FERRY_ALLOWED_HOSTS does not list it. Add the name there, or call the server by a name it lists.`
      : `The Host ${sent} is not one this server answers: with neither FERRY_PUBLIC_URL nor FERRY_ALLOWED_HOSTS set, only localhost, 127.0.0.1 and [::1] are. Set FERRY_PUBLIC_URL to the server's public URL, or add the name to FERRY_ALLOWED_HOSTS.`
  return new HttpProblem('misdirected', detail)
}
