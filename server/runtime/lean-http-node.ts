/**
 * @module A lean HTTP/1.1 front for the update lane (FERRY_LEAN_HTTP). It reads a plain-HTTP
 * connection's bytes itself and answers cached update answers from bytes encoded once per answer
 * (only the Date line changes, once a second as in node:http), without node:http's request and
 * response objects. At the first request it does not read completely and strictly (any method
 * but GET, a body or its headers, Expect, Upgrade, Connection other than keep-alive, a repeated
 * header, obs-fold, any byte outside printable ASCII, an incomplete or oversized header block,
 * HTTP/1.0) or that is not a lane hit, it hands the connection to node:http for good: the unread
 * bytes go back into the socket (`unshift`) at that request's start and the server gets the
 * socket as a new connection. node:http's parser then reads those bytes first and in order, so
 * node:http answers every request the front does not, errors (400, 431) and timeouts included.
 * After its first answer the front waits for a request's whole header block itself, under the
 * keep-alive timeout, as node:http does (its keep-alive timer runs until a request's headers are
 * complete), while the bytes may still become a head it reads (`mayBecomeHead`); the first
 * request's partial bytes go to node:http at once, under its headers timeout.
 *
 * It leans on node:http internals (a socket re-emitted as a connection after `unshift`, the
 * parser reading what was put back first), so it runs only on the Node major it was tested on
 * (`leanFrontTested`). Its connections end with the server's `close()`, `closeIdleConnections()`
 * and `closeAllConnections()`, as node:http's own.
 */
import { maxHeaderSize, type Server } from 'node:http'
import type { Socket } from 'node:net'
import type { CachedAnswerRequest, LaneReply } from '../app.ts'
import { rawResponse } from './answer-bytes-node.ts'
import type { ClientAddress } from './client-address-node.ts'
import { pinnedNodeMajor } from './require-node.ts'
import { noteHandedOverMiss, type CachedAnswer } from './update-lane-node.ts'

/** Whether `version` is the Node major the front was tested on: the one .nvmrc pins, which CI runs. */
export const leanFrontTested = (version: string): boolean => Number(version.split('.')[0]) === pinnedNodeMajor

/** Longest header block the front reads; a longer one goes to node:http (and its 431 past its limit). */
const MAX_HEAD = 8 * 1024
const HEAD_END = Buffer.from('\r\n\r\n', 'latin1')
const PRINTABLE = /^[\t\r\n\x20-\x7e]*$/
const REQUEST_LINE = /^GET (\/[\x21-\x7e]*) HTTP\/1\.1$/
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[\t ]*(.*)$/
/** Headers whose request the front leaves to node:http: bodies, protocol switches, expectations. */
const FOREIGN = new Set(['content-length', 'transfer-encoding', 'expect', 'upgrade', 'http2-settings'])

interface Head {
  target: string
  headers: Map<string, string>
  host: string
  /** Offset of the byte after the header block. */
  end: number
}

/** A complete GET request without a body read strictly from `buf`, or `undefined`. */
export function readHead(buf: Buffer): Head | undefined {
  const at = buf.indexOf(HEAD_END)
  if (at === -1 || at > MAX_HEAD) return undefined
  const text = buf.toString('latin1', 0, at)
  if (!PRINTABLE.test(text)) return undefined
  const lines = text.split('\r\n')
  const target = REQUEST_LINE.exec(lines[0] ?? '')?.[1]
  if (target === undefined) return undefined
  const headers = new Map<string, string>()
  for (let i = 1; i < lines.length; i++) {
    const line = HEADER_LINE.exec(lines[i] ?? '')
    if (!line) return undefined
    const name = (line[1] ?? '').toLowerCase()
    const value = line[2] ?? ''
    if (headers.has(name) || FOREIGN.has(name) || value.endsWith(' ') || value.endsWith('\t')) return undefined
    headers.set(name, value)
  }
  const host = headers.get('host')
  const connection = headers.get('connection')
  if (host === undefined || (connection !== undefined && connection.toLowerCase() !== 'keep-alive')) return undefined
  return { target, headers, host, end: at + HEAD_END.length }
}

