/**
 * @module Comparing what a command printed with the output a page shows. Values that differ on
 * every run (ids, tokens, timestamps, dates, signatures, timings, ports, temp paths) are replaced by
 * placeholders on both sides; everything else — field names, statuses, hashes, messages — must match.
 */
import { isDeepStrictEqual } from 'node:util'

export interface RunContext {
  /** Port the docs show (8080) → port the test server really listens on. */
  ports: Map<number, number>
}

const VOLATILE: Array<[RegExp, string]> = [
  [/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, '<jwt>'],
  [/\b(usr|tm|ver|art|ch|pl|ar|req|rul)_[A-Za-z0-9]{6,}/g, '$1_<id>'],
  [/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, '<timestamp>'],
  // RFC 822 dates in GMT, as RSS writes them (a Sparkle appcast's pubDate).
  [
    /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT\b/g,
    '<timestamp>',
  ],
  // A JSON string that is exactly a calendar date (telemetry's days): the day the page ran.
  [/"\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])"/g, '"<date>"'],
  [/expires=\d+&signature=[0-9a-f]{64}/g, 'expires=<expires>&signature=<signature>'],
  // A Tauri update signature: minisign text in base64 ("untrusted comment:" encodes as dW50cnVzdGVkIGNvbW1lbnQ6).
  // A real one (a fresh key, a timestamp) is over 300 characters; short stand-ins stay compared.
  [/dW50cnVzdGVkIGNvbW1lbnQ6[A-Za-z0-9+/]{300,}={0,2}/g, '<minisign signature>'],
  [/"(time|pid|uptimeSeconds|latencyMs|ms)":\s*\d+(?:\.\d+)?/g, '"$1":0'],
  [/"hostname":\s*"[^"]*"/g, '"hostname":"<host>"'],
  [/^(date|keep-alive):.*$/gim, '$1: <volatile>'],
  // Seconds left in a login limiter's window: depends on how long the page took to get there.
  [/^(retry-after):\s*\d+$/gim, '$1: <seconds>'],
  [/try again in \d+ seconds/g, 'try again in <n> seconds'],
  // Absolute paths of a data directory: the reader's checkout vs the test's temp dir. A page's own
  // folder (scratch/<page>/) stays, so the output names the directory its command gave.
  [/(?:\/[\w.+-]+)+?((?:\/scratch\/[\w.-]+)?\/data(?:\/[\w.-]+)*)/g, '<dir>$1'],
]

/** Replaces run-specific values by placeholders; the real port is mapped back to the one the docs show. */
export function normalize(text: string, ctx: RunContext): string {
  let out = text.replace(/\r\n/g, '\n')
  for (const [shown, real] of ctx.ports) {
    out = out.replace(new RegExp(`(127\\.0\\.0\\.1|localhost):${real}\\b`, 'g'), `$1:${shown}`)
  }
  for (const [pattern, replacement] of VOLATILE) out = out.replace(pattern, replacement)
  return out
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .trim()
}

/** One JSON document, or one JSON value per line (log output), or `undefined` if it is not JSON. */
function parseJsonish(text: string): unknown[] | undefined {
  try {
    return [JSON.parse(text)]
  } catch {
    const lines = text.split('\n').filter((l) => l.trim() !== '')
    try {
      return lines.length > 1 ? lines.map((l) => JSON.parse(l)) : undefined
    } catch {
      return undefined
    }
  }
}

/** `undefined` when `actual` matches `expected`, else a description of the first difference. */
export function compareOutput(expected: string, actual: string, ctx: RunContext): string | undefined {
  const want = normalize(expected, ctx)
  const got = normalize(actual, ctx)
  const wantJson = parseJsonish(want)
  const gotJson = parseJsonish(got)
  if (wantJson && gotJson) {
    if (isDeepStrictEqual(wantJson, gotJson)) return undefined
    return `JSON differs\n--- page shows (normalised)\n${want}\n--- command printed (normalised)\n${got}`
  }
  if (want === got) return undefined
  const wl = want.split('\n')
  const gl = got.split('\n')
  const n = wl.findIndex((l, k) => l !== gl[k])
  const at = n === -1 ? wl.length : n
  return (
    `output differs at line ${at + 1}: page shows ${JSON.stringify(wl[at] ?? '(end)')}, command printed ${JSON.stringify(gl[at] ?? '(end)')}` +
    `\n--- page shows (normalised)\n${want}\n--- command printed (normalised)\n${got}`
  )
}
