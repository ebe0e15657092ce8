/**
 * @module POST /mcp: the Model Context Protocol for agents, over the same gate as the API. The
 * route refuses what the stateless transport must not take (a session id, a foreign Origin),
 * signs the caller in with their bearer token as every operation does, limits tool calls per
 * token, and hands the message to the MCP server the runtime wired in (`Services.mcp`) with the
 * operations that token may call.
 */
import type { AuthUser } from '../auth/auth-user.ts'
import { FixedWindows, secondsUntil } from '../auth/fixed-windows.ts'
import { holds, isMatrixPermission } from '../auth/permissions.ts'
import { authenticate } from '../auth/sessions.ts'
import { forbidden, notFound, tooManyRequests, validationProblem } from '../core/problem.ts'
import type { Handlers } from '../http/respond.ts'
import type { Services } from '../http/services.ts'
import { operations, type OperationId, type OperationSpec } from '../http/spec.ts'

export const DEFAULT_MCP_CALLS_PER_MINUTE = 60
/** Tokens and addresses whose tool calls are counted at once; the least recent beyond it are forgotten. */
const MAX_COUNTED_CALLERS = 10_000
/** Operations an API token may never call (token management needs a person who logged in). */
const NOT_BY_API_TOKEN = new Set<OperationId>(['createApiToken', 'listApiTokens', 'revokeApiToken'])

/**
 * Whether the caller may call `op` as an MCP tool: every read their role allows; a write only with
 * its grant in the permission matrix (or, for the team's settings, as the admin), so a read-only
 * token gets no write tool. Not offered: sign-up, login, device reports, uploads (multipart), /mcp.
 */
export function offeredToCaller(user: AuthUser, op: OperationSpec): boolean {
  if (op.body && op.body.contentType !== 'application/json') return false
  if (user.tokenId !== undefined && NOT_BY_API_TOKEN.has(op.operationId)) return false
  const perm = op.permission
  if (perm === 'admin') return user.role === 'admin'
  if (isMatrixPermission(perm)) return holds(user, perm)
  if (op.method === 'get') return perm !== 'signupKey'
  return perm === 'authenticated'
}

function jsonRpcErrorMessage(text: string): string {
  try {
    const error: unknown = Reflect.get(JSON.parse(text) as object, 'error')
    const message: unknown = error && typeof error === 'object' ? Reflect.get(error, 'message') : undefined
    if (typeof message === 'string') return `is not a JSON-RPC message the server takes: ${message}`
  } catch {
    // Not JSON: said below.
  }
  return 'is not a JSON-RPC message the server takes'
}

const isToolCall = (message: unknown) =>
  message !== null && typeof message === 'object' && Reflect.get(message, 'method') === 'tools/call'

export function mcpHandlers(s: Services): Pick<Handlers, 'callMcp'> {
  const calls = new FixedWindows(s.config.mcpCallsPerMinute, 60_000, MAX_COUNTED_CALLERS, () => s.now().getTime())
  const publicOrigin = s.config.publicUrl ? new URL(s.config.publicUrl).origin : undefined
  return {
    async callMcp(c, input) {
      if (!s.mcp) throw notFound('This server does not serve MCP (the in-browser sandbox has no /mcp).')
      if (input.header['Mcp-Session-Id'] !== undefined)
        throw validationProblem([
          {
            field: 'Mcp-Session-Id',
            message: 'is not accepted: this MCP endpoint is stateless and keeps no sessions; send no session id',
          },
        ])
      // A page on another site, or one that rebound its name to this server, names itself in Origin.
      const own = publicOrigin ?? new URL(c.req.url).origin
      const origin = s.header(c, 'origin')
      if (origin !== undefined && origin !== own)
        throw forbidden(
          `Origin ${origin} may not call /mcp: only ${own} may (a guard against DNS rebinding); agents send no Origin.`,
        )
      const accept = s.header(c, 'accept') ?? ''
      if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
        throw validationProblem([
          { field: 'Accept', message: 'must list both application/json and text/event-stream (MCP Streamable HTTP)' },
        ])
      const authorization = s.header(c, 'authorization')
      const user = authorization === undefined ? undefined : await authenticate(s, authorization)
      if (isToolCall(input.body)) {
        const key = user ? (user.tokenId ?? user.id) : `address ${s.clientIp(c) ?? 'unknown'}`
        const wait = calls.hit(key)
        if (wait !== undefined)
          throw tooManyRequests(
            `This ${user ? 'token' : 'address'} made ${s.config.mcpCallsPerMinute} tool calls in the last minute (FERRY_MCP_CALLS_PER_MINUTE); retry in ${secondsUntil(wait)} s.`,
            secondsUntil(wait),
          )
      }
      const offered = new Set(
        user ? operations.filter((op) => offeredToCaller(user, op)).map((op) => op.operationId) : [],
      )
      const base = new URL(c.req.url).origin
      const address = s.clientIp(c)
      const answer = await s.mcp.handle(c.req.raw, input.body, {
        operations: offered,
        origin: publicOrigin ?? base,
        send: (path, init) => {
          const headers = new Headers(init.headers)
          if (authorization !== undefined) headers.set('authorization', authorization)
          return s.self(new Request(new URL(path, base), { ...init, headers }), address)
        },
      })
      // The transport refuses a message that is not JSON-RPC with a JSON-RPC error; as problem+json here.
      if (answer.status >= 400)
        throw validationProblem([{ pointer: '/', message: jsonRpcErrorMessage(await answer.text()) }])
      return answer
    },
  }
}
