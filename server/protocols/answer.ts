/** @module A rendered update answer: status, headers and body as plain data, so it can be cached anywhere. */

export interface Answer {
  status: number
  headers: Record<string, string>
  body: string
  /** Id of the version the answer offers, if any: the update check records the offer for health reports. */
  offered?: string
  /** Every device gets this answer alike, so a CDN may keep it (`server/cache/edge-headers.ts`). */
  shared?: boolean
}

export const noUpdate = (): Answer => ({ status: 204, headers: { 'cache-control': 'no-store' }, body: '' })

export function jsonAnswer(data: unknown): Answer {
  return {
    status: 200,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    body: JSON.stringify(data),
  }
}
