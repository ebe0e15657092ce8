/**
 * @module A call_operation request from its parts: path parameters into the template, query
 * parameters checked against the operation's, a JSON body only where the contract takes one.
 * Every refusal names the operation and the parameter.
 */
import type { OperationSpec } from './contract.ts'

export type Scalar = string | number | boolean

export interface OperationArgs {
  path?: Record<string, Scalar> | undefined
  query?: Record<string, Scalar | Scalar[]> | undefined
  headers?: Record<string, string> | undefined
  body?: unknown
}

export class RequestError extends Error {}

const names = (op: OperationSpec, where: 'path' | 'query') =>
  op.parameters.filter((p) => p.in === where).map((p) => p.name)
const listed = (items: readonly string[]) => (items.length ? items.join(', ') : 'none')

/** The path and query of the request (relative, to be resolved against a server's base URL). */
export function operationPath(op: OperationSpec, args: OperationArgs): string {
  const id = op.operationId
  const pathNames = names(op, 'path')
  const given = args.path ?? {}
  for (const name of Object.keys(given)) {
    if (!pathNames.includes(name))
      throw new RequestError(
        `${id}: path parameter ${JSON.stringify(name)} is not in ${op.path} (its path parameters: ${listed(pathNames)})`,
      )
  }
  const filled = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = given[name]
    if (value === undefined || value === '')
      throw new RequestError(
        `${id}: path parameter ${JSON.stringify(name)} is required (${op.method.toUpperCase()} ${op.path})`,
      )
    return encodeURIComponent(String(value))
  })
  const queryNames = names(op, 'query')
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(args.query ?? {})) {
    if (!queryNames.includes(name))
      throw new RequestError(
        `${id}: query parameter ${JSON.stringify(name)} is not one of this operation's (${listed(queryNames)})`,
      )
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, String(one))
  }
  const query = search.toString()
  return query ? `${filled}?${query}` : filled
}

/** Method, headers and body (the target adds its credentials). */
export function operationInit(op: OperationSpec, args: OperationArgs): RequestInit {
  const headers = new Headers(args.headers ?? {})
  const init: RequestInit = { method: op.method.toUpperCase(), headers, redirect: 'manual' }
  if (args.body === undefined) return init
  if (!op.body)
    throw new RequestError(`${op.operationId} takes no request body; pass its input as path or query parameters`)
  if (op.body.contentType !== 'application/json') {
    throw new RequestError(
      `${op.operationId} takes ${op.body.contentType} (files), which call_operation cannot send; it sends JSON bodies only (upload builds with \`ferry publish\`)`,
    )
  }
  headers.set('content-type', 'application/json')
  init.body = JSON.stringify(args.body)
  return init
}
