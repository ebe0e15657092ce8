/**
 * Operating the real entry (`npm run server`) as a process: each start-up problem an operator can
 * cause stops it with one line naming the problem before anything is written to the data
 * directory, one data directory serves one server at a time, and SIGTERM to npm stops the server.
 */
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'

const root = join(import.meta.dirname, '..', '..')
const entry = join(root, 'server', 'runtime', 'node.ts')
const scratch = await mkdtemp(join(tmpdir(), 'ferry-operating-'))
after(() => rm(scratch, { recursive: true, force: true }))

interface Started {
  child: ChildProcess
  url: string
  pid: number
  stdout: string[]
  exited: Promise<number | null>
  /** Once every process holding the child's stdout has let go of it. */
  closed: Promise<void>
}

function spawnEntry(
  dataDir: string,
  extra: Record<string, string> = {},
  command: [string, string[]] = [process.execPath, ['--import', 'tsx', entry]],
): ChildProcess {
  return spawn(command[0], command[1], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      FERRY_HOST: '127.0.0.1',
      FERRY_PORT: '0',
      FERRY_DATA_DIR: dataDir,
      FERRY_LOG_LEVEL: 'info',
      ...extra,
    },
  })
}

/** Runs the entry expecting it to stop: its exit code and what it wrote to stderr. */
async function refused(
  dataDir: string,
  extra: Record<string, string> = {},
  command?: [string, string[]],
): Promise<{ code: number | null; stderr: string }> {
  const child = spawnEntry(dataDir, extra, command)
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  child.stdout?.resume()
  const code = await new Promise<number | null>((done) => child.once('close', (c) => done(c)))
  return { code, stderr: stderr.trim() }
}

/** Starts the entry (or `npm run server`) and resolves once it logs `listening`. */
function started(dataDir: string, command?: [string, string[]]): Promise<Started> {
  const child = spawnEntry(dataDir, {}, command)
  const stdout: string[] = []
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((done) => child.once('exit', (c) => done(c)))
  const closed = new Promise<void>((done) => child.once('close', () => done()))
  return new Promise((resolve, reject) => {
    let buffer = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      const lines = buffer.split('\n')
      buffer = lines.pop() ?? ''
      for (const line of lines) {
        stdout.push(line)
        if (!line.startsWith('{')) continue
        const parsed = JSON.parse(line) as { msg: string; url?: string; pid: number }
        if (parsed.msg === 'listening' && parsed.url)
          resolve({ child, url: parsed.url, pid: parsed.pid, stdout, exited, closed })
      }
    })
    void exited.then((code) => reject(new Error(`server exited with ${code} before listening: ${stderr}`)))
  })
}

const oneLine = (text: string) => assert.equal(text.split('\n').length, 1, `one line, got: ${text}`)
const contents = async (dir: string) => (existsSync(dir) ? (await readdir(dir)).sort() : [])
const running = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

test(
  'FERRY_DATA_DIR naming a file, a path through a file or an impossible place: one line, exit 1',
  { timeout: 90_000 },
  async () => {
    const file = join(scratch, 'a-file')
    await writeFile(file, 'not a directory\n')
    for (const [dataDir, problem] of [
      [file, /a-file is a file, not a directory/],
      [join(file, 'data'), /a-file\/data: cannot look at/],
      ['/proc/nope', /cannot create \/proc\/nope/],
    ] as const) {
      const { code, stderr } = await refused(dataDir)
      assert.equal(code, 1, stderr)
      oneLine(stderr)
      assert.match(stderr, /^FERRY_DATA_DIR /)
      assert.match(stderr, problem)
    }
    assert.equal(await readFile(file, 'utf8'), 'not a directory\n')
  },
)

