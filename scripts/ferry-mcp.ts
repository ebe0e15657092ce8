/**
 * `ferry mcp [--http [--port <n>]]`: the MCP server of mcp/, its flags checked here. Wired in
 * scripts/ferry.ts beside `server`, so the CLI's modules (lib/ferry-cli/) never import mcp/.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { PACKED_LIBRARY } from '../mcp/library-shape.ts'
import { CONNECTION_OPTIONS, connectionUrl, parseCommand } from '../lib/ferry-cli/args.ts'
import { DEFAULT_MCP_PORT, HELP } from '../lib/ferry-cli/commands.ts'
import { usageError } from '../lib/ferry-cli/errors.ts'
import type { Io } from '../lib/ferry-cli/output.ts'

/** An installed Ferry carries the packed docs library and no sandbox (mcp/bridge.ts); a checkout has the sources. */
const installed = () => existsSync(path.join(import.meta.dirname, '..', PACKED_LIBRARY))

export async function mcpCommand(argv: string[], io: Io): Promise<void> {
  const { values } = parseCommand('mcp', () =>
    parseArgs({
      args: argv,
      allowPositionals: false,
      strict: true,
      options: {
        ...CONNECTION_OPTIONS,
        'allow-writes': { type: 'boolean' },
        http: { type: 'boolean' },
        port: { type: 'string' },
      },
    }),
  )
  if (values.help) return io.out(HELP.mcp ?? '')
  const rawUrl = values.url ?? io.env.FERRY_URL
  const server = rawUrl
    ? { url: connectionUrl(values.url ? '--url' : 'FERRY_URL', rawUrl), token: values.token ?? io.env.FERRY_TOKEN }
    : undefined
  if (values['allow-writes'] && !server)
    throw usageError(
      'mcp: --allow-writes applies to a real server: set FERRY_URL (or pass --url); the sandbox accepts writes anyway',
    )
  if (values.port !== undefined && !values.http) throw usageError('mcp: --port applies to --http')
  const port = values.port === undefined ? DEFAULT_MCP_PORT : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw usageError(`mcp: --port must be a whole number from 0 to 65535, not ${JSON.stringify(values.port)}`)
  const run = { server, allowWrites: values['allow-writes'] === true, err: io.err }
  // Loaded here: the SDK, sql.js and the docs sources are only needed by this command.
  if (installed() && values.http)
    throw usageError(
      "mcp: --http serves the in-process sandbox, which only a checkout of Ferry's repository has; point the agent at a Ferry server's /mcp instead",
    )
  if (installed()) {
    const { runDocsStdio, runMcpBridge } = await import('../mcp/bridge.ts')
    return server ? runMcpBridge(server, io.err) : runDocsStdio(io.err)
  }
  if (values.http) {
    const { runMcpHttp } = await import('../mcp/http.ts')
    return runMcpHttp({ ...run, port }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException | undefined)?.code !== 'EADDRINUSE') throw error
      throw usageError(`mcp: port ${port} on 127.0.0.1 is in use: pick another with --port`)
    })
  }
  const { runMcpStdio } = await import('../mcp/stdio.ts')
  await runMcpStdio(run)
}
