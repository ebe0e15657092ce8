/**
 * @module Node's fast path for file-backed responses (disk-store downloads): the app answers with
 * a web `Response` whose body `storage/blobs/file-body.ts` marks as a file span; this writes the span
 * to the socket with large positioned reads (the next read runs while the socket drains the
 * previous chunk), honours backpressure and stops when the client goes away. Converting the
 * same bytes through web streams in small chunks reached about a third of nginx's sendfile.
 */
import { ServerResponse } from 'node:http'
import { open, type FileHandle } from 'node:fs/promises'
import type { Http2Bindings, HttpBindings } from '@hono/node-server'
import { fileSpanOf, type FileSpan } from '../storage/blobs/file-body.ts'

const CHUNK = 2 * 1024 * 1024
/**
 * Read buffers kept for the next chunks and downloads: a fresh 2 MiB buffer is mapped and
 * page-faulted in by the kernel on every read, which cost a large share of the throughput. A
 * buffer comes back once its write has been handed to the socket (the write's callback).
 */
const POOL_MAX = 16
const pool: Buffer[] = []
const take = () => pool.pop() ?? Buffer.allocUnsafeSlow(CHUNK)
const give = (buffer: Buffer) => {
  if (pool.length < POOL_MAX) pool.push(buffer)
}

/** @hono/node-server leaves a response with this header alone: the body was already written. */
const ALREADY_SENT = 'x-hono-already-sent'

/**
 * The body of a response without making @hono/node-server's lightweight Response build a full
 * one (what reading `.body` does, at a cost every cached update check would pay): it keeps
 * `[status, body, headers]` under a symbol named `cache`. Falls back to `.body`.
 */
let cacheSymbol: symbol | null | undefined
function bodyOf(res: Response): unknown {
  // Looked up on the first response: the global Response is @hono/node-server's only once it listens.
  cacheSymbol ??= Object.getOwnPropertySymbols(res).find((s) => s.description === 'cache') ?? null
  if (cacheSymbol) {
    const cached: unknown = (res as unknown as Record<symbol, unknown>)[cacheSymbol]
    if (Array.isArray(cached)) return cached[1]
  }
  return res.body
}

/**
 * The answer telling @hono/node-server to write nothing. It honours the header only on a full
 * Response: a lightweight one (body null) would be written as a plain 200, so this one is made
 * full by reading `bodyUsed`.
 */
function alreadySent(): Response {
  const res = new Response(null, { headers: { [ALREADY_SENT]: '1' } })
  if (res.bodyUsed) throw new Error('unreachable: a new response has an unused body')
  return res
}

type Env = HttpBindings | Http2Bindings
type Fetch = (request: Request, env: Env) => Response | Promise<Response>

/**
 * Wraps the app's fetch: a response whose body is a file span is written by `sendFileSpan`, and
 * @hono/node-server is told it was sent; every other response passes through untouched.
 */
export function withFileResponses(fetch: Fetch, onError: (error: unknown, span: FileSpan) => void): Fetch {
  const pick = (res: Response, env: Env): Response => {
    const span = fileSpanOf(bodyOf(res))
    if (!span || !(env.outgoing instanceof ServerResponse)) return res
    void sendFileSpan(env.outgoing, res, span).catch((error: unknown) => onError(error, span))
    return alreadySent()
  }
  return (request, env) => {
    const out = fetch(request, env)
    return out instanceof Promise ? out.then((res) => pick(res, env)) : pick(out, env)
  }
}

const settled = (outgoing: ServerResponse) =>
  new Promise<void>((done) => {
    const finish = () => {
      outgoing.off('drain', finish)
      outgoing.off('close', finish)
      done()
    }
    outgoing.once('drain', finish)
    outgoing.once('close', finish)
  })

/** Writes `res`'s status and headers, then the file span; a read failure after the headers ends the connection. */
export async function sendFileSpan(outgoing: ServerResponse, res: Response, span: FileSpan): Promise<void> {
  const headers: Record<string, string> = {}
  res.headers.forEach((value, name) => {
    headers[name] = value
  })
  let handle: FileHandle
  try {
    handle = await open(span.path, 'r')
  } catch (error) {
    const body = JSON.stringify({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: "The artifact's file could not be read.",
    })
    outgoing
      .writeHead(500, { 'content-type': 'application/problem+json', 'content-length': String(Buffer.byteLength(body)) })
      .end(body)
    throw error
  }
  let closed = false
  outgoing.once('close', () => {
    closed = true
  })
  const end = span.end + 1
  /** The chunk at `position`, read into a pooled buffer. */
  const read = async (position: number) => {
    const want = Math.min(CHUNK, end - position)
    const buffer = take()
    try {
      const { bytesRead } = await handle.read(buffer, 0, want, position)
      if (bytesRead !== want)
        throw new Error(`${span.path} ended at byte ${position + bytesRead}, before byte ${span.end}`)
    } catch (error) {
      give(buffer)
      throw error
    }
    return { buffer, bytes: want }
  }
  try {
    outgoing.writeHead(res.status, headers)
    let position = span.start
    let next = position < end ? read(position) : undefined
    while (next && !closed) {
      const { buffer, bytes } = await next
      position += bytes
      next = position < end ? read(position) : undefined
      if (!outgoing.write(buffer.subarray(0, bytes), () => give(buffer)) && !closed) await settled(outgoing)
    }
    await next?.then(({ buffer }) => give(buffer)).catch(() => undefined)
    if (!closed) outgoing.end()
  } catch (error) {
    outgoing.destroy(error instanceof Error ? error : new Error(String(error)))
    throw error
  } finally {
    await handle.close()
  }
}
