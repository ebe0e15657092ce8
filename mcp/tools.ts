/**
 * @module The MCP server and its five tools: search_docs, read_page, list_operations,
 * describe_operation, call_operation. Tool errors (an unknown page, a refused write) come back as
 * tool results with `isError`, their message saying what to do instead.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { callOperation, type CallResult } from './call-operation.ts'
import { Contract } from './contract.ts'
import { describeOperation } from './describe-operation.ts'
import { docsLibrary, type DocsLibrary } from './docs-library.ts'
import { librarySource } from './library.ts'
import type { Target, TargetName } from './target.ts'

export interface McpOptions {
  /** Repository root: pages/, openapi/. */
  root: string
  version: string
  sandbox: Target
  /** The real server from FERRY_URL / --url, when one is configured. */
  server: Target | undefined
  /** Docs and contract, loaded once (`loadShared`) and shared by every server made from them. */
  shared: McpShared
}

export interface McpShared {
  docs: DocsLibrary
  contract: Contract
  /** The site the pages' URLs name. */
  siteUrl: string
}

/** The docs and the contract, from the packed library of an installed Ferry or a checkout's sources. */
export async function loadShared(root: string): Promise<McpShared> {
  const library = await librarySource(root)
  return { docs: docsLibrary(library.pages), contract: new Contract(library), siteUrl: library.siteUrl }
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] })
const scalar = z.union([z.string(), z.number(), z.boolean()])

export function callSummary(result: CallResult, label: string): string {
  const head = `${result.request.method} ${result.request.url} → ${result.status}${result.contentType ? ` ${result.contentType}` : ''} (${label})`
  const check = result.contract.ok
    ? `Contract: the answer matches the contract.`
    : `Contract: MISMATCH, the answer contradicts the contract:\n${result.contract.problems.map((p) => `- ${p}`).join('\n')}`
  const notes = result.contract.notes.map((n) => `Note: ${n}`)
  const location = result.location ? [`Location: ${result.location}`] : []
  const body =
    result.body === null
      ? '(no body)'
      : typeof result.body === 'string'
        ? result.body
        : JSON.stringify(result.body, null, 2)
  return [head, check, ...notes, ...location, '', body].join('\n')
}

/** The tools that need no token: the docs and the contract (search_docs, read_page, list_operations, describe_operation). */
export function registerDocsTools(server: McpServer, { docs, contract, siteUrl }: McpShared): void {
  server.registerTool(
    'search_docs',
    {
      title: 'Search the Ferry docs',
      description:
        'Full-text search over the Ferry docs, API reference and blog (the Markdown twins of the site). Returns the best sections with their page route; read one with read_page.',
      inputSchema: {
        query: z.string().min(1).max(200).describe('Words to look for, e.g. "rollout percentage" or "tauri signature"'),
        scope: z
          .enum(['current', 'docs', 'api', 'blog', 'frozen'])
          .default('current')
          .describe('current: docs, API reference and blog of this version (default); frozen: older docs versions'),
        limit: z.number().int().min(1).max(20).default(8),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ query, scope, limit }) => {
      const hits = await docs.search(query, { limit, scope })
      if (hits.length === 0)
        return text(
          `No page of scope "${scope}" mentions ${JSON.stringify(query)}. Try other words, or scope "frozen" for older versions.`,
        )
      return text(
        hits
          .map(
            (h, i) =>
              `${i + 1}. ${h.title}${h.heading ? ` › ${h.heading}` : ''}\n   page: ${h.route} (${h.section})\n   ${h.snippet}`,
          )
          .join('\n\n'),
      )
    },
  )

  server.registerTool(
    'read_page',
    {
      title: 'Read a Ferry docs page',
      description:
        'One page of the Ferry site as Markdown (its twin, as served at <route>.md), by route such as /docs/rollouts, by .md path or by full URL.',
      inputSchema: {
        page: z.string().min(1).max(500).describe('Route, e.g. /docs/intro or /docs/api/apps/create-app'),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ page }) => {
      const twin = await docs.read(page)
      return text(`URL: ${siteUrl}${twin.route}\nSource: ${twin.file}\n\n${twin.markdown}`)
    },
  )

  server.registerTool(
    'list_operations',
    {
      title: 'List the Ferry API operations',
      description:
        'Every operation of the Ferry HTTP API contract (openapi/openapi.yaml): operationId, method, path, summary, tag and who may call it.',
      inputSchema: {
        tag: z.string().max(80).optional().describe('Only operations with this tag, e.g. apps, versions, updates'),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ tag }) => {
      const listed = contract.operations.filter((o) => !tag || o.tags.includes(tag))
      if (listed.length === 0) {
        const tags = [...new Set(contract.operations.flatMap((o) => o.tags))]
        return {
          ...text(`No operation has the tag ${JSON.stringify(tag)}; the tags are ${tags.join(', ')}.`),
          isError: true,
        }
      }
      return text(
        listed
          .map(
            (o) =>
              `${o.spec.operationId}: ${o.spec.method.toUpperCase()} ${o.spec.path}: ${o.summary} [${o.tags.join(', ')}; ${o.spec.permission}]`,
          )
          .join('\n'),
      )
    },
  )

  server.registerTool(
    'describe_operation',
    {
      title: 'Describe one Ferry API operation',
      description:
        'The contract of one operation as JSON: parameters, request body schema, documented responses, the success schemas and the component schemas they use, and its reference page.',
      inputSchema: { operationId: z.string().min(1).max(80).describe('e.g. createApp, checkForUpdate') },
      annotations: { readOnlyHint: true },
    },
    async ({ operationId }) => {
      const info = contract.get(operationId)
      const route = await contract.referenceRoute(info)
      return text(JSON.stringify(describeOperation(info, route && `${siteUrl}${route}`), null, 2))
    },
  )
}

