/**
 * @module The server's /mcp operation tools: one tool per API operation the caller's token may
 * call, named by its operationId, its arguments the operation's own parameters. Each call goes
 * through the server's gate as the token (so writes are audited as it) and its answer is checked
 * against the contract, as call_operation does.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z, type ZodTypeAny } from 'zod'
import type { McpCaller } from '../contract/mcp-endpoint.ts'
import { callOperation } from './call-operation.ts'
import type { Contract, OperationInfo } from './contract.ts'
import type { OperationArgs, Scalar } from './operation-request.ts'
import type { Target } from './target.ts'
import { callSummary } from './tools.ts'

const scalar = z.union([z.string(), z.number(), z.boolean()])

/** The tool's arguments: each path and query parameter by name, `headers` and `body` where the operation takes them. */
function inputShape(info: OperationInfo): Record<string, ZodTypeAny> {
  const shape: Record<string, ZodTypeAny> = {}
  for (const p of info.spec.parameters) {
    if (p.in === 'header') continue
    const described = p.in === 'path' ? scalar : z.union([scalar, z.array(scalar)])
    shape[p.name] = p.required ? described : described.optional()
  }
  if (info.spec.parameters.some((p) => p.in === 'header'))
    shape.headers = z
      .record(z.string())
      .optional()
      .describe(
        `Request headers: ${info.spec.parameters
          .filter((p) => p.in === 'header')
          .map((p) => p.name)
          .join(', ')}`,
      )
  if (info.spec.body) shape.body = info.spec.body.required ? z.unknown() : z.unknown().optional()
  return shape
}

const isScalar = (v: unknown): v is Scalar => ['string', 'number', 'boolean'].includes(typeof v)
const isStringRecord = (v: unknown): v is Record<string, string> =>
  v !== null && typeof v === 'object' && Object.values(v).every((x) => typeof x === 'string')

/** The tool's arguments (already checked against `inputShape`) as call_operation's request parts. */
function operationArgs(info: OperationInfo, args: Record<string, unknown>): OperationArgs {
  const path: Record<string, Scalar> = {}
  const query: Record<string, Scalar | Scalar[]> = {}
  for (const p of info.spec.parameters) {
    const value = args[p.name]
    if (p.in === 'path' && isScalar(value)) path[p.name] = value
    if (p.in === 'query' && (isScalar(value) || (Array.isArray(value) && value.every(isScalar)))) query[p.name] = value
  }
  const headers = isStringRecord(args.headers) ? args.headers : undefined
  return { path, query, headers, ...(args.body !== undefined ? { body: args.body } : {}) }
}

export function registerOperationTools(server: McpServer, contract: Contract, caller: McpCaller): void {
  const target: Target = {
    name: 'server',
    label: `this Ferry server (${caller.origin}), as your token`,
    base: new URL(`${caller.origin}/`),
    allowsWrites: true,
    send: caller.send,
  }
  for (const info of contract.operations) {
    const op = info.spec
    if (!caller.operations.has(op.operationId)) continue
    const method = op.method.toUpperCase()
    const reads = method === 'GET'
    server.registerTool(
      op.operationId,
      {
        title: info.summary || op.operationId,
        description: [
          `${method} ${op.path}: ${info.summary}`,
          reads ? 'Reads; changes nothing.' : `Writes (${op.permission}), as your token; recorded in the audit log.`,
          'The answer is checked against the contract. describe_operation gives the full schemas.',
        ].join(' '),
        inputSchema: inputShape(info),
        annotations: {
          readOnlyHint: reads,
          destructiveHint: method === 'DELETE',
          idempotentHint: reads || method === 'DELETE',
          openWorldHint: false,
        },
      },
      async (args: Record<string, unknown>) => {
        const result = await callOperation(info, operationArgs(info, args), target)
        return {
          content: [{ type: 'text' as const, text: callSummary(result, target.label) }],
          structuredContent: { ...result },
          ...(result.status >= 400 ? { isError: true } : {}),
        }
      },
    )
  }
}
