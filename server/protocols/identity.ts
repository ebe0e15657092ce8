/**
 * @module Who a device says it is, as its check carries it: a cohort, up to 8 declared attributes
 * and whether a person asked (a manual check), in `X-Ferry-*` headers or, for clients that only
 * fetch a URL, in the query. A header wins over its query parameter. Bad attributes are 400s
 * naming the header or parameter.
 */
import type { UpdateRequest } from '../updates/decide.ts'

/** Attributes a check declares at most. */
export const MAX_ATTRIBUTES = 8
const KEY = /^[a-z][a-z0-9_]{0,31}$/
const MAX_VALUE = 64

export interface IdentityHeaders {
  'X-Ferry-Cohort'?: string
  'X-Ferry-Attributes'?: string
  'X-Ferry-Manual'?: boolean
}

export interface IdentityQuery {
  cohort?: string
  attributes?: string
  manual?: boolean
}

export type DeviceIdentityRequest = Pick<UpdateRequest, 'cohort' | 'attributes' | 'manual' | 'identityInHeaders'>

/** `key=value` pairs separated by commas; throws `invalid(field, …)` naming the first fault. */
export function parseAttributes(
  raw: string,
  field: string,
  invalid: (field: string, message: string) => Error,
): Record<string, string> {
  const out: Record<string, string> = {}
  const pairs = raw.split(',').map((p) => p.trim())
  if (pairs.length > MAX_ATTRIBUTES)
    throw invalid(field, `declares ${pairs.length} attributes; at most ${MAX_ATTRIBUTES}`)
  for (const pair of pairs) {
    const at = pair.indexOf('=')
    if (at === -1) throw invalid(field, `"${pair.slice(0, 40)}" is not key=value`)
    const key = pair.slice(0, at).trim()
    const value = pair.slice(at + 1).trim()
    if (!KEY.test(key))
      throw invalid(field, `key "${key.slice(0, 40)}" must be lower-case letters, digits and _ (at most 32)`)
    if (value.length === 0 || value.length > MAX_VALUE || value.includes('='))
      throw invalid(field, `value of ${key} must be 1 to ${MAX_VALUE} characters without , or =`)
    if (Object.hasOwn(out, key)) throw invalid(field, `declares ${key} twice`)
    out[key] = value
  }
  return out
}

/** The identity a check carries; only the members it sent. */
export function identityOf(
  header: IdentityHeaders,
  query: IdentityQuery,
  r: { invalid: (field: string, message: string) => Error },
): DeviceIdentityRequest {
  const out: DeviceIdentityRequest = {}
  const cohort = header['X-Ferry-Cohort'] ?? query.cohort
  if (cohort !== undefined) out.cohort = cohort
  const fromHeader = header['X-Ferry-Attributes'] !== undefined
  const attributes = header['X-Ferry-Attributes'] ?? query.attributes
  if (attributes !== undefined)
    out.attributes = parseAttributes(attributes, fromHeader ? 'X-Ferry-Attributes' : 'attributes', r.invalid)
  const manual = header['X-Ferry-Manual'] ?? query.manual
  if (manual === true) out.manual = true
  if (header['X-Ferry-Cohort'] !== undefined || fromHeader || header['X-Ferry-Manual'] !== undefined)
    out.identityInHeaders = true
  return out
}

/**
 * The part of an answer's cache key that the identity makes (empty without one): sorted, so order
 * does not split it. Where it came from counts too: an answer to a URL-borne identity is marked for
 * shared caches, and must never answer a request whose identity a shared cache does not see.
 */
export function identityKey(a: DeviceIdentityRequest): string {
  if (a.cohort === undefined && a.attributes === undefined && !a.manual) return ''
  const attrs = a.attributes
    ? Object.keys(a.attributes)
        .sort()
        .map((k) => `${k}=${a.attributes?.[k] ?? ''}`)
        .join(',')
    : ''
  return `\n${a.cohort ?? ''}\n${attrs}\n${a.manual ? 'manual' : ''}\n${a.identityInHeaders ? 'headers' : 'url'}`
}
