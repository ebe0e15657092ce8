/**
 * @module Node's fast lane for cached update answers: before @hono/node-server builds a web
 * `Request`, the app's `cachedAnswer` is asked; a hit is written straight to node:http's
 * response (status, the app's headers, the body's length), anything else goes to the Hono
 * listener as before. Profiled, the adapter and Hono's routing and middleware were most of a
 * cached check's CPU time.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { CachedAnswerRequest, LaneReply } from '../app.ts'

type Listener = (incoming: IncomingMessage, outgoing: ServerResponse) => unknown
export type CachedAnswer = (req: CachedAnswerRequest) => Promise<LaneReply | undefined> | undefined

/** How often the lane answered (tests check it did; the numbers are not exported as metrics). */
export interface LaneCount {
  answered: number
}

/** A request header as the app's `requestHeader` hook reads it. */
export function incomingHeader(incoming: IncomingMessage, name: string): string | undefined {
  const value = incoming.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

/** Headers with Content-Length, per headers object: a cached answer's are the same object each time. */
const sized = new WeakMap<Record<string, string>, { length: number; headers: Record<string, string> }>()

function write(outgoing: ServerResponse, reply: LaneReply): void {
  if (reply.body === null) {
    outgoing.writeHead(reply.status, reply.headers).end()
    return
  }
  const length = Buffer.byteLength(reply.body)
  let entry = sized.get(reply.headers)
  if (entry?.length !== length) {
    entry = { length, headers: { ...reply.headers, 'content-length': String(length) } }
    sized.set(reply.headers, entry)
  }
  outgoing.writeHead(reply.status, entry.headers).end(reply.body)
}

/**
 * `listener` with the lane in front. `lane()` is read per request: `undefined` until the app is
 * built (the listener answers then). `address` is the client address as the app's `clientIp` reads it.
 */
export function withUpdateLane(
  listener: Listener,
  lane: () => CachedAnswer | undefined,
  address: (incoming: IncomingMessage) => string | undefined,
  count: LaneCount,
): Listener {
  return (incoming, outgoing) => {
    const found = lane()?.({
      method: incoming.method ?? '',
      scheme: 'encrypted' in incoming.socket && incoming.socket.encrypted === true ? 'https' : 'http',
      host: incoming.headers.host,
      target: incoming.url ?? '',
      header: (name) => incomingHeader(incoming, name),
      clientIp: () => address(incoming),
    })
    if (!found) return listener(incoming, outgoing)
    return found.then(
      (reply) => {
        if (!reply) return listener(incoming, outgoing)
        count.answered++
        write(outgoing, reply)
      },
      () => listener(incoming, outgoing),
    )
  }
}
