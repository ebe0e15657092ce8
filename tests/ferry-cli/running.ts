/**
 * A long-running `ferry server` started as a user would (npx, the bin, another Node): its pino
 * lines as they come, `listening`'s URL, and what a SIGTERM to the outermost process leads to.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { connect } from 'node:net'

export interface Running {
  child: ChildProcess
  url: string
  /** The server's own pid (from its log), which may be a descendant of `child`. */
  pid: number
  /** The data directory the server logged with `listening`. */
  dataDir: string
  /** The `msg` of each JSON line on stdout so far. */
  messages: string[]
  stderr: () => string
  /** Exit code and signal of the outermost process, once every holder of its stdout let go. */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** Spawns `command` and resolves once the server logs `listening` (rejects if it exits first). */
export function startRunning(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; detached?: boolean },
): Promise<Running> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
  const messages: string[] = []
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('close', (code, signal) => done({ code, signal })),
  )
  return new Promise((resolve, reject) => {
    let buffer = ''
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      const lines = buffer.split('\n')
      buffer = lines.pop() ?? ''
      for (const line of lines) {
        if (!line.startsWith('{')) continue
        const parsed = JSON.parse(line) as { msg: string; pid: number; url?: string; dataDir?: string }
        messages.push(parsed.msg)
        if (parsed.msg === 'listening' && parsed.url)
          resolve({
            child,
            url: parsed.url,
            pid: parsed.pid,
            dataDir: parsed.dataDir ?? '',
            messages,
            stderr: () => stderr,
            closed,
          })
      }
    })
    void closed.then(({ code, signal }) =>
      reject(new Error(`${command} ${args.join(' ')} exited (${code ?? signal}) before listening:\n${stderr}`)),
    )
  })
}

/** Resolves true once a TCP connection to `url`'s port is refused (the port is closed). */
export function portClosed(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((done) => {
    const socket = connect(Number(port), hostname)
    socket.once('connect', () => {
      socket.destroy()
      done(false)
    })
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED'))
  })
}

/** The major version of the Node at `path`, or undefined when there is none. */
export function nodeMajor(path: string): Promise<number | undefined> {
  return new Promise((done) => {
    const probe = spawn(path, ['--version'])
    let out = ''
    probe.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    probe.once('error', () => done(undefined))
    probe.once('close', () => done(out ? Number(out.trim().slice(1).split('.')[0]) : undefined))
  })
}