const REQUEST_LINE_START = /^GET \/[\x21-\x7e]*(?: (?:H(?:T(?:T(?:P(?:\/(?:1(?:\.1?)?)?)?)?)?)?)?)?\r?$/
const HEADER_LINE_START = /^[!#$%&'*+.^_`|~0-9A-Za-z-]*(?::[\t\x20-\x7e]*)?\r?$/

/**
 * Whether `text`, the start of a header block, may still become one `readHead` reads: node:http
 * answers at once whatever it cannot parse, so the front waits only for what both would wait for.
 */
export function mayBecomeHead(text: string): boolean {
  if (!PRINTABLE.test(text)) return false
  const lines = text.split('\r\n')
  const last = lines.length - 1
  return lines.every((line, i) => {
    if (line.includes('\n')) return false
    if (i === 0) return i === last ? 'GET /'.startsWith(line) || REQUEST_LINE_START.test(line) : REQUEST_LINE.test(line)
    return i === last ? HEADER_LINE_START.test(line) : HEADER_LINE.test(line)
  })
}

class LeanRequest implements CachedAnswerRequest {
  readonly method = 'GET'
  readonly scheme = 'http'
  constructor(
    readonly target: string,
    readonly host: string,
    private readonly headers: Map<string, string>,
    private readonly peer: string | undefined,
    private readonly address: ClientAddress,
  ) {}
  header(name: string): string | undefined {
    return this.headers.get(name)
  }
  clientIp(): string | undefined {
    return this.address(this.peer, this.headers.get('x-forwarded-for'))
  }
}

let date: string | undefined
/** The Date header's value, made once a second as node:http makes it. */
function utcDate(): string {
  if (date === undefined) {
    const now = new Date()
    date = now.toUTCString()
    setTimeout(() => (date = undefined), 1000 - now.getMilliseconds()).unref()
  }
  return date
}

export interface LeanFrontOptions {
  /** The app's cached answers; `undefined` until the app is built. */
  lane: () => CachedAnswer | undefined
  /** Read per connection: off, every connection goes to node:http at once. */
  enabled: () => boolean
  address: ClientAddress
  /** Called per request the front answered. */
  answered: () => void
}

/**
 * Puts the front before `server`'s connection handling. The server's `closeIdleConnections()`
 * (which its `close()` calls) and `closeAllConnections()` also end the front's connections; once
 * the server no longer listens, a connection busy with an answer ends when it is written.
 */
export function withLeanFront(server: Server, options: LeanFrontOptions): void {
  const nodeListeners = server.listeners('connection')
  server.removeAllListeners('connection')
  const handedOver = new WeakSet<Socket>()
  const open = new Set<LeanConnection>()
  const closeIdle = server.closeIdleConnections.bind(server)
  const closeAll = server.closeAllConnections.bind(server)
  server.closeIdleConnections = () => {
    closeIdle()
    for (const connection of open) connection.closeIfIdle()
  }
  server.closeAllConnections = () => {
    closeAll()
    for (const connection of open) connection.destroy()
  }
  const closing = () => !server.listening
  let keepAliveFor = -1
  let keepAliveText = ''
  /** node:http's keep-alive headers for the server's keepAliveTimeout. */
  const keepAlive = () => {
    if (server.keepAliveTimeout !== keepAliveFor) {
      keepAliveFor = server.keepAliveTimeout
      const seconds = Math.floor(keepAliveFor / 1000)
      keepAliveText = `Connection: keep-alive\r\n${keepAliveFor ? `Keep-Alive: timeout=${seconds}\r\n` : ''}`
    }
    return keepAliveText
  }
  const toNode = (socket: Socket) => {
    for (const listener of nodeListeners) Reflect.apply(listener, server, [socket])
  }
  server.on('connection', (socket: Socket) => {
    if (handedOver.has(socket) || closing() || !options.enabled() || server.maxRequestsPerSocket) toNode(socket)
    else open.add(new LeanConnection(socket))
  })

  class LeanConnection {
    /** Bytes received and not answered yet, from the start of a request. */
    private pending: Buffer | undefined
    private busy = false
    private pausedByUs = false
    private answeredOnce = false
    /** Handed over or ended: the front no longer writes. */
    private done = false
    private missed: { target: string; read: string } | undefined
    /** When the first bytes of the pending, incomplete header block came (after a first answer). */
    private headStarted = 0
    constructor(private readonly socket: Socket) {
      socket.on('data', this.onData)
      socket.on('end', this.onEnd)
      socket.on('error', this.onError)
      socket.on('close', this.onClose)
      socket.on('timeout', this.onTimeout)
      // node:http closes a connection whose first request's headers do not come within this time.
      socket.setTimeout(server.headersTimeout)
    }
    private readonly onData = (chunk: Buffer) => {
      this.pending = this.pending ? Buffer.concat([this.pending, chunk]) : chunk
      if (!this.busy) this.next()
      else if (!this.pausedByUs) {
        // Until the answer in progress is written: what follows may have to go to node:http.
        this.socket.pause()
        this.pausedByUs = true
      }
    }
    private readonly onEnd = () => {
      // As node:http (its httpAllowHalfOpen is false): the client's end ends the connection.
      this.done = true
      this.socket.end()
    }
    private readonly onError = () => {
      this.socket.destroy()
    }
    private readonly onClose = () => {
      open.delete(this)
    }
    private readonly onTimeout = () => {
      if (!this.busy) this.socket.destroy()
    }
    /** Idle (no answer in progress): destroyed, as node:http's `closeIdleConnections` does. */
    closeIfIdle(): void {
      if (!this.busy) this.socket.destroy()
    }
    destroy(): void {
      this.socket.destroy()
    }
    private next(): void {
      const pending = this.pending
      if (!pending) return
      const head = readHead(pending)
      if (!head && this.answeredOnce && this.incomplete(pending)) return
      this.headStarted = 0
      const request =
        head && new LeanRequest(head.target, head.host, head.headers, this.socket.remoteAddress, options.address)
      const answering = request && options.lane()?.(request)
      if (!head || !answering) return this.handOver()
      this.busy = true
      answering.then(
        (reply) => {
          if (!reply || 'missed' in reply) {
            if (reply) this.missed = { target: head.target, read: reply.missed }
            return this.handOver()
          }
          this.answered(reply, head.end)
        },
        () => this.handOver(),
      )
    }
    private answered(reply: LaneReply, end: number): void {
      this.busy = false
      const pending = this.pending
      this.pending = pending && end < pending.length ? pending.subarray(end) : undefined
      const { socket } = this
      if (this.done || !socket.writable) return
      options.answered()
      socket.write(rawResponse(reply, utcDate(), keepAlive()))
      if (!this.answeredOnce) {
        this.answeredOnce = true
        socket.setTimeout(server.keepAliveTimeout + keepAliveBuffer(server))
      }
      if (closing()) {
        socket.end()
        return
      }
      if (socket.writableNeedDrain) {
        // A client that does not read its answers: no more is read or answered until they leave.
        this.busy = true
        if (!this.pausedByUs) {
          socket.pause()
          this.pausedByUs = true
        }
        socket.once('drain', () => {
          this.busy = false
          this.proceed()
        })
        return
      }
      this.proceed()
    }
    /**
     * Whether to wait for the rest of `pending`'s header block: node:http keeps its keep-alive
     * timer running until a request's headers are complete, so the front keeps its own (the
     * socket's timeout). Past node:http's header size limit or headers timeout, node:http takes it.
     */
    private incomplete(pending: Buffer): boolean {
      if (pending.length > maxHeaderSize || pending.includes(HEAD_END)) return false
      if (!mayBecomeHead(pending.toString('latin1'))) return false
      const now = Date.now()
      if (this.headStarted === 0) this.headStarted = now
      return now - this.headStarted <= server.headersTimeout
    }
    /** The next pending request, or reading again. */
    private proceed(): void {
      if (this.done) return
      if (closing()) {
        this.socket.end()
        return
      }
      if (this.pending) this.next()
      if (this.busy || this.done) return
      if (this.pausedByUs) {
        this.pausedByUs = false
        this.socket.resume()
      }
    }
    /** node:http takes the connection from the start of the pending request on. */
    private handOver(): void {
      this.busy = false
      this.done = true
      const { socket } = this
      open.delete(this)
      socket.removeListener('data', this.onData)
      socket.removeListener('end', this.onEnd)
      socket.removeListener('error', this.onError)
      socket.removeListener('close', this.onClose)
      socket.removeListener('timeout', this.onTimeout)
      socket.setTimeout(0)
      if (socket.destroyed) return
      // Paused, the bytes put back wait in the socket's buffer, ahead of any received since;
      // node:http's parser reads that buffer when the socket resumes, before anything it reads
      // from the connection itself (it consumes the handle directly once it has the socket).
      socket.pause()
      if (this.pending) socket.unshift(this.pending)
      if (this.missed) noteHandedOverMiss(socket, this.missed.target, this.missed.read)
      handedOver.add(socket)
      server.emit('connection', socket)
      socket.resume()
    }
  }
}

/** Node 24's extra time past the advertised keep-alive timeout (`keepAliveTimeoutBuffer`), when it has one. */
function keepAliveBuffer(server: Server): number {
  const extra: unknown = Reflect.get(server, 'keepAliveTimeoutBuffer')
  return typeof extra === 'number' ? extra : 0
}
