/**
 * Starts Debian's nginx as an unprivileged foreground process for one test file: a temp prefix
 * holds its configuration, pid file, error log and temp folders (`-p`, `-c`, `-e`), it listens on
 * free 127.0.0.1 ports only, and it is stopped by its pid.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const BINARY = '/usr/sbin/nginx'

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))))
    })
  })
}

const accepts = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end()
      done(true)
    })
    socket.once('error', () => done(false))
  })

/**
 * A self-signed certificate for `host` (with it as subject alternative name, as clients check),
 * valid one day, written as `fullchain.pem` and `privkey.pem` in `dir` where the guides name
 * Let's Encrypt's files.
 */
export function throwawayCertificate(dir: string, host: string): { cert: string; key: string } {
  const cert = join(dir, 'fullchain.pem')
  const key = join(dir, 'privkey.pem')
  const subject = ['-subj', `/CN=${host}`, '-addext', `subjectAltName=DNS:${host}`]
  const files = ['-days', '1', '-keyout', key, '-out', cert]
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', ...subject, ...files], { stdio: 'ignore' })
  return { cert, key }
}

export interface Nginx {
  stop(): Promise<void>
}

export interface NginxOptions {
  /** Pins nginx (master and worker) to this CPU with `taskset` (benchmarks). */
  cpu?: number
  workerConnections?: number
  /** Directives of the `http {}` context (e.g. `sendfile on;`). */
  http?: string[]
}

/**
 * Runs nginx with `servers` (each the body of a `server {}` block, listening on its port) inside
 * one `http {}` block; `main`: directives of the main context (e.g. `user`).
 */
export async function startNginx(
  servers: Array<{ port: number; body: string }>,
  main: string[] = [],
  options: NginxOptions = {},
): Promise<Nginx> {
  if (!existsSync(BINARY))
    throw new Error(`${BINARY} is missing: install it with "apt-get install -y nginx-light" (.ci/run does)`)
  const prefix = mkdtempSync(join(tmpdir(), 'ferry-nginx-'))
  const temp = (name: string) => `${name}_temp_path ${join(prefix, name)};`
  const config = [
    'daemon off;',
    'worker_processes 1;',
    ...main,
    `pid ${join(prefix, 'nginx.pid')};`,
    `error_log ${join(prefix, 'error.log')} warn;`,
    `events { worker_connections ${options.workerConnections ?? 64}; }`,
    'http {',
    '  access_log off;',
    ...(options.http ?? []).map((line) => `  ${line}`),
    `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
    ...servers.map(({ port, body }) => `  server {\n    listen 127.0.0.1:${port};\n${body}\n  }`),
    '}',
  ].join('\n')
  const file = join(prefix, 'nginx.conf')
  writeFileSync(file, config)
  const args = ['-p', prefix, '-c', file, '-e', join(prefix, 'error.log')]
  const child =
    options.cpu === undefined
      ? spawn(BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('taskset', ['-c', String(options.cpu), BINARY, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString()
  })
  child.stderr.on('data', (d: Buffer) => {
    output += d.toString()
  })
  const exited = new Promise<number | null>((done) => child.once('exit', done))
  const log = () =>
    `${output}${existsSync(join(prefix, 'error.log')) ? readFileSync(join(prefix, 'error.log'), 'utf8') : ''}\n--- ${file}:\n${config}`
  const stop = async () => {
    const pid = child.pid
    if (child.exitCode === null && child.signalCode === null && pid !== undefined) {
      process.kill(pid, 'SIGQUIT') // graceful shutdown of the master and its worker
      await exited
    }
    rmSync(prefix, { recursive: true, force: true })
  }
  // Ready once every port accepts a connection; a configuration error ends the process first.
  const deadline = Date.now() + 10_000
  for (const { port } of servers) {
    while (!(await accepts(port))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        const message = `nginx did not start (exit ${child.exitCode}):\n${log()}`
        await stop()
        throw new Error(message)
      }
      await new Promise((done) => setTimeout(done, 50))
    }
  }
  return { stop }
}
