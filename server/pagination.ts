/** @module Opaque cursors (base64url JSON) and page slicing shared by every list. */
import { validationProblem } from './problem.ts'

export function encodeCursor(value: Record<string, unknown>): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value))
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** Decodes a cursor; a malformed one is a 400 naming `cursor`. */
export function decodeCursor<T extends Record<string, unknown>>(cursor: unknown, check: (v: Record<string, unknown>) => boolean): T | undefined {
  if (cursor === undefined) return undefined
  try {
    const s = atob(String(cursor).replace(/-/g, '+').replace(/_/g, '/'))
    const bytes = Uint8Array.from(s, (ch) => ch.charCodeAt(0))
    const value = JSON.parse(new TextDecoder().decode(bytes)) as unknown
    if (value && typeof value === 'object' && check(value as Record<string, unknown>)) return value as T
  } catch {
    // fall through
  }
  throw validationProblem([{ field: 'cursor', message: 'is not a cursor returned by this list' }])
}

/** Given `limit + 1` rows, the page and the cursor of the next one. */
export function page<R, I>(rows: R[], limit: number, toItem: (r: R) => I, cursorOf: (r: R) => Record<string, unknown>) {
  const more = rows.length > limit
  const slice = more ? rows.slice(0, limit) : rows
  const last = slice[slice.length - 1]
  return { items: slice.map(toItem), nextCursor: more && last !== undefined ? encodeCursor(cursorOf(last)) : null }
}
