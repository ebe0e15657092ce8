/** Starts Debian's redis-server on a free 127.0.0.1 port for one test file (no persistence). */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'

const BINARY = '/usr/bin/redis-server'

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))))
    })
  })
}

export async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  if (!existsSync(BINARY))
    throw new Error(`${BINARY} is missing: install it with "apt-get install -y redis-server" (.ci/run does)`)
  const port = await freePort()
  const child = spawn(BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  await new Promise<void>((done, fail) => {
    let output = ''
    const timer = setTimeout(() => fail(new Error(`redis-server did not start:\n${output}`)), 10_000)
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer)
        done()
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`redis-server exited with ${code}:\n${output}`))
    })
  })
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise((done) => child.once('exit', done))
      child.kill('SIGTERM')
      await exited
    },
  }
}
