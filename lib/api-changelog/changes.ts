/**
 * @module What changed between two contracts, per operation, from api-smart-diff's classified
 * diff (breaking / non-breaking / deprecated; annotations such as descriptions and examples are
 * left out). Each change says where it sits (parameter, request or response member, response)
 * in words, and points at its place in the spec it comes from.
 */
import { apiDiff, type Diff } from 'api-smart-diff'
import { atPointer, toPointer } from '../../contract/json-pointer.ts'
import { METHODS } from '../codegen/transform/operation.ts'
import { policyBreaking, policyOverride } from './policy.ts'

export type Action = 'added' | 'removed' | 'changed'

export interface ContractChange {
  /** Upper case, e.g. `GET`. */
  method: string
  path: string
  /** `operation` when the whole operation was added or removed. */
  scope: 'operation' | 'parameter' | 'request' | 'response'
  action: Action
  /** Readable place, e.g. "query parameter `limit`", "response 200", "request body". */
  location: string
  /** The body member in `location`, e.g. `items[].rollout`. */
  member?: string
  /** What happened there, e.g. "added", "enum value `msix` added", "`maxLength` changed". */
  what: string
  breaking: boolean
  /** Why Ferry's versioning policy overrides the library's breaking verdict. */
  policy?: string
  /** Why Ferry's versioning policy calls breaking what the library does not. */
  policyBreaking?: string
  /** Breaking, but listed in the newer contract's `x-ferry-accepted-breaking-changes`: its reason. */
  accepted?: string
  /** JSON pointer in the newer contract (in the older one for a removal). */
  pointer: string
  /** Which contract `pointer` is in. */
  side: 'before' | 'after'
}

type Doc = Record<string, unknown>
type Token = string | number

const ACTION: Record<Diff['action'], Action> = {
  add: 'added',
  remove: 'removed',
  replace: 'changed',
  rename: 'changed',
}
const COMBINATORS = new Set(['allOf', 'anyOf', 'oneOf'])

function resolveRef(doc: Doc, node: unknown): Record<string, unknown> | undefined {
  let current = node
  for (let hops = 0; hops < 20 && current && typeof current === 'object' && '$ref' in current; hops++) {
    current = atPointer(doc, String((current as { $ref: string }).$ref))
  }
  return current && typeof current === 'object' ? (current as Record<string, unknown>) : undefined
}

function code(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return `\`${text && text.length > 60 ? `${text.slice(0, 57)}…` : text}\``
}

/** The member a schema path names (`items[].artifacts[].packageType`) and the keyword after it, if any. */
function schemaPlace(
  tokens: readonly Token[],
  value: unknown,
): { member: string; keyword?: string; keywordAt?: Token } {
  const names: string[] = []
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!
    const next = tokens[i + 1]
    if (token === 'properties' && next !== undefined) {
      names.push(String(next))
      i++
    } else if (token === 'items') {
      names.push(`${names.pop() ?? ''}[]`)
    } else if (COMBINATORS.has(String(token)) && typeof next === 'number') {
      if (i + 2 >= tokens.length) return { member: names.join('.'), keyword: `${token} alternative`, keywordAt: next }
      i++
    } else if (token === 'additionalProperties' && i + 1 < tokens.length) {
      names.push(`${names.pop() ?? ''}{*}`)
    } else if (token === 'required' && typeof next === 'number' && typeof value === 'string') {
      return { member: [...names, value].join('.'), keyword: 'required' }
    } else {
      return { member: names.join('.'), keyword: String(token), keywordAt: next }
    }
  }
  return { member: names.join('.') }
}

function memberWhat(action: Action, place: { member: string; keyword?: string }, value: unknown): string {
  if (!place.keyword) return action
  if (place.keyword === 'required')
    return action === 'added' ? 'now required' : action === 'removed' ? 'now optional' : 'required changed'
  if (place.keyword === 'enum' && action !== 'changed') return `enum value ${code(value)} ${action}`
  if (place.keyword.endsWith(' alternative') && value && typeof value === 'object' && '$ref' in value) {
    return `${place.keyword} ${code(
      String((value as { $ref: string }).$ref)
        .split('/')
        .at(-1),
    )} ${action}`
  }
  return `${code(place.keyword)} ${action}`
}

function bodyLocation(
  prefix: string,
  tokens: readonly Token[],
  value: unknown,
): { location: string; member?: string; what: (a: Action) => string } {
  // tokens: content, <media type>, schema, …
  const media = tokens[1] !== undefined ? String(tokens[1]) : undefined
  if (tokens[0] !== 'content' || media === undefined)
    return { location: prefix, what: (a) => `${code(tokens[0] ?? 'body')} ${a}` }
  if (tokens.length === 2) return { location: prefix, what: (a) => `content type ${code(media)} ${a}` }
  if (tokens[2] !== 'schema') return { location: prefix, what: (a) => `${code(tokens[2])} of ${code(media)} ${a}` }
  const place = schemaPlace(tokens.slice(3), value)
  return {
    location: prefix,
    ...(place.member ? { member: place.member } : {}),
    what: (a) => memberWhat(a, place, value),
  }
}

interface Placed {
  scope: ContractChange['scope']
  location: string
  member?: string
  what: string
}