test('a port in use: one line naming the port, and no secrets written', { timeout: 90_000 }, async () => {
  const holder = createServer()
  await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done))
  const address = holder.address()
  const port = typeof address === 'object' && address ? address.port : 0
  try {
    const dataDir = join(scratch, 'port-in-use')
    const { code, stderr } = await refused(dataDir, { FERRY_PORT: String(port) })
    assert.equal(code, 1, stderr)
    oneLine(stderr)
    assert.match(stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port} .*in use`))
    assert.deepEqual(await contents(dataDir), [], 'nothing written: no signup-key, no jwt-secret, no database')
  } finally {
    holder.close()
  }
})

test(
  "one server per data directory: a second one names the holder's pid; a dead holder's lock is taken over",
  { timeout: 60_000 },
  async () => {
    const dataDir = join(scratch, 'shared')
    const first = await started(dataDir)
    try {
      assert.equal((await readFile(join(dataDir, 'server.pid'), 'utf8')).trim(), String(first.pid))
      const before = await contents(dataDir)
      const { code, stderr } = await refused(dataDir)
      assert.equal(code, 1, stderr)
      oneLine(stderr)
      assert.match(
        stderr,
        new RegExp(`in use by another Ferry server \\(pid ${first.pid}, lock file .*server\\.pid\\)`),
      )
      assert.deepEqual(await contents(dataDir), before, 'the second server wrote nothing')
      assert.equal((await fetch(`${first.url}/v1/health`)).status, 200, 'the first server still serves')
    } finally {
      first.child.kill('SIGTERM')
      assert.equal(await first.exited, 0)
    }
    assert.ok(!(await contents(dataDir)).includes('server.pid'), 'a clean stop removes the lock')

    const gone = spawn(process.execPath, ['-e', ''])
    const deadPid = gone.pid ?? 0
    await new Promise((done) => gone.once('exit', done))
    await writeFile(join(dataDir, 'server.pid'), `${deadPid}\n`)
    const next = await started(dataDir)
    assert.equal(
      (await readFile(join(dataDir, 'server.pid'), 'utf8')).trim(),
      String(next.pid),
      'the stale lock now names the new server',
    )
    next.child.kill('SIGTERM')
    assert.equal(await next.exited, 0)
  },
)

const debianNode = '/usr/bin/node'
const olderNode = existsSync(debianNode) && spawn(debianNode, ['--version']).pid !== undefined

test(
  'a Node older than the one .nvmrc pins: one line naming both, before anything is written',
  { timeout: 90_000, skip: !olderNode && `no ${debianNode} here` },
  async (t) => {
    const version = await new Promise<string>((done) => {
      const probe = spawn(debianNode, ['--version'])
      let out = ''
      probe.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
      probe.once('close', () => done(out.trim()))
    })
    if (Number(version.slice(1).split('.')[0]) >= 24) return t.skip(`${debianNode} is ${version}, not older`)
    const dataDir = join(scratch, 'old-node')
    const { code, stderr } = await refused(dataDir, {}, [debianNode, ['--import', 'tsx', entry]])
    assert.equal(code, 1, stderr)
    oneLine(stderr)
    assert.match(
      stderr,
      new RegExp(`Ferry needs Node 24 \\(\\.nvmrc: 24\\.\\d+\\.\\d+\\); this is Node ${version.replace(/\./g, '\\.')}`),
    )
    assert.deepEqual(await contents(dataDir), [])
  },
)

test('SIGTERM to `npm run server` stops the server itself (no orphan left serving)', { timeout: 60_000 }, async () => {
  const npm = process.env.npm_execpath
  const command: [string, string[]] = npm ? [process.execPath, [npm, 'run', 'server']] : ['npm', ['run', 'server']]
  const server = await started(join(scratch, 'npm-run'), command)
  assert.notEqual(server.pid, server.child.pid, 'npm runs the server as its child')
  try {
    server.child.kill('SIGTERM')
    await server.exited
    await server.closed
    const messages = server.stdout.filter((l) => l.startsWith('{')).map((l) => (JSON.parse(l) as { msg: string }).msg)
    assert.ok(messages.includes('stopped'), `the server drained and stopped: ${messages.join(' | ')}`)
    assert.ok(!running(server.pid), `server pid ${server.pid} is gone`)
  } finally {
    if (running(server.pid)) process.kill(server.pid, 'SIGKILL')
  }
})
