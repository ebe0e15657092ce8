/**
 * Starts Debian's Varnish (`varnishd`) in the foreground on a free 127.0.0.1 port for one test
 * file or benchmark, in front of `backends` (round robin): its own work dir (`-n`), the VCL
 * `edgeVcl` writes, no privilege jail, 64 MiB of memory storage; stopped by its pid.
 *
 * The VCL is the one pages/docs/performance.mdx shows: Varnish's built-in rules decide what is
 * cached (a `Cache-Control: private, no-store` answer never is), and a `PURGE` or `BAN` from
 * 127.0.0.1 bans every object whose `Surrogate-Key` holds one of the keys in `X-Purge-Keys`.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const BINARY = '/usr/sbin/varnishd'

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

/** The VCL in front of Ferry instances at `backends` (`host:port`). */
export function edgeVcl(backends: string[]): string {
  const names = backends.map((_, i) => `ferry${i}`)
  return [
    'vcl 4.1;',
    'import directors;',
    'import std;',
    ...backends.map((b, i) => {
      const [host, port] = b.split(':')
      return `backend ${names[i]} { .host = "${host}"; .port = "${port}"; }`
    }),
    'acl purgers { "127.0.0.1"; }',
    'sub vcl_init {',
    '  new ferry = directors.round_robin();',
    ...names.map((n) => `  ferry.add_backend(${n});`),
    '}',
    'sub vcl_recv {',
    '  set req.backend_hint = ferry.backend();',
    '  if (req.method == "PURGE" || req.method == "BAN") {',
    '    if (client.ip !~ purgers) { return (synth(405, "Not allowed")); }',
    '    if (!req.http.X-Purge-Keys) { return (synth(400, "X-Purge-Keys missing")); }',
    '    # Keys are tokens of [A-Za-z0-9%._-], space-separated: one alternation of them.',
    '    if (std.ban("obj.http.Surrogate-Key ~ (^|[[:space:]])(" + regsuball(regsuball(req.http.X-Purge-Keys, "[^A-Za-z0-9%._ -]", ""), " +", "|") + ")([[:space:]]|$)")) {',
    '      return (synth(200, "Banned"));',
    '    }',
    '    return (synth(400, std.ban_error()));',
    '  }',
    '}',
  ].join('\n')
}

export interface Varnish {
  url: string
  port: number
  stop(): Promise<void>
}

/** Runs varnishd on `port` (default: a free one) with `vcl`. */
export async function startVarnish(vcl: string, port?: number): Promise<Varnish> {
  if (!existsSync(BINARY))
    throw new Error(`${BINARY} is missing: install it with "apt-get install -y varnish" (.ci/run does)`)
  const listen = port ?? (await freePort())
  const dir = mkdtempSync(join(tmpdir(), 'ferry-varnish-'))
  const file = join(dir, 'ferry.vcl')
  writeFileSync(file, vcl)
  const child = spawn(
    BINARY,
    [
      '-F',
      '-j',
      'none',
      '-n',
      join(dir, 'work'),
      '-a',
      `127.0.0.1:${listen}`,
      '-T',
      '127.0.0.1:0',
      '-f',
      file,
      '-s',
      'malloc,64m',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString()
  })
  child.stderr.on('data', (d: Buffer) => {
    output += d.toString()
  })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(child.pid, 'SIGTERM')
      await exited
    }
    rmSync(dir, { recursive: true, force: true })
  }
  const deadline = Date.now() + 30_000
  while (!(await accepts(listen))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const message = `varnishd did not start (exit ${child.exitCode}):\n${output}\n--- ${file}:\n${readFileSync(file, 'utf8')}`
      await stop()
      throw new Error(message)
    }
    await new Promise((done) => setTimeout(done, 50))
  }
  return { url: `http://127.0.0.1:${listen}`, port: listen, stop }
}
