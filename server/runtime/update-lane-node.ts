/**
 * @module Node's fast lane for cached update answers: before @hono/node-server builds a web
 * `Request`, the app's `cachedAnswer` is asked; a hit is written straight to node:http's
 * response (status, the app's headers, the body's length), anything else goes to the Hono
 * listener as before; after a miss, with the read that missed (`laneMissed`), which the handler
 * does not make again. Profiled, the adapter and Hono's routing and middleware were most of a
 * cached check's CPU time.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { CachedAnswerRequest, LaneReply } from '../app.ts'
import type { LaneMiss } from '../routes/update-lane.ts'
import { replyForNodeHttp } from './answer-bytes-node.ts'

type Listener = (incoming: IncomingMessage, outgoing: ServerResponse) => unknown
export type CachedAnswer = (req: CachedAnswerRequest) => Promise<LaneReply | LaneMiss | undefined> | undefined

/** The answer-cache read the lane made and missed, per request it passed to the listener. */
const missedReads = new WeakMap<IncomingMessage, string>()

/** The read the lane missed for this request (the app's `laneMissed` hook). */
export const laneMissed = (incoming: IncomingMessage): string | undefined => missedReads.get(incoming)

/** Per socket the lean front (`lean-http-node.ts`) handed over after a miss: the missed request's target and read. */
const handedOverMisses = new WeakMap<Socket, { target: string; read: string }>()

/** The lean front missed the read `read` for the request `target` it then handed over with `socket`. */
export function noteHandedOverMiss(socket: Socket, target: string, read: string): void {
  handedOverMisses.set(socket, { target, read })
}

/** How often the lane answered (tests check it did; the numbers are not exported as metrics). */
export interface LaneCount {
  answered: number
}

/** A request header as the app's `requestHeader` hook reads it. */
export function incomingHeader(incoming: IncomingMessage, name: string): string | undefined {
  const value = incoming.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

function write(outgoing: ServerResponse, reply: LaneReply): void {
  const { headers, body } = replyForNodeHttp(reply)
  outgoing.writeHead(reply.status, headers).end(body)
}

/** node:http's request as the lane reads it; methods rather than closures made per request. */
class IncomingLaneRequest implements CachedAnswerRequest {
  readonly method: string
  readonly scheme: string
  readonly host: string | undefined
  readonly target: string
  constructor(
    private readonly incoming: IncomingMessage,
    private readonly address: (incoming: IncomingMessage) => string | undefined,
  ) {
    this.method = incoming.method ?? ''
    this.scheme = 'encrypted' in incoming.socket && incoming.socket.encrypted === true ? 'https' : 'http'
    this.host = incoming.headers.host
    this.target = incoming.url ?? ''
  }
  header(name: string): string | undefined {
    return incomingHeader(this.incoming, name)
  }
  clientIp(): string | undefined {
    return this.address(this.incoming)
  }
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
    const handed = handedOverMisses.get(incoming.socket)
    if (handed) {
      // The first request after the hand-over is the one the front missed: not read again.
      handedOverMisses.delete(incoming.socket)
      if (handed.target === incoming.url && incoming.method === 'GET') {
        missedReads.set(incoming, handed.read)
        return listener(incoming, outgoing)
      }
    }
    const found = lane()?.(new IncomingLaneRequest(incoming, address))
    if (!found) return listener(incoming, outgoing)
    return found.then(
      (reply) => {
        if (!reply) return listener(incoming, outgoing)
        if ('missed' in reply) {
          missedReads.set(incoming, reply.missed)
          return listener(incoming, outgoing)
        }
        count.answered++
        write(outgoing, reply)
      },
      () => listener(incoming, outgoing),
    )
  }
}