export function createFerryMcpServer(options: McpOptions): McpServer {
  const defaultTarget: TargetName = options.server ? 'server' : 'sandbox'
  const server = new McpServer(
    { name: 'ferry', title: 'Ferry docs and API', version: options.version },
    {
      instructions: [
        'Ferry is a self-hosted update server for desktop apps. Use search_docs and read_page for the guides and the API reference,',
        'list_operations and describe_operation for the HTTP API contract, and call_operation to try an operation.',
        `call_operation defaults to ${defaultTarget === 'server' ? options.server?.label : options.sandbox.label}.`,
        options.server && !options.server.allowsWrites
          ? 'Writes (POST, PATCH, DELETE) to the real server are refused; the sandbox accepts them.'
          : '',
      ]
        .filter(Boolean)
        .join(' '),
    },
  )

  registerDocsTools(server, options.shared)

  server.registerTool(
    'call_operation',
    {
      title: 'Call a Ferry API operation',
      description: [
        'Sends one request for an operation and checks the answer against the contract (status, content type, JSON schema).',
        `target "sandbox" is Ferry itself running in this process on in-memory storage, seeded with the demo data (apps harbor-notes, lighthouse-admin, tidewatch) and signed in as the demo admin; it accepts writes and forgets them when the MCP server stops.`,
        options.server
          ? `target "server" is ${options.server.label}, with the configured token; ${options.server.allowsWrites ? 'writes are allowed (--allow-writes)' : 'only GET operations are allowed, writes are refused unless the MCP server was started with --allow-writes'}.`
          : 'No real server is configured (set FERRY_URL and FERRY_TOKEN to add target "server").',
        'JSON bodies only: uploads (multipart) are not possible here.',
      ].join(' '),
      inputSchema: {
        operationId: z.string().min(1).max(80),
        target: z.enum(['sandbox', 'server']).default(defaultTarget),
        path: z.record(scalar).optional().describe('Path parameters, e.g. {"app": "harbor-notes"}'),
        query: z
          .record(z.union([scalar, z.array(scalar)]))
          .optional()
          .describe('Query parameters, e.g. {"version": "1.0.0", "platform": "windows", "arch": "x64"}'),
        headers: z.record(z.string()).optional().describe('Extra request headers, e.g. {"x-ferry-device-id": "…"}'),
        body: z.unknown().optional().describe('The JSON request body, for operations that take one'),
      },
      outputSchema: {
        target: z.enum(['sandbox', 'server']),
        request: z.object({ method: z.string(), url: z.string() }),
        status: z.number().int(),
        contentType: z.string(),
        body: z.unknown(),
        location: z.string().optional(),
        bytes: z.number().int(),
        truncated: z.boolean(),
        contract: z.object({ ok: z.boolean(), problems: z.array(z.string()), notes: z.array(z.string()) }),
      },
    },
    async ({ operationId, target: name, ...args }) => {
      const target = name === 'server' ? options.server : options.sandbox
      if (!target)
        return {
          ...text(
            'No real server is configured: start ferry mcp with FERRY_URL and FERRY_TOKEN set (or --url/--token), or use target "sandbox".',
          ),
          isError: true,
        }
      const result = await callOperation(options.shared.contract.get(operationId), args, target)
      return { ...text(callSummary(result, target.label)), structuredContent: { ...result } }
    },
  )

  return server
}
