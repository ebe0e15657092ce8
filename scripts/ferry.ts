/**
 * `ferry`: publish builds to a Ferry server and manage their rollout from a release pipeline
 * (`npx ferry publish dist --app my-app`), or run the server itself (`npx ferry server`). The
 * client's logic is in lib/ferry-cli/; `server` runs server/runtime/node.ts (scripts/ferry-server.ts),
 * `backup` and `db query` read the server's data (scripts/ferry-data.ts), `mcp` serves mcp/
 * (scripts/ferry-mcp.ts).
 */
import { main } from '../lib/ferry-cli/commands.ts'
import { backupCommand, dbCommand } from './ferry-data.ts'
import { mcpCommand } from './ferry-mcp.ts'
import { serverCommand } from './ferry-server.ts'

// npm runs a script from the package's root; the folders on the command line are the ones the
// reader typed them in (`cd dist-parent && npm run ferry -- publish dist`), which npm passes as INIT_CWD.
if (process.env.npm_lifecycle_event === 'ferry' && process.env.INIT_CWD) process.chdir(process.env.INIT_CWD)

// `ferry status … | head`: a reader that stops early closes the pipe; stop quietly, as Unix tools do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error
  process.exit(process.exitCode ?? 0)
})

process.exitCode = await main(
  process.argv.slice(2),
  {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    now: () => Date.now(),
  },
  { mcp: mcpCommand, server: serverCommand, backup: backupCommand, db: dbCommand },
)
