/** @module Opaque cursors (base64url JSON) and page slicing shared by every list. */
import { validationProblem } from '../core/problem.ts'

export function encodeCursor(value: Record<string, unknown>): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value))
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

type CursorValue = Record<string, unknown>

/** A guard for cursors whose members are all strings or numbers as named. */
export function hasString<N extends string>(...names: N[]) {
  return (v: CursorValue): v is Record<N, string> => names.every((n) => typeof v[n] === 'string')
}
export function hasNumber<N extends string>(...names: N[]) {
  return (v: CursorValue): v is Record<N, number> => names.every((n) => Number.isSafeInteger(v[n]))
}

function isRecord(value: unknown): value is CursorValue {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Decodes a cursor; a malformed one is a 400 naming `cursor`. */
export function decodeCursor<T extends CursorValue>(
  cursor: string | undefined,
  isCursor: (v: CursorValue) => v is T,
): T | undefined {
  if (cursor === undefined) return undefined
  try {
    const s = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'))
    const bytes = Uint8Array.from(s, (ch) => ch.charCodeAt(0))
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes))
    if (isRecord(value) && isCursor(value)) return value
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
