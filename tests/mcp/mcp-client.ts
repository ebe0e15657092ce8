/** The MCP SDK's own client against `ferry mcp` run as a child process through the package's bin, over stdio or HTTP. */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
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

export interface FerryMcpHttp {
  /** `http://127.0.0.1:<port>/mcp`, as the server printed it. */
  url: URL
  connect(requestInit?: RequestInit): Promise<Client>
  stop(): Promise<void>
}

/** `ferry mcp --http --port 0` as a child process; resolves once it prints the URL it listens on. */
export async function startFerryMcpHttp(args: string[] = []): Promise<FerryMcpHttp> {
  const env = { ...process.env }
  for (const name of Object.keys(env)) if (name.startsWith('FERRY_')) delete env[name]
  const child = spawn(
    process.execPath,
    [join(ROOT, 'scripts', 'ferry-bin.mjs'), 'mcp', '--http', '--port', '0', ...args],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  const exited = once(child, 'exit')
  let stderr = ''
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk
      const found = /ready on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)
      if (found?.[1]) resolve(new URL(found[1]))
    })
    void exited.then(([code]) => reject(new Error(`ferry mcp --http exited with ${String(code)}:\n${stderr}`)))
  })
  const clients: Client[] = []
  return {
    url,
    async connect(requestInit) {
      const client = new Client({ name: 'ferry-tests', version: '1.0.0' })
      await client.connect(new StreamableHTTPClientTransport(url, requestInit ? { requestInit } : {}))
      clients.push(client)
      return client
    },
    async stop() {
      await Promise.all(clients.map((c) => c.close()))
      child.kill('SIGTERM')
      await exited
    },
  }
}
