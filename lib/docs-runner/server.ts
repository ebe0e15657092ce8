/**
 * @module The real Ferry server for a page's runnable blocks: `tsx server/runtime/node.ts` (what
 * `npm run server` runs) in the page's working directory, on a free port of 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'

export interface DocsServer {
  port: number
  /** Everything the server has written to stdout so far (its JSON log lines). */
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

/**
 * Parses a start command shown in the docs: optional `VAR=value` assignments, then
 * `npm run server`. Anything else is refused, so the page cannot show one thing while the test runs another.
 */
export function parseStartCommand(command: string): Record<string, string> {
  const words = command.trim().split(/\s+/)
  const env: Record<string, string> = {}
  while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [name, ...rest] = (words.shift() as string).split('=')
    env[name as string] = rest.join('=').replace(/^['"]|['"]$/g, '')
  }
  if (words.join(' ') !== 'npm run server') throw new Error(`a runnable=server block must be "[VAR=value …] npm run server", got ${JSON.stringify(command)}`)
  return env
}

export async function startDocsServer(repoRoot: string, cwd: string, env: Record<string, string>, port: number): Promise<DocsServer> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('FERRY_')))
  const child: ChildProcess = spawn(join(repoRoot, 'node_modules/.bin/tsx'), [join(repoRoot, 'server/runtime/node.ts')], {
    cwd,
    env: { ...inherited, ...env, FERRY_HOST: '127.0.0.1', FERRY_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d: Buffer) => { stdout += d.toString() })
  child.stderr?.on('data', (d: Buffer) => { stderr += d.toString() })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with status ${child.exitCode} at start:\n${stderr}${stdout}`)
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/health`)
      if (res.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`the server did not answer /v1/health within 30 s:\n${stderr}${stdout}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    port,
    log: () => stdout,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}
