/**
 * @module The fast lane of cached update answers. A `GET` whose path is an update check's (or the
 * latest-build link's, or the App Installer file's), whose parameters the operation's validator
 * accepts and whose answer the answer cache holds is answered by the operation's `CachedLookup`,
 * the code its handler runs for a hit, without building a web `Request` or running middleware.
 * The path is matched by Hono's own router over the operation table, as the app registers it,
 * and the query decoded by Hono's own function. A path Hono would decode or normalise first (a
 * `%`, a dot segment), a host Hono normalises, a Host the server does not serve and every miss or
 * error fall through: the request then takes the normal path, and nothing was counted on the way.
 * A miss names the read that missed (`LaneMiss`), so that the handler does not read the cache again.
 */
import { RegExpRouter } from 'hono/router/reg-exp-router'
import { SmartRouter } from 'hono/router/smart-router'
import { TrieRouter } from 'hono/router/trie-router'
import { getQueryParam } from 'hono/utils/url'
import { honoPath, type OperationSpec } from '../http/spec.ts'
import { requestBase } from '../http/base-url.ts'
import type { Services } from '../http/services.ts'
import { operationValidator } from '../http/validation.ts'
import type { Answer } from '../protocols/answer.ts'
import type { Asking, CachedLookup, CheckOperation } from './update.ts'

/** A request as the runtime received it. */
export interface LaneRequest {
  /** `http` or `https`: the scheme of the connection. */
  scheme: string
  /** The Host header. */
  host: string | undefined
  /** The request target: absolute path and query, as sent. */
  target: string
  /** A request header by lower-case name (repeated ones joined with `, `). */
  header(name: string): string | undefined
  clientIp(): string | undefined
}

/** The operations the lane answers. */
export type LanedOperation = CheckOperation | 'getLatestBuild' | 'getMsixAppInstaller'

/** Each laned operation's cached answer. */
export type CachedLookups = { [K in LanedOperation]: CachedLookup<K> }

export interface LaneHit {
  operation: LanedOperation
  /** The request's path (without its query). */
  path: string
  answer: Answer
}

/** The cache did not hold the answer: `missed` names the read (`Asking.missed` for the handler). */
export interface LaneMiss {
  missed: string
}

/** A path Hono takes as sent (no `%` to decode, nothing `new URL` rewrites), and any printable query. */
const PLAIN_TARGET = /^\/v1\/apps\/[!$&-*+,-;=@-[\]_a-z~]*(?:\?[!$%&-;=?-[\]_a-z~]*)?$/
const DOT_SEGMENT = /\/\.\.?(?:[/?]|$)/
/** A host @hono/node-server takes as it is (others it normalises through `new URL`). */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/

type Read = (
  path: Readonly<Record<string, string>>,
  query: Readonly<Record<string, string>>,
  header: (name: string) => string | undefined,
  r: Asking,
) => Promise<Answer | undefined> | undefined

/** A laned operation's cached answer, read with the request's parameters. */
interface Check {
  operation: LanedOperation
  read: Read
}

function reader<K extends LanedOperation>(op: OperationSpec, lookup: CachedLookup<K>): Read {
  const validate = operationValidator<K>(op)
  return (path, query, header, r) =>
    lookup(
      validate.params((p, lower) =>
        p.in === 'path' ? path[p.name] : p.in === 'query' ? query[p.name] : header(lower),
      ),
      r,
    )
}

/** A target the lane answers, parsed: kept and shared between requests, never changed. */
interface Parsed extends Check {
  /** The request's path (without its query). */
  path: string
  params: Readonly<Record<string, string>>
  query: Readonly<Record<string, string>>
}

/** Targets kept parsed (all are dropped when full) and the longest kept: a few MB at most. */
const MAX_PARSED = 1000
const MAX_PARSED_TARGET = 1000

const none = () => undefined

/**
 * The lane over `operations` (in the order the app registers them: the first path that matches
 * decides, as in Hono's router). `undefined` at once when the request is not a check's.
 */
export function updateLane(
  s: Services,
  operations: readonly OperationSpec[],
  lookups: CachedLookups,
): (req: LaneRequest) => Promise<LaneHit | LaneMiss | undefined> | undefined {
  const isLaned = (id: string): id is LanedOperation => Object.hasOwn(lookups, id)
  const laned = <K extends LanedOperation>(op: OperationSpec, id: K) => ({
    operation: id,
    read: reader(op, lookups[id]),
  })
  // Every GET of the table, in its order, as the app registers it with Hono (whose default router
  // this is): the first route that matches decides; only the laned ones carry a check.
  const router = new SmartRouter<Check | null>({ routers: [new RegExpRouter(), new TrieRouter()] })
  for (const op of operations) {
    if (op.method !== 'get') continue
    const id = op.operationId
    // Only operations open to anyone: the lane checks no token.
    router.add('GET', honoPath(op.path), isLaned(id) && op.permission === 'public' ? laned(op, id) : null)
  }
  /** A target's laned operation, path and parameters as Hono reads them; `undefined` when the lane does not answer it. */
  const parse = (target: string): Parsed | undefined => {
    if (!PLAIN_TARGET.test(target) || DOT_SEGMENT.test(target)) return undefined
    const q = target.indexOf('?')
    const path = q === -1 ? target : target.slice(0, q)
    const [matched, stash] = router.match('GET', path)
    const first = matched[0]
    if (!first?.[0]) return undefined
    const [check, found] = first
    const params: Record<string, string> = {}
    for (const [name, at] of Object.entries(found)) params[name] = stash ? (stash[Number(at)] ?? '') : String(at)
    // As `c.req.query()` reads it: the first value of each name, decoded.
    const query = getQueryParam(`http://h${target}`)
    return { ...check, path, params, query: typeof query === 'object' ? query : {} }
  }
  // Clients repeat a few targets (one per version, channel and platform): each is parsed once.
  const parsed = new Map<string, Parsed>()
  return (req) => {
    const { target, host } = req
    if (host === undefined || !PLAIN_HOST.test(host)) return undefined
    // A Host the server does not serve: the app answers its 421.
    const base = requestBase(s, `${req.scheme}://${host}`)
    if (base === undefined) return undefined
    let found = parsed.get(target)
    if (!found) {
      found = parse(target)
      if (!found) return undefined
      if (target.length <= MAX_PARSED_TARGET) {
        if (parsed.size >= MAX_PARSED) parsed.clear()
        parsed.set(target, found)
      }
    }
    const { operation, read, path, params, query } = found
    let missed: string | undefined
    const asking: Asking = {
      base,
      ifNoneMatch: req.header('if-none-match'),
      clientIp: req.clientIp.bind(req),
      onMiss: (read) => {
        missed = read
      },
    }
    let answered: Promise<Answer | undefined> | undefined
    try {
      answered = read(params, query, req.header.bind(req), asking)
    } catch {
      return undefined
    }
    return answered?.then(
      (answer) => (answer ? { operation, path, answer } : missed === undefined ? undefined : { missed }),
      none,
    )
  }
}
