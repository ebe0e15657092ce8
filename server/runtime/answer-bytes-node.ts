/**
 * @module The bytes of a cached answer, encoded once per answer for both of Node's exits: the
 * node:http lane (`update-lane-node.ts`: `writeHead` with Content-Length, `end` with the body's
 * bytes) and the lean front (`lean-http-node.ts`: the whole response as node:http writes it, only
 * the Date line made again, once a second). Kept per headers object: a cached answer's are the
 * same object each time, whichever cache holds it (the Redis cache hands out the same answer
 * object while Redis holds the same bytes).
 */
import { STATUS_CODES } from 'node:http'
import type { LaneReply } from '../app.ts'

interface Encoded {
  status: number
  body: string | null
  /** The answer's headers, with Content-Length when it has a body (what `writeHead` gets). */
  headers: Record<string, string>
  bytes: Buffer | undefined
  /** Status line and header lines as node:http writes them, Date and connection headers excepted. */
  head: string
  /** The last raw response made, for its Date and connection headers. */
  raw: { date: string; keepAlive: string; bytes: Buffer } | undefined
}

const encoded = new WeakMap<Record<string, string>, Encoded>()

function encoding(reply: LaneReply): Encoded {
  let entry = encoded.get(reply.headers)
  if (entry?.status === reply.status && entry.body === reply.body) return entry
  const bytes = reply.body === null ? undefined : Buffer.from(reply.body)
  const headers = bytes ? { ...reply.headers, 'content-length': String(bytes.length) } : reply.headers
  let head = `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? 'unknown'}\r\n`
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`
  entry = { status: reply.status, body: reply.body, headers, bytes, head, raw: undefined }
  encoded.set(reply.headers, entry)
  return entry
}

/** What node:http's `writeHead(status, headers).end(body)` gets for `reply`. */
export function replyForNodeHttp(reply: LaneReply): { headers: Record<string, string>; body: Buffer | undefined } {
  const { headers, bytes } = encoding(reply)
  return { headers, body: bytes }
}

/**
 * The response node:http writes for `writeHead(status, headers).end(body)` on a keep-alive
 * connection: `date` is the Date header's value, `keepAlive` the connection header lines.
 */
export function rawResponse(reply: LaneReply, date: string, keepAlive: string): Buffer {
  const entry = encoding(reply)
  const { raw } = entry
  if (raw?.date === date && raw.keepAlive === keepAlive) return raw.bytes
  const head = `${entry.head}Date: ${date}\r\n${keepAlive}`
  let bytes: Buffer
  if (entry.bytes) bytes = Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), entry.bytes])
  else if (reply.status === 204 || reply.status === 304) bytes = Buffer.from(`${head}\r\n`, 'latin1')
  // No body and no length: node:http sends an empty chunked body.
  else bytes = Buffer.from(`${head}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 'latin1')
  entry.raw = { date, keepAlive, bytes }
  return bytes
}