function place(tokens: readonly Token[], action: Action, value: unknown, operation: Doc, doc: Doc): Placed | undefined {
  const [first, second] = tokens
  if (first === 'parameters' && typeof second === 'number') {
    const parameter = resolveRef(doc, (operation.parameters as unknown[] | undefined)?.[second])
    const location = parameter
      ? `${String(parameter.in)} parameter \`${String(parameter.name)}\``
      : `parameter ${second}`
    if (tokens.length === 2) return { scope: 'parameter', location, what: action }
    if (tokens[2] === 'required' && tokens.length === 3)
      return { scope: 'parameter', location, what: value === true ? 'now required' : 'now optional' }
    if (tokens[2] === 'schema') {
      const schema = schemaPlace(tokens.slice(3), value)
      return { scope: 'parameter', location, what: memberWhat(action, schema, value) }
    }
    return { scope: 'parameter', location, what: `${code(tokens[2])} ${action}` }
  }
  if (first === 'requestBody') {
    if (tokens.length === 1) return { scope: 'request', location: 'request body', what: action }
    if (tokens[1] === 'required')
      return { scope: 'request', location: 'request body', what: value === true ? 'now required' : 'now optional' }
    const { what, ...body } = bodyLocation('request body', tokens.slice(1), value)
    return { scope: 'request', ...body, what: what(action) }
  }
  if (first === 'responses' && second !== undefined) {
    const prefix = `response ${second}`
    if (tokens.length === 2) return { scope: 'response', location: prefix, what: action }
    if (tokens[2] === 'headers' && tokens[3] !== undefined)
      return {
        scope: 'response',
        location: `${prefix} header \`${String(tokens[3])}\``,
        what: tokens.length === 4 ? action : `${code(tokens.at(-1))} ${action}`,
      }
    const { what, ...body } = bodyLocation(prefix, tokens.slice(2), value)
    return { scope: 'response', ...body, what: what(action) }
  }
  if (first === 'deprecated')
    return { scope: 'operation', location: 'operation', what: value === true ? 'deprecated' : 'no longer deprecated' }
  if (first === 'security') return { scope: 'operation', location: 'security requirements', what: action }
  if (first === undefined) return undefined
  return { scope: 'operation', location: code(first), what: action }
}

const isMethod = (token: Token | undefined): token is (typeof METHODS)[number] =>
  (METHODS as readonly unknown[]).includes(token)

/** A breaking change made on purpose without a new `info.version`, as the contract lists it. */
export interface AcceptedBreakingChange {
  /** The frozen docs version it is accepted against. */
  since: string
  location: string
  what: string
  reason: string
}

/** The contract's `x-ferry-accepted-breaking-changes`, entries of another shape left out. */
export function acceptedBreakingChanges(doc: Doc): AcceptedBreakingChange[] {
  const list = doc['x-ferry-accepted-breaking-changes']
  if (!Array.isArray(list)) return []
  return list.flatMap((entry: unknown) => {
    if (!entry || typeof entry !== 'object') return []
    const { since, location, what, reason } = entry as Record<string, unknown>
    return typeof since === 'string' &&
      typeof location === 'string' &&
      typeof what === 'string' &&
      typeof reason === 'string'
      ? [{ since, location, what, reason }]
      : []
  })
}

/**
 * Every breaking, non-breaking or deprecating change to the operations of `before` in `after`.
 * Path-level parameters count for each operation of the path. With `since` (the frozen version
 * `before` is), breaking changes `after` lists as accepted since it carry their reason.
 */
export function diffContracts(before: Doc, after: Doc, since?: string): ContractChange[] {
  const accepted = since === undefined ? [] : acceptedBreakingChanges(after).filter((entry) => entry.since === since)
  const changes: ContractChange[] = []
  // apiDiff rewrites the documents it is given (it merges allOf and wraps $ref siblings): give it copies.
  for (const diff of apiDiff(structuredClone(before), structuredClone(after))) {
    if (diff.type === 'annotation' || diff.type === 'unclassified') continue
    const [root, path, method, ...rest] = diff.path as Token[]
    if (root !== 'paths' || typeof path !== 'string') continue
    const action = ACTION[diff.action]
    const side = diff.action === 'remove' ? 'before' : 'after'
    const doc = side === 'before' ? before : after
    const value = side === 'before' ? diff.before : diff.after
    const item = ((doc.paths as Doc)[path] ?? {}) as Doc
    const methods =
      method === undefined
        ? METHODS.filter((m) => value && typeof value === 'object' && m in value)
        : method === 'parameters'
          ? METHODS.filter((m) => m in item)
          : isMethod(method)
            ? [method]
            : []
    for (const m of methods) {
      const tokens = method === 'parameters' ? ['parameters', ...rest] : rest
      const operation = (item[m] ?? {}) as Doc
      const placed =
        method === undefined || (isMethod(method) && rest.length === 0)
          ? { scope: 'operation' as const, location: 'operation', what: action }
          : place(tokens, action, value, method === 'parameters' ? item : operation, doc)
      if (!placed) continue
      const flagged = diff.type === 'breaking'
      const policy = flagged ? policyOverride({ tokens, action: diff.action, after: diff.after }) : undefined
      const escalated = flagged ? undefined : policyBreaking({ tokens, action: diff.action, after: diff.after })
      const breaking = (flagged && !policy) || escalated !== undefined
      const acceptance = breaking
        ? accepted.find((entry) => entry.location === placed.location && entry.what === placed.what)
        : undefined
      changes.push({
        method: m.toUpperCase(),
        path,
        ...placed,
        action,
        breaking,
        ...(policy ? { policy } : {}),
        ...(escalated ? { policyBreaking: escalated } : {}),
        ...(acceptance ? { accepted: acceptance.reason } : {}),
        pointer: toPointer(method === undefined ? ['paths', path, m] : (diff.path as Token[])),
        side,
      })
    }
  }
  return changes
}
