/**
 * @module The real Ferry server for a page's runnable blocks: `node server/runtime/start.mjs` (what
 * `npm run server` runs) in the page's working directory, on a free port of 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'

export interface DocsServer {
  port: number
  /** Everything this server process has written to stdout so far (its JSON log lines). */
  log(): string
  stop(): Promise<void>
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer()
    probe.once('error', fail)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => done(port))
    })
  })
}

export interface StartCommand {
  env: Record<string, string>
  /** `npm run server > ferry.log`: the file (in the working directory) that receives the log. */
  logFile?: string
  /** `npm run --silent server` (or `-s`): npm writes no banner before the server's log. */
  silent?: boolean
}

/**
 * Parses a start command shown in the docs: optional `VAR=value` assignments, `npm run server`
 * (or `npm run --silent server`, `npm run -s server`), optionally `> file`. Anything else is
 * refused, so the page cannot show one thing while the test runs another.
 */
export function parseStartCommand(command: string): StartCommand {
  const words = command.trim().split(/\s+/)
  const env: Record<string, string> = {}
  let logFile: string | undefined
  if (words.length >= 2 && words[words.length - 2] === '>') {
    logFile = words.pop()
    words.pop()
  }
  while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [name, ...rest] = (words.shift() as string).split('=')
    env[name as string] = rest.join('=').replace(/^['"]|['"]$/g, '')
  }
  const silent = words[2] === '--silent' || words[2] === '-s'
  if (silent) words.splice(2, 1)
  if (words.join(' ') !== 'npm run server')
    throw new Error(
      `a runnable=server block must be "[VAR=value …] npm run [--silent] server [> file]", got ${JSON.stringify(command)}`,
    )
  return { env, ...(logFile ? { logFile } : {}), ...(silent ? { silent } : {}) }
}

/**
 * What `npm run server` writes to standard output before the server starts (npm 11): a blank
 * line, `> name@version script`, `> command`, a blank line. `--silent` leaves it out. A reader's
 * terminal and a `> file` redirect get it, so the runner writes it too.
 */
export function npmBanner(cwd: string): string {
  const pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as {
    name: string
    version: string
    scripts: Record<string, string>
  }
  return `\n> ${pkg.name}@${pkg.version} server\n> ${pkg.scripts.server}\n\n`
}

/** Starts `node server/runtime/start.mjs` of the checkout in `cwd` (what `npm run server` runs there). */
export async function startDocsServer(
  cwd: string,
  { env, logFile, silent }: StartCommand,
  port: number,
  readyWithinMs = 30_000,
): Promise<DocsServer> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env }
  for (const name of Object.keys(childEnv)) if (name.startsWith('FERRY_')) delete childEnv[name]
  Object.assign(childEnv, env, { FERRY_HOST: '127.0.0.1', FERRY_PORT: String(port) })
  // With `> file` the server writes straight into the file, as under a shell redirect, so a
  // log line is in the file before the response that caused it reaches the client.
  const logPath = logFile ? join(cwd, logFile) : undefined
  const banner = silent ? '' : npmBanner(cwd)
  const logFd = logPath ? openSync(logPath, 'a') : undefined
  // A restart appends to the same file; this process's log starts after what is there.
  const logStart = logPath ? readFileSync(logPath, 'utf8').length : 0
  if (logFd !== undefined && banner) writeSync(logFd, banner)
  const child: ChildProcess = spawn(process.execPath, ['server/runtime/start.mjs'], {
    cwd,
    env: childEnv,
    stdio: ['ignore', logFd ?? 'pipe', 'pipe'],
  })
  if (logFd !== undefined) closeSync(logFd)
  let piped = banner
  let stderr = ''
  child.stdout?.on('data', (d: Buffer) => {
    piped += d.toString()
  })
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString()
  })
  const stdout = () => (logPath ? readFileSync(logPath, 'utf8').slice(logStart) : piped)
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const deadline = Date.now() + readyWithinMs
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`the server exited with status ${child.exitCode} at start:\n${stderr}${stdout()}`)
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/health`)
      if (res.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`the server did not answer /v1/health within ${readyWithinMs / 1000} s:\n${stderr}${stdout()}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  // The page's log file shows what a reader's server writes: without the runner's readiness
  // probe. The server is idle now and appends (O_APPEND), so rewriting the file is safe.
  // pino writes asynchronously, so the probe's line can land after its response: wait for it.
  if (logPath) {
    const isProbe = (l: string) => l.includes('"path":"/v1/health"') && l.includes('"msg":"request"')
    const probeDeadline = Date.now() + 5_000
    let text = readFileSync(logPath, 'utf8')
    while (!text.slice(logStart).split('\n').some(isProbe) && Date.now() < probeDeadline) {
      await new Promise((r) => setTimeout(r, 20))
      text = readFileSync(logPath, 'utf8')
    }
    const lines = text.split('\n')
    // The last request line: earlier ones may be the page's own (before a restart).
    const probe = lines.findLastIndex(isProbe)
    if (probe !== -1) lines.splice(probe, 1)
    writeFileSync(logPath, lines.join('\n'))
  }
  return {
    port,
    log: stdout,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}
