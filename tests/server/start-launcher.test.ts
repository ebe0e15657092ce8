// backend-matrix: sqlite-only — it starts the server process itself, as a user does, with no database URL.
/**
 * `npm run server` runs `node server/runtime/start.mjs`, plain JavaScript any Node parses: on a
 * Node older than .nvmrc's it stops with one line saying which Node to use and how to start the
 * server, before anything is written (Node 20 rejects `node server/runtime/node.ts` itself with a
 * stack about the `.ts` extension); on the pinned Node it serves and SIGTERM stops it.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { nodeMajor, portClosed, startRunning } from '../ferry-cli/running.ts'

const root = join(import.meta.dirname, '..', '..')
const launcher = join(root, 'server', 'runtime', 'start.mjs')
const scratch = mkdtempSync(join(tmpdir(), 'ferry-start-launcher-'))
after(() => rmSync(scratch, { recursive: true, force: true }))
const env = { ...process.env, FERRY_HOST: '127.0.0.1', FERRY_PORT: '0', FERRY_LOG_LEVEL: 'info' }

/** Runs `node <file>` to its end; its exit code and standard error. */
function runToEnd(node: string, file: string, dataDir: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(node, [file], { cwd: scratch, env: { ...env, FERRY_DATA_DIR: dataDir } })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  child.stdout.resume()
  return new Promise((done) => child.once('close', (code) => done({ code, stderr })))
}

/** `older`: a pattern of the running Node's version. */
function assertOneLine(stderr: string, needed: number, older: string) {
  const lines = stderr.trim().split('\n')
  assert.equal(lines.length, 1, stderr)
  assert.match(
    lines[0] ?? '',
    new RegExp(`^Ferry needs Node ${needed} \\(\\.nvmrc: [^)]+\\); this is Node ${older} at `),
  )
  assert.match(
    lines[0] ?? '',
    /npm run server, npx ferry server, or node_modules\/\.bin\/node server\/runtime\/start\.mjs/,
  )
}

test('npm run server runs the launcher', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  assert.equal(pkg.scripts.server, 'exec node server/runtime/start.mjs')
})

test('on a Node older than .nvmrc the launcher says which Node and how to start, in one line, and writes nothing', async () => {
  // The launcher in a copy whose .nvmrc pins a Node newer than this one.
  const copy = join(scratch, 'newer-pin')
  mkdirSync(join(copy, 'server', 'runtime'), { recursive: true })
  copyFileSync(launcher, join(copy, 'server', 'runtime', 'start.mjs'))
  writeFileSync(join(copy, '.nvmrc'), 'v99.0.0\n')
  const data = join(scratch, 'never-created')
  const { code, stderr } = await runToEnd(process.execPath, join(copy, 'server', 'runtime', 'start.mjs'), data)
  assert.equal(code, 1, stderr)
  assertOneLine(stderr, 99, process.version.replaceAll('.', '\\.'))
  assert.equal(existsSync(data), false, 'no data directory was created')
})

const debianNode = '/usr/bin/node'
const debianMajor = await nodeMajor(debianNode)
test(
  "Debian's Node 20 gets the same line from the real launcher",
  { skip: !(debianMajor !== undefined && debianMajor < 24) && `${debianNode} is not a Node older than 24 here` },
  async () => {
    const data = join(scratch, 'not-on-node-20')
    const { code, stderr } = await runToEnd(debianNode, launcher, data)
    assert.equal(code, 1, stderr)
    assertOneLine(stderr, 24, `v${debianMajor}\\.\\d+\\.\\d+`)
    assert.equal(existsSync(data), false, 'no data directory was created')
  },
)

test('on the pinned Node the launcher serves, and SIGTERM stops it', { timeout: 60_000 }, async () => {
  const server = await startRunning(process.execPath, [launcher], {
    cwd: scratch,
    env: { ...env, FERRY_DATA_DIR: join(scratch, 'data') },
  })
  try {
    assert.equal(server.stderr(), '', 'nothing on standard error')
    assert.equal((await fetch(`${server.url}/v1/health`)).status, 200)
  } finally {
    server.child.kill('SIGTERM')
  }
  assert.deepEqual(await server.closed, { code: 0, signal: null }, server.stderr())
  assert.equal(await portClosed(server.url), true, 'the port is closed')
})
