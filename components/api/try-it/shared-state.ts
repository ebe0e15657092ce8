/**
 * Try it's request in the page's URL, `?try=<JSON>`, rewritten as the reader edits: the target
 * (sandbox or a server URL), the parameters and the body that differ from the page's examples.
 * Never credentials: tokens and the signup key stay in the tab's session (session.ts), and
 * header parameters whose name says they carry a secret are left out. A link to the page with
 * it opens Try it with the same request in any browser.
 */
import type { TryItRequest } from '../../../lib/codegen/model'
import { initialDraft, paramKey, type Draft } from './build-request'
import type { TargetKind } from './session'

export const TRY_PARAM = 'try'

export interface SharedRequest {
  operation: string
  target: TargetKind
  /** The reader's server, when the target is one. */
  server?: string
  /** Parameter values by `in:name` that differ from the example. */
  params?: Record<string, string>
  body?: string
  fields?: Record<string, string>
}

const SECRET = /authorization|cookie|token|secret|password|key/i

const shareableParams = (request: TryItRequest) =>
  request.parameters.filter((p) => !(p.in === 'header' && SECRET.test(p.name))).map(paramKey)

function changed(
  values: Record<string, string>,
  from: Record<string, string>,
  keys: string[],
): Record<string, string> | undefined {
  const out = Object.fromEntries(
    keys.filter((k) => (values[k] ?? '') !== (from[k] ?? '')).map((k) => [k, values[k] ?? '']),
  )
  return Object.keys(out).length > 0 ? out : undefined
}

export function toShared(
  operation: string,
  request: TryItRequest,
  draft: Draft,
  target: TargetKind,
  server: string,
): SharedRequest {
  const example = initialDraft(request)
  const shared: SharedRequest = { operation, target }
  if (target === 'server') shared.server = server
  const params = changed(draft.params, example.params, shareableParams(request))
  if (params) shared.params = params
  if (draft.body !== example.body) shared.body = draft.body
  const fields = changed(
    draft.fields,
    example.fields,
    request.body?.kind === 'form' ? request.body.fields.map((f) => f.name) : [],
  )
  if (fields) shared.fields = fields
  return shared
}

const isStringRecord = (x: unknown): x is Record<string, string> =>
  typeof x === 'object' && x !== null && !Array.isArray(x) && Object.values(x).every((v) => typeof v === 'string')

const isHttpUrl = (x: unknown): x is string => {
  if (typeof x !== 'string') return false
  try {
    return ['http:', 'https:'].includes(new URL(x).protocol)
  } catch {
    return false
  }
}

/** The shared request in `search` for this operation; anything malformed is ignored, field by field. */
export function readShared(search: string, operation: string, request: TryItRequest): SharedRequest | undefined {
  const text = new URLSearchParams(search).get(TRY_PARAM)
  if (!text) return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  const v = value as Record<string, unknown>
  if (v.operation !== operation) return undefined
  const shared: SharedRequest = {
    operation,
    target: v.target === 'server' && isHttpUrl(v.server) ? 'server' : 'sandbox',
  }
  if (shared.target === 'server') shared.server = v.server as string
  const keys = new Set(shareableParams(request))
  const params = isStringRecord(v.params) ? Object.entries(v.params).filter(([k]) => keys.has(k)) : []
  if (params.length > 0) shared.params = Object.fromEntries(params)
  if (typeof v.body === 'string' && request.body && request.body.kind !== 'form') shared.body = v.body
  if (isStringRecord(v.fields) && request.body?.kind === 'form') {
    const names = new Set(request.body.fields.map((f) => f.name))
    const fields = Object.entries(v.fields).filter(([k]) => names.has(k))
    if (fields.length > 0) shared.fields = Object.fromEntries(fields)
  }
  return shared
}

/** The page's examples with the shared values on top. */
export function sharedDraft(request: TryItRequest, shared: SharedRequest | undefined): Draft {
  const draft = initialDraft(request)
  if (!shared) return draft
  return {
    ...draft,
    params: { ...draft.params, ...shared.params },
    body: shared.body ?? draft.body,
    fields: { ...draft.fields, ...shared.fields },
  }
}

/** The operation named in `search`, without reading the rest. */
export function sharedOperation(search: string): string | undefined {
  const text = new URLSearchParams(search).get(TRY_PARAM)
  return text?.match(/"operation"\s*:\s*"([^"]+)"/)?.[1]
}

/** Rewrites the address bar (no history entry, no navigation); Next's router state follows. */
export function writeShared(shared: SharedRequest): void {
  const url = new URL(window.location.href)
  url.searchParams.set(TRY_PARAM, JSON.stringify(shared))
  const next = `${url.pathname}${url.search}${url.hash}`
  if (next === `${window.location.pathname}${window.location.search}${window.location.hash}`) return
  const state: unknown = window.history.state
  const routerState =
    typeof state === 'object' && state !== null && '__N' in state ? { ...state, as: next, url: next } : state
  window.history.replaceState(routerState, '', next)
}
