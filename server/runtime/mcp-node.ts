/**
 * @module The MCP server of `/mcp` for the Node runtime (mcp/server-endpoint.ts), with the docs
 * and the contract it serves, loaded once per process: from the packed library of an installed
 * Ferry, or a checkout's sources. A copy without mcp/ (the container image) serves no /mcp.
 */
import path from 'node:path'
import type { McpEndpoint } from '../../contract/mcp-endpoint.ts'

const ROOT = path.join(import.meta.dirname, '..', '..')

/** The endpoint, or `undefined` with the reason when this copy of Ferry has no MCP server or docs. */
export async function nodeMcpEndpoint(version: string): Promise<McpEndpoint | { missing: string }> {
  try {
    const [{ serverMcpEndpoint }, { loadShared }] = await Promise.all([
      import('../../mcp/server-endpoint.ts'),
      import('../../mcp/tools.ts'),
    ])
    return serverMcpEndpoint(await loadShared(ROOT), version)
  } catch (error) {
    // No mcp/, or neither its packed library nor a checkout's sources: serve the API without /mcp.
    const code = (error as NodeJS.ErrnoException | undefined)?.code
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'ENOENT') throw error
    return { missing: error instanceof Error ? error.message : String(error) }
  }
}
