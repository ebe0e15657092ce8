/**
 * @module `ferry mcp`: the MCP server on stdin/stdout until the client closes stdin. stdout
 * carries only the protocol; diagnostics go to stderr.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { sandboxTarget, serverTarget } from './targets.ts'
import { createFerryMcpServer, loadShared } from './tools.ts'

export interface McpRunOptions {
  /** The real server, when FERRY_URL or --url gives one. */
  server?: { url: URL; token: string | undefined } | undefined
  allowWrites: boolean
  err(line: string): void
}

export const ROOT = path.join(import.meta.dirname, '..')

export const packageVersion = (): string =>
  (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version

export async function runMcpStdio(options: McpRunOptions): Promise<void> {
  const version = packageVersion()
  const sandbox = sandboxTarget()
  const server = options.server && serverTarget(options.server.url, options.server.token, options.allowWrites)
  const mcp = createFerryMcpServer({ root: ROOT, version, sandbox, server, shared: await loadShared(ROOT) })
  const transport = new StdioServerTransport()
  const closed = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve)
    process.stdin.once('close', resolve)
  })
  await mcp.connect(transport)
  options.err(
    `ferry mcp: ready on stdio; call_operation targets the sandbox${server ? ` and ${server.label} (writes ${server.allowsWrites ? 'allowed' : 'refused'})` : ''}`,
  )
  await closed
  await mcp.close()
  await sandbox.close()
}
