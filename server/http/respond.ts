/** @module Handlers and their answers: the typed `respond`, JSON and empty responses. */
import type { Ctx } from './context.ts'
import { secured, withSecurityHeaders } from './security-headers.ts'
import type { Input, JsonResponse, JsonStatus, OperationId } from './spec.ts'

/** A JSON response whose body the compiler checks against the operation's schema for that status. */
export type Respond<K extends OperationId> = <S extends JsonStatus<K>>(
  status: S,
  body: JsonResponse<K, S>,
  headers?: Record<string, string>,
) => Response

/** Handles one operation with its validated input; JSON answers go through `respond`. */
export type Handler<K extends OperationId> = (c: Ctx, input: Input<K>, respond: Respond<K>) => Promise<Response>
/** One handler per operation of the contract: a missing one is a type error. */
export type Handlers = { [K in OperationId]: Handler<K> }

const JSON_HEADERS = withSecurityHeaders({ 'content-type': 'application/json' })
const JSON_NO_STORE = withSecurityHeaders({ 'content-type': 'application/json', 'cache-control': 'no-store' })
const NO_CONTENT_HEADERS = withSecurityHeaders({})

/** A JSON response; `serialised` when `data` is already a JSON string. */
export function json(data: unknown, status = 200, headers?: Record<string, string>, serialised = false): Response {
  const all = !headers
    ? JSON_HEADERS
    : headers['cache-control'] === 'no-store' && Object.keys(headers).length === 1
      ? JSON_NO_STORE
      : { ...JSON_HEADERS, ...headers }
  return secured(new Response(serialised ? (data as string) : JSON.stringify(data), { status, headers: all }))
}

export const noContent = () => secured(new Response(null, { status: 204, headers: NO_CONTENT_HEADERS }))
