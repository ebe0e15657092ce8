/**
 * @module `ferry mcp` in an installed Ferry (no checkout, so no sandbox): with a server (FERRY_URL
 * or --url) it relays stdio to that server's /mcp with the token, so the agent gets the tools the
 * token may call; without one it serves the docs tools from the packed library.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { packageVersion, ROOT, type McpRunOptions } from './stdio.ts'
import { loadShared, registerDocsTools } from './tools.ts'

const stdinClosed = () =>
  new Promise<void>((resolve) => {
    process.stdin.once('end', resolve)
    process.stdin.once('close', resolve)
  })

/** Relays every message between stdio and `<url>/mcp`; a refused request gets a JSON-RPC error naming why. */
export async function runMcpBridge(server: { url: URL; token: string | undefined }, err: McpRunOptions['err']) {
  const endpoint = new URL('mcp', server.url.href.endsWith('/') ? server.url : new URL(`${server.url.href}/`))
  const remote = new StreamableHTTPClientTransport(endpoint, {
    ...(server.token ? { requestInit: { headers: { authorization: `Bearer ${server.token}` } } } : {}),
  })
  const local = new StdioServerTransport()
  const closed = stdinClosed()
  remote.onmessage = (message) => void local.send(message)
  remote.onerror = (error) => err(`ferry mcp: ${endpoint.href}: ${error.message}`)
  local.onmessage = (message: JSONRPCMessage) => {
    remote.send(message).catch((error: unknown) => {
      if (!isJSONRPCRequest(message)) return
      const why = error instanceof Error ? error.message : String(error)
      void local.send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: -32000, message: `${endpoint.href} refused the request: ${why}` },
      })
    })
  }
  await remote.start()
  await local.start()
  err(
    `ferry mcp: relaying stdio to ${endpoint.href}${server.token ? ' with FERRY_TOKEN' : ' without a token (docs tools only)'}`,
  )
  await closed
  await remote.close()
  await local.close()
}

/** The docs tools on stdio, from the packed library. */
export async function runDocsStdio(err: McpRunOptions['err']): Promise<void> {
  const mcp = new McpServer(
    { name: 'ferry', title: 'Ferry docs', version: packageVersion() },
    {
      instructions:
        'Ferry is a self-hosted update server for desktop apps. search_docs and read_page read its guides and API reference; list_operations and describe_operation its HTTP API contract. Set FERRY_URL and FERRY_TOKEN to reach a server and call its API.',
    },
  )
  registerDocsTools(mcp, await loadShared(ROOT))
  const closed = stdinClosed()
  await mcp.connect(new StdioServerTransport())
  err('ferry mcp: ready on stdio with the docs tools; set FERRY_URL and FERRY_TOKEN to reach a server')
  await closed
  await mcp.close()
}
