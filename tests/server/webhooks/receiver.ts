/**
 * A webhook receiver on 127.0.0.1 (node:http) that records every request and answers with the
 * statuses a test scripts; `next(n)` resolves once n requests arrived (tests wait on it, never sleep).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

export interface Received {
  body: string
  headers: IncomingHttpHeaders
  type: string
  id: string
}

export interface Receiver {
  url: string
  received: Received[]
  /** Resolves when `count` requests have arrived in total. */
  arrived(count: number): Promise<void>
  /** Answers with these statuses in turn, then 204 (or `hold`: never answer). */
  script(statuses: number[]): void
  /** Leave requests unanswered (the connection stays open) until `release`. */
  hold(): void
  release(): void
  close(): Promise<void>
}

/** Every signed request any receiver of this process got (requests without `webhook-id` left out), for checks over a whole suite. */
export const delivered: Received[] = []

export async function startReceiver(respond?: (res: import('node:http').ServerResponse) => void): Promise<Receiver> {
  const received: Received[] = []
  const waiters: Array<{ count: number; done: () => void }> = []
  let statuses: number[] = []
  let holding = false
  const held: Array<() => void> = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString()
    })
    req.on('end', () => {
      const parsed = JSON.parse(body) as { type: string }
      const request = { body, headers: req.headers, type: parsed.type, id: String(req.headers['webhook-id']) }
      received.push(request)
      if (req.headers['webhook-id'] !== undefined) delivered.push(request)
      for (const w of waiters.filter((w) => received.length >= w.count)) w.done()
      if (respond) return respond(res)
      const answer = () => {
        res.statusCode = statuses.shift() ?? 204
        res.end()
      }
      if (holding) held.push(answer)
      else answer()
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    arrived: (count) =>
      new Promise<void>((done) => {
        if (received.length >= count) return done()
        waiters.push({ count, done })
      }),
    script: (s) => {
      statuses = [...s]
    },
    hold: () => {
      holding = true
    },
    release: () => {
      holding = false
      for (const answer of held.splice(0)) answer()
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}

/** Verifies a request with the Standard Webhooks library; throws when the signature is wrong. */
export function verify(secret: string, r: Received): unknown {
  const headers = {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  }
  return new Webhook(secret).verify(r.body, headers)
}
