/**
 * @module The fast lane of cached update answers. A `GET` whose path is an update check's, whose
 * parameters the operation's validator accepts and whose answer the answer cache holds is
 * answered by `fromCache`, the code the handler runs for a hit, without building a web `Request`,
 * routing or running middleware. Whatever the lane does not read exactly as Hono would (a
 * percent-encoded or `+` character, a repeated query name, a host Hono normalises) and every
 * miss or error falls through (`undefined`): the request then takes the normal path, and nothing
 * was counted on the way.
 */
import type { OperationSpec } from '../http/spec.ts'
import { baseUrl } from '../http/base-url.ts'
import type { Services } from '../http/services.ts'
import { operationValidator } from '../http/validation.ts'
import type { Answer } from '../protocols/answer.ts'
import { UPDATE_CHECKS, type Asked, type Asking, type CheckOperation, type UpdateChecks } from './update.ts'

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

export interface LaneHit {
  operation: CheckOperation
  /** The request's path (without its query). */
  path: string
  answer: Answer
}

/** A target holding none of the characters Hono decodes (`%`, `+`) or `new URL` would rewrite. */
const PLAIN_TARGET = /^\/v1\/apps\/[!$&-*,-;=?-[\]_a-z~]*$/
const DOT_SEGMENT = /\/\.\.?(?:[/?]|$)/
/** A host @hono/node-server takes as it is (others it normalises through `new URL`). */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/

type Read = (
  path: Record<string, string>,
  query: Record<string, string>,
  header: (name: string) => string | undefined,
) => Asked | undefined

interface Route {
  /** The path's segments: a literal, or `null` for a parameter (any non-empty segment). */
  parts: Array<string | null>
  /** Each parameter's segment index and name. */
  params: Array<[number, string]>
  /** Set for the check operations: the check a request asks (a 400 thrown), `undefined` when it asks none. */
  check?: { operation: CheckOperation; read: Read }
}

function reader<K extends CheckOperation>(op: OperationSpec, id: K): Read {
  const validate = operationValidator<K>(op)
  const check = UPDATE_CHECKS[id]
  return (path, query, header) =>
    check(
      validate.params((p, lower) =>
        p.in === 'path' ? path[p.name] : p.in === 'query' ? query[p.name] : header(lower),
      ),
    )
}

const isCheck = (id: string): id is CheckOperation => Object.hasOwn(UPDATE_CHECKS, id)

/** The query as Hono reads it when nothing is encoded: the first value of each name; `undefined` when a name repeats. */
function plainQuery(query: string): Record<string, string> | undefined {
  const out: Record<string, string> = {}
  if (query === '') return out
  for (const part of query.split('&')) {
    const eq = part.indexOf('=')
    const name = eq === -1 ? part : part.slice(0, eq)
    if (name === '') continue
    if (name === '__proto__' || Object.hasOwn(out, name)) return undefined
    out[name] = eq === -1 ? '' : part.slice(eq + 1)
  }
  return out
}

/**
 * The lane over `operations` (in the order the app registers them: the first path that matches
 * decides, as in Hono's router). `undefined` at once when the request is not a check's.
 */
export function updateLane(
  s: Services,
  operations: readonly OperationSpec[],
  fromCache: UpdateChecks['fromCache'],
): (req: LaneRequest) => Promise<LaneHit | undefined> | undefined {
  // By segment count: routes of different lengths never match the same path, and within one
  // length the table's order is kept.
  const routes = new Map<number, Route[]>()
  for (const op of operations) {
    if (op.method !== 'get') continue
    const params: Array<[number, string]> = []
    const parts = op.path.split('/').map((part, i) => {
      const param = /^\{([^}]+)\}$/.exec(part)?.[1]
      if (param === undefined) return part
      params.push([i, param])
      return null
    })
    const id = op.operationId
    // Only operations open to anyone: the lane checks no token.
    const check = isCheck(id) && op.permission === 'public' ? { operation: id, read: reader(op, id) } : undefined
    const route: Route = { parts, params, ...(check ? { check } : {}) }
    routes.set(parts.length, [...(routes.get(parts.length) ?? []), route])
  }
  const matches = (r: Route, segments: string[]) =>
    r.parts.every((part, i) => (part === null ? segments[i] !== '' : part === segments[i]))
  return (req) => {
    const { target, host } = req
    if (!PLAIN_TARGET.test(target) || DOT_SEGMENT.test(target) || host === undefined || !PLAIN_HOST.test(host))
      return undefined
    const q = target.indexOf('?')
    const path = q === -1 ? target : target.slice(0, q)
    const segments = path.split('/')
    const r = routes.get(segments.length)?.find((candidate) => matches(candidate, segments))
    if (!r?.check) return undefined
    const { operation, read } = r.check
    const query = plainQuery(q === -1 ? '' : target.slice(q + 1))
    if (!query) return undefined
    const params: Record<string, string> = {}
    for (const [i, name] of r.params) params[name] = segments[i] ?? ''
    let asked: Asked | undefined
    try {
      asked = read(params, query, (name) => req.header(name))
    } catch {
      return undefined
    }
    if (!asked) return undefined
    const asking: Asking = {
      base: baseUrl(s, `${req.scheme}://${host}${target}`),
      ifNoneMatch: req.header('if-none-match'),
      clientIp: () => req.clientIp(),
    }
    return fromCache(asked, asking).then(
      (answer) => (answer ? { operation, path, answer } : undefined),
      () => undefined,
    )
  }
}
