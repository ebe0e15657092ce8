/** @module Time as the API writes it. */

/** RFC 3339 UTC without milliseconds. */
export function timestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}
