/**
 * @module `ferry mcp --http`: the same MCP server over Streamable HTTP at `http://127.0.0.1:<port>/mcp`,
 * until SIGINT or SIGTERM. Stateless, as the SDK recommends for request/response tools: each POST gets
 * a fresh McpServer and transport, so nothing is kept per client; the docs, the contract and the
 * sandbox are shared by all requests. It listens on 127.0.0.1 only and refuses foreign Host and
 * Origin headers (loopback-guard.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { foreignRequest, loopbackNames } from './loopback-guard.ts'
import { sandboxTarget, serverTarget } from './targets.ts'
import { createFerryMcpServer, loadShared } from './tools.ts'
import { packageVersion, ROOT, type McpRunOptions } from './stdio.ts'

export const MCP_PATH = '/mcp'
/** A JSON-RPC message above this is refused (413) before it is parsed. */
export const MAX_REQUEST_BYTES = 1024 * 1024

function rpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }))
}

/** The body as JSON, or the status and message to refuse it with. */
async function readJson(req: IncomingMessage): Promise<{ json: unknown } | { status: number; message: string }> {
  const chunks: Buffer[] = []
  let bytes = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    bytes += chunk.length
    if (bytes > MAX_REQUEST_BYTES)
      return { status: 413, message: `request body over ${MAX_REQUEST_BYTES} bytes: refused` }
    chunks.push(chunk)
  }
  try {
    return { json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }
  } catch (error) {
    return {
      status: 400,
      message: `request body is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    }
  }
}

export async function runMcpHttp(options: McpRunOptions & { port: number }): Promise<void> {
  const sandbox = sandboxTarget()
  const real = options.server && serverTarget(options.server.url, options.server.token, options.allowWrites)
  const shared = await loadShared(ROOT)
  const version = packageVersion()
  let names = loopbackNames(options.port)

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refused = foreignRequest({ host: req.headers.host, origin: req.headers.origin }, names)
    if (refused) return rpcError(res, 403, refused)
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== MCP_PATH)
      return rpcError(res, 404, `no MCP endpoint here: it is ${MCP_PATH}`)
    // Stateless: there is no session to stream notifications on (GET) or to end (DELETE).
    if (req.method !== 'POST')
      return rpcError(res, 405, `${req.method} is not supported: POST to ${MCP_PATH}`, { allow: 'POST' })
    const body = await readJson(req)
    if ('status' in body) return rpcError(res, body.status, body.message)
    const mcp = createFerryMcpServer({ root: ROOT, version, sandbox, server: real, shared })
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    res.on('close', () => {
      void transport.close()
      void mcp.close()
    })
    await mcp.connect(transport)
    await transport.handleRequest(req, res, body.json)
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.err(`ferry mcp: ${error instanceof Error ? error.message : String(error)}`)
      if (!res.headersSent) rpcError(res, 500, 'internal error')
      else res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    // EADDRINUSE included: the command (scripts/ferry-mcp.ts) says which flag picks another port.
    http.once('error', reject)
    http.listen(options.port, '127.0.0.1', resolve)
  })
  const { port } = http.address() as AddressInfo
  names = loopbackNames(port)
  options.err(
    `ferry mcp: ready on http://127.0.0.1:${port}${MCP_PATH}; call_operation targets the sandbox${real ? ` and ${real.label} (writes ${real.allowsWrites ? 'allowed' : 'refused'})` : ''}`,
  )
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  http.closeAllConnections()
  await new Promise((resolve) => http.close(resolve))
  await sandbox.close()
}
