/**
 * `npm start` / `npm run serve` (scripts/serve-site.mjs) serve out/ to this machine only, unless
 * --host or HOST says otherwise. The script runs from a copy of the checkout's layout (scripts/,
 * node_modules/, a one-page out/), so the test needs no build.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'

const root = join(import.meta.dirname, '..', '..')
const checkout = mkdtempSync(join(tmpdir(), 'ferry-serve-site-'))
after(() => rmSync(checkout, { recursive: true, force: true }))
mkdirSync(join(checkout, 'scripts'))
mkdirSync(join(checkout, 'out'))
copyFileSync(join(root, 'scripts', 'serve-site.mjs'), join(checkout, 'scripts', 'serve-site.mjs'))
symlinkSync(join(root, 'node_modules'), join(checkout, 'node_modules'))
writeFileSync(join(checkout, 'out', 'index.html'), '<!doctype html><title>Ferry</title>\n')

async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done))
  const address = probe.address()
  await new Promise<void>((done) => probe.close(() => done()))
  if (typeof address !== 'object' || !address) throw new Error('no free port')
  return address.port
}

/** Whether a TCP connection to host:port is accepted (false: refused). */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((done, fail) => {
    const socket = connect(port, host)
    socket.once('connect', () => {
      socket.destroy()
      done(true)
    })
    socket.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNREFUSED' ? done(false) : fail(error)))
  })
}

/** Runs the script until it accepts connections, checks, then stops it with SIGTERM. */
async function serving(args: string[], env: Record<string, string>, check: (port: number) => Promise<void>) {
  const port = await freePort()
  const child = spawn(process.execPath, [join(checkout, 'scripts', 'serve-site.mjs'), ...args], {
    cwd: checkout,
    env: { ...process.env, HOST: undefined, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const closed = new Promise<number | null>((done) => child.once('close', done))
  await new Promise<void>((ready, fail) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Accepting connections')) ready()
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    void closed.then((code) => fail(new Error(`serve-site exited with ${code}: ${output}`)))
  })
  try {
    await check(port)
  } finally {
    child.kill('SIGTERM')
    await closed
  }
}

// Linux routes all of 127.0.0.0/8 to the loopback interface: a server bound to every interface
// accepts on 127.0.0.2, one bound to 127.0.0.1 refuses there.
test('npm start serves on 127.0.0.1 only by default', { timeout: 60_000 }, async () => {
  await serving([], {}, async (port) => {
    assert.equal(await accepts('127.0.0.1', port), true)
    assert.equal(await accepts('127.0.0.2', port), false, 'not on other addresses')
    assert.equal((await fetch(`http://127.0.0.1:${port}/`)).status, 200)
  })
})

test('--host 0.0.0.0 or HOST=0.0.0.0 serves on every interface', { timeout: 60_000 }, async () => {
  const cases: [string[], Record<string, string>][] = [
    [['--host', '0.0.0.0'], {}],
    [[], { HOST: '0.0.0.0' }],
  ]
  for (const [args, env] of cases)
    await serving(args, env, async (port) => {
      assert.equal(await accepts('127.0.0.2', port), true, `${args.join(' ')} ${JSON.stringify(env)}`)
    })
})

test('a bad --host: one line naming it, exit 2', async () => {
  const child = spawn(process.execPath, [join(checkout, 'scripts', 'serve-site.mjs'), '--host', 'a b'], {
    cwd: checkout,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise<number | null>((done) => child.once('close', done))
  assert.equal(code, 2)
  assert.equal(stderr, 'serve: --host must be a host name or an IP address, got "a b"\n')
})
