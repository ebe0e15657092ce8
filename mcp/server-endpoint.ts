/**
 * @module The MCP server every Ferry server runs at /mcp (server/routes/mcp.ts routes to it):
 * stateless Streamable HTTP, one McpServer and transport per message, answered as JSON. The docs
 * tools for everyone, and an operation tool for each operation the caller's token may call.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { McpEndpoint } from '../contract/mcp-endpoint.ts'
import { registerOperationTools } from './operation-tools.ts'
import { registerDocsTools, type McpShared } from './tools.ts'

export function serverMcpEndpoint(shared: McpShared, version: string): McpEndpoint {
  return {
    async handle(request, message, caller) {
      const signedIn = caller.operations.size > 0
      const server = new McpServer(
        { name: 'ferry', title: 'Ferry server', version },
        {
          instructions: [
            'Ferry is a self-hosted update server for desktop apps. search_docs and read_page read its guides and API reference;',
            'list_operations and describe_operation its HTTP API contract.',
            signedIn
              ? "Each other tool is one API operation your token may call, named by its operationId; tools with readOnlyHint false change this server's data."
              : 'Send a Ferry API token (Authorization: Bearer) to get a tool for each API operation it may call.',
          ].join(' '),
        },
      )
      registerDocsTools(server, shared)
      registerOperationTools(server, shared.contract, caller)
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      })
      await server.connect(transport)
      try {
        return await transport.handleRequest(request, { parsedBody: message })
      } finally {
        await server.close()
      }
    },
  }
}
