/**
 * `ferry mcp [--http [--port <n>]]`: the MCP server of mcp/, its flags checked here. Wired in
 * scripts/ferry.ts beside `server`, so the CLI's modules (lib/ferry-cli/) never import mcp/.
 */
import { parseArgs } from 'node:util'
import { CONNECTION_OPTIONS, connectionUrl, parseCommand } from '../lib/ferry-cli/args.ts'
import { DEFAULT_MCP_PORT, HELP } from '../lib/ferry-cli/commands.ts'
import { usageError } from '../lib/ferry-cli/errors.ts'
import type { Io } from '../lib/ferry-cli/output.ts'

/** `ferry mcp` serves the docs of a checkout: the installed package (package.json `files`) has none. */
const checkoutOnly = <T>(loading: Promise<T>): Promise<T> =>
  loading.catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException | undefined)?.code !== 'ERR_MODULE_NOT_FOUND') throw error
    throw usageError(
      "mcp: runs in a checkout of Ferry's repository, which holds the docs it serves; this install has none",
    )
  })

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
  if (values.http) {
    const { runMcpHttp } = await checkoutOnly(import('../mcp/http.ts'))
    return runMcpHttp({ ...run, port }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException | undefined)?.code !== 'EADDRINUSE') throw error
      throw usageError(`mcp: port ${port} on 127.0.0.1 is in use: pick another with --port`)
    })
  }
  const { runMcpStdio } = await checkoutOnly(import('../mcp/stdio.ts'))
  await runMcpStdio(run)
}
