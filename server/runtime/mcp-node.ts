/**
 * @module The MCP server of `/mcp` for the Node runtime (mcp/server-endpoint.ts), with the docs
 * and the contract it serves, loaded once per process.
 */
import path from 'node:path'
import type { McpEndpoint } from '../../contract/mcp-endpoint.ts'

const ROOT = path.join(import.meta.dirname, '..', '..')

export async function nodeMcpEndpoint(version: string): Promise<McpEndpoint> {
  const [{ serverMcpEndpoint }, { loadShared }] = await Promise.all([
    import('../../mcp/server-endpoint.ts'),
    import('../../mcp/tools.ts'),
  ])
  return serverMcpEndpoint(loadShared(ROOT), version)
}
