/**
 * `ferry server [--port <n>] [--data-dir <dir>]`: the Node server (server/runtime/node.ts, the
 * same entry as `npm run server` and the container), its flags turned into the variables it reads.
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { parseCommand } from '../lib/ferry-cli/args.ts'
import { HELP } from '../lib/ferry-cli/commands.ts'
import { usageError } from '../lib/ferry-cli/errors.ts'
import type { Io } from '../lib/ferry-cli/output.ts'

/** The variables `ferry server <argv>` sets: a relative --data-dir is the caller's folder's. */
export function serverEnv(argv: string[], env: NodeJS.ProcessEnv, cwd: string): NodeJS.ProcessEnv | 'help' {
  const { values } = parseCommand('server', () =>
    parseArgs({
      args: argv,
      allowPositionals: false,
      strict: true,
      options: { port: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }),
  )
  if (values.help) return 'help'
  const port = values.port
  if (port !== undefined && (!/^\d{1,5}$/.test(port) || Number(port) > 65535))
    throw usageError(`server: --port must be a whole number from 0 to 65535, not ${JSON.stringify(port)}`)
  const dataDir = values['data-dir']
  if (dataDir === '') throw usageError('server: --data-dir needs a folder')
  return {
    ...env,
    ...(port !== undefined ? { FERRY_PORT: port } : {}),
    ...(dataDir !== undefined ? { FERRY_DATA_DIR: resolve(cwd, dataDir) } : {}),
  }
}

export async function serverCommand(argv: string[], io: Io): Promise<void> {
  const env = serverEnv(argv, io.env, process.cwd())
  if (env === 'help') return io.out(HELP.server ?? '')
  // Loaded only for this command: the CLI's other commands never load the server.
  const { runServer } = await import('../server/runtime/node.ts')
  // Taken before start-up: the parent may be gone by the time the server listens.
  const parent = process.ppid
  // Returns once the server listens; it then runs until SIGTERM or SIGINT ends the process.
  await runServer(env)
  if (io.env.npm_command) stopWithParent(parent)
}

const PARENT_CHECK_MS = 500

/**
 * Under npm (`npx ferry server`, `npm run ferry -- server`) this process is the child of a shell
 * that npm started (`sh -c`, which Debian's dash does not replace with the command). npm passes
 * SIGTERM on to that shell, which dies of it without passing it on: this process would be left
 * serving, adopted by init. It notices its parent has gone and stops as on SIGTERM. So the
 * `ferry` script runs Node itself, not tsx's CLI: that would be the parent, and outlive the shell.
 * (No `exec` in that script, unlike `server`'s: the publish step runs it on Windows, under cmd.)
 */
function stopWithParent(parent: number): void {
  const watching = setInterval(() => {
    if (process.ppid === parent) return
    clearInterval(watching)
    process.kill(process.pid, 'SIGTERM')
  }, PARENT_CHECK_MS)
  watching.unref()
}
