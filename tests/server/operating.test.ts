/**
 * Operating the real entry (`npm run server`) as a process: each start-up problem an operator can
 * cause stops it with one line naming the problem and leaves the data directory as it was (one it
 * created is removed again), one data directory serves one server at a time, what it creates is
 * its user's only (700, 600), and SIGTERM to npm stops the server.
 */
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
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
function started(dataDir: string, command?: [string, string[]], extra: Record<string, string> = {}): Promise<Started> {
  const child = spawnEntry(dataDir, extra, command)
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
    assert.ok(!existsSync(dataDir), 'nothing written: not even the data directory it created')
  } finally {
    holder.close()
  }
})

test(
  'the metrics port in use: one line naming it, nothing left in the data directory',
  { timeout: 90_000 },
  async () => {
    const holder = createServer()
    await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done))
    const address = holder.address()
    const port = typeof address === 'object' && address ? address.port : 0
    try {
      const dataDir = join(scratch, 'metrics-port-in-use')
      const { code, stderr } = await refused(dataDir, {
        FERRY_METRICS_HOST: '127.0.0.1',
        FERRY_METRICS_PORT: String(port),
      })
      assert.equal(code, 1, stderr)
      assert.equal(
        stderr,
        `cannot listen on 127.0.0.1:${port} (FERRY_METRICS_HOST, FERRY_METRICS_PORT): the port is in use by another process`,
      )
      assert.ok(!existsSync(dataDir), 'no secrets, no database, no data directory')
    } finally {
      holder.close()
    }
  },
)

test('a bad FERRY_* value: one line naming the variable and the value, nothing created', async () => {
  const dataDir = join(scratch, 'bad-port')
  const { code, stderr } = await refused(dataDir, { FERRY_PORT: 'abc' })
  assert.equal(code, 1, stderr)
  assert.equal(stderr, 'invalid configuration: FERRY_PORT must be an integer from 0 to 65535, got "abc"')
  assert.ok(!existsSync(dataDir))
})

test(
  'PostgreSQL unreachable: one line naming where and what to do, no data directory left',
  { timeout: 90_000 },
  async () => {
    const closed = createServer()
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done))
    const address = closed.address()
    const port = typeof address === 'object' && address ? address.port : 0
    await new Promise<void>((done) => closed.close(() => done()))
    const dataDir = join(scratch, 'no-postgres')
    const { code, stderr } = await refused(dataDir, {
      FERRY_DATABASE_URL: `postgres://ferry:secret-password@127.0.0.1:${port}/ferry`,
      FERRY_JWT_SECRET: 'operating-test-jwt-secret-0123456789abcdef',
      FERRY_SIGNUP_KEY: 'operating-test-signup-key',
    })
    assert.equal(code, 1, stderr)
    assert.equal(
      stderr,
      `FERRY_DATABASE_URL: cannot reach PostgreSQL at 127.0.0.1:${port}/ferry: connect ECONNREFUSED 127.0.0.1:${port}; start PostgreSQL, or correct the URL`,
    )
    assert.ok(!existsSync(dataDir), 'the data directory it created is gone again')
  },
)

test(
  'object storage unreachable at the first start: exit 1, and the data directory it created is gone',
  { timeout: 90_000 },
  async () => {
    const closed = createServer()
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done))
    const address = closed.address()
    const port = typeof address === 'object' && address ? address.port : 0
    await new Promise<void>((done) => closed.close(() => done()))
    const dataDir = join(scratch, 'no-s3', 'data')
    const child = spawnEntry(dataDir, {
      FERRY_BLOB_URL: 's3://ferry-operating',
      FERRY_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      FERRY_S3_REGION: 'us-east-1',
      FERRY_S3_ACCESS_KEY_ID: 'operating',
      FERRY_S3_SECRET_ACCESS_KEY: 'operating-secret',
    })
    let stdout = ''
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr?.resume()
    const code = await new Promise<number | null>((done) => child.once('close', done))
    assert.equal(code, 1, stdout)
    const fatal = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((entry) => entry.level === 60)
    assert.equal(fatal.length, 1, stdout)
    assert.match(fatal[0]?.msg ?? '', /^FERRY_BLOB_URL: cannot use s3:\/\/ferry-operating\/ .*could not be reached/)
    assert.ok(!existsSync(join(scratch, 'no-s3')), 'no secrets, no database, no directories left')
  },
)

for (const [what, content] of [
  ['an empty', ''],
  ['a 5-character', 'abcde\n'],
] as const)
  test(`${what} jwt-secret file: one line saying what to do, nothing else written`, { timeout: 90_000 }, async () => {
    const dataDir = join(scratch, `jwt-secret-${content.length}`)
    await mkdir(dataDir)
    await writeFile(join(dataDir, 'jwt-secret'), content)
    const { code, stderr } = await refused(dataDir)
    assert.equal(code, 1, stderr)
    assert.equal(
      stderr,
      `${join(dataDir, 'jwt-secret')} must be at least 32 characters long, as FERRY_JWT_SECRET: put a longer secret in it, or delete it and Ferry generates one`,
    )
    assert.deepEqual(await contents(dataDir), ['jwt-secret'], 'no signup-key, no database')
    assert.equal(await readFile(join(dataDir, 'jwt-secret'), 'utf8'), content)
  })

test('a data directory Ferry creates is 700, its database and generated secrets 600', { timeout: 60_000 }, async () => {
  const dataDir = join(scratch, 'modes', 'data')
  const server = await started(dataDir)
  try {
    const mode = async (path: string) => ((await stat(path)).mode & 0o777).toString(8)
    assert.equal(await mode(join(scratch, 'modes')), '700', 'a missing parent too')
    assert.equal(await mode(dataDir), '700')
    for (const file of ['ferry.db', 'ferry.db-wal', 'signup-key', 'jwt-secret'])
      assert.equal(await mode(join(dataDir, file)), '600', file)
  } finally {
    server.child.kill('SIGTERM')
    assert.equal(await server.exited, 0)
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

test(
  'a misspelt FERRY_ variable: one warning at start naming the variable it is closest to, none for the ones Ferry reads',
  { timeout: 60_000 },
  async () => {
    const server = await started(join(scratch, 'typo'), undefined, {
      FERRY_PUBLIC_ULR: 'https://updates.example.com',
      FERRY_TELEMETRY: 'off',
      FERRY_TOKEN: 'a token for the CLI',
    })
    try {
      // Everything logged before `listening`, which the server logs last at start.
      const unknown = server.stdout
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { level: number; msg: string; variable?: string; closest?: string })
        .filter((l) => /not a variable Ferry reads/.test(l.msg))
      assert.deepEqual(
        unknown.map(({ level, msg, variable, closest }) => ({ level, msg, variable, closest })),
        [
          {
            level: 40,
            msg: 'FERRY_PUBLIC_ULR is not a variable Ferry reads, so it has no effect; did you mean FERRY_PUBLIC_URL?',
            variable: 'FERRY_PUBLIC_ULR',
            closest: 'FERRY_PUBLIC_URL',
          },
        ],
      )
    } finally {
      server.child.kill('SIGTERM')
      await server.exited
    }
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
