/** @module A rendered update answer: status, headers and body as plain data, so it can be cached anywhere. */
import { secured, withSecurityHeaders } from '../response-headers.ts'

export interface Answer {
  status: number
  headers: Record<string, string>
  body: string
  /** Id of the version the answer offers, if any: the update check records the offer for health reports. */
  offered?: string
}

export const noUpdate = (): Answer => ({ status: 204, headers: { 'cache-control': 'no-store' }, body: '' })

export function jsonAnswer(data: unknown): Answer {
  return { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: JSON.stringify(data) }
}

export function toResponse(a: Answer): Response {
  return secured(new Response(a.status === 204 || a.status === 302 ? null : a.body, { status: a.status, headers: withSecurityHeaders(a.headers) }))
}
