/** The MCP SDK's own client against `ferry mcp` run as a child process through the package's bin. */
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'

const ROOT = join(import.meta.dirname, '..', '..')

export async function startFerryMcp(args: string[] = [], env: Record<string, string> = {}): Promise<Client> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !e[0].startsWith('FERRY_')),
  )
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'scripts', 'ferry-bin.mjs'), 'mcp', ...args],
    cwd: ROOT,
    env: { ...inherited, ...env },
    stderr: 'ignore',
  })
  const client = new Client({ name: 'ferry-tests', version: '1.0.0' })
  await client.connect(transport)
  return client
}

/** Calls a tool; the text of its first content block and its structured content. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  const first = result.content[0]
  return {
    text: first?.type === 'text' ? first.text : '',
    isError: result.isError === true,
    structured: result.structuredContent,
  }
}
