/**
 * @module The gate in front of every handler: authentication, parameter and JSON body validation
 * against the operation's schemas, and the permission matrix; it yields the typed `Input<K>`.
 */
import { authenticate } from '../auth/sessions.ts'
import type { AuthUser } from '../auth/auth-user.ts'
import { timingSafeEqual } from '../core/crypto.ts'
import { allows, holds, isMatrixPermission } from '../auth/permissions.ts'
import type { Ctx } from './context.ts'
import { HttpProblem, forbidden, validationProblem } from '../core/problem.ts'
import type { Services } from './services.ts'
import type { Input, OperationId, OperationSpec } from './spec.ts'
import { operationValidator } from './validation.ts'

const MAX_JSON_BYTES = 1024 * 1024

const tooLarge = () => new HttpProblem('payload-too-large', `JSON bodies are limited to ${MAX_JSON_BYTES} bytes.`)

/**
 * The body as text, refusing it (413) as soon as it passes the limit rather than after reading
 * it all. Not hono/body-limit: on a chunked body it stops reading without cancelling the
 * stream, and Node then resets the connection, so the client never reads the 413.
 */
async function readBoundedText(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return ''
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let size = 0
  let text = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return text + decoder.decode()
    size += value.byteLength
    if (size > MAX_JSON_BYTES) {
      await reader.cancel().catch(() => undefined)
      throw tooLarge()
    }
    text += decoder.decode(value, { stream: true })
  }
}

async function readJson(c: Ctx): Promise<unknown> {
  const type = c.req.header('content-type') ?? ''
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    throw validationProblem([{ field: 'Content-Type', message: 'must be application/json' }])
  }
  if (Number(c.req.header('content-length') ?? 0) > MAX_JSON_BYTES) throw tooLarge()
  const text = await readBoundedText(c.req.raw.body)
  try {
    return JSON.parse(text)
  } catch {
    throw validationProblem([{ pointer: '/', message: 'must be valid JSON' }])
  }
}

/** A string member of a validated object, read without knowing the operation's type. */
function stringField(source: object, name: string): string | undefined {
  const value: unknown = Reflect.get(source, name)
  return typeof value === 'string' ? value : undefined
}

/**
 * Authentication, parameter and body validation, and permission checks for one operation;
 * resolves to the validated, typed input (a plain function rather than a middleware: one less
 * layer on every request).
 */
export function gate<K extends OperationId>(s: Services, op: OperationSpec): (c: Ctx) => Promise<Input<K>> {
  const perm = op.permission
  const validate = operationValidator<K>(op)
  const hasQuery = op.parameters.some((p) => p.in === 'query')
  const jsonBody = op.body?.contentType === 'application/json'
  return async (c) => {
    let user: AuthUser | undefined
    if (perm === 'signupKey') {
      const key = s.header(c, 'x-ferry-signup-key') ?? ''
      if (!timingSafeEqual(key, s.config.signupKey)) {
        throw new HttpProblem('invalid-signup-key', "X-Ferry-Signup-Key does not match the server's signup key.")
      }
    } else if (perm === 'apps.download') {
      // Public apps need no token; the handler decides for private ones.
      const header = s.header(c, 'authorization')
      if (header) user = await authenticate(s, header)
    } else if (perm !== 'public') {
      user = await authenticate(s, s.header(c, 'authorization'))
      if (perm === 'admin' && user.role !== 'admin') {
        throw forbidden(
          user.tokenId === undefined
            ? 'This operation needs the team admin.'
            : 'An API token never acts as the team admin; this operation needs the admin to log in.',
        )
      }
      if (isMatrixPermission(perm) && !holds(user, perm)) throw forbidden(`This operation needs ${perm}.`)
    }
    const path = c.req.param()
    const query = hasQuery ? c.req.query() : {}
    const params = validate.params((p, lower) =>
      p.in === 'path' ? path[p.name] : p.in === 'query' ? query[p.name] : s.header(c, lower),
    )
    const body = validate.body(jsonBody ? await readJson(c) : undefined)
    if (user && op.resource && perm !== 'apps.download') {
      const source = op.resource.in === 'path' ? params.path : body
      const resource = source && typeof source === 'object' ? stringField(source, op.resource.name) : undefined
      if (!allows(user, perm, resource)) throw forbidden(`This operation needs ${perm} for ${resource}.`)
    }
    c.set('user', user)
    return { path: params.path, query: params.query, header: params.header, body }
  }
}
