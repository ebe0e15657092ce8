/**
 * Ferry installed like a tool: `npm pack` of this checkout, then `npm i -D <tarball>` in a new app
 * project (dependencies from the npm registry), where `npx ferry` runs the CLI and the server from
 * the app's folder. The tarball holds what the server and the CLI run, and nothing of the site or
 * the tests. Under an older Node, the bin runs on the pinned Node the package brought, or stops.
 */
import assert from 'node:assert/strict'
import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { promisify } from 'node:util'
import pkg from '../../package.json' with { type: 'json' }
import { bearer, jsonBody, PASSWORD, SIGNUP_KEY } from '../server/helpers.ts'
import { electronBuilderDist } from '../ferry-cli/fixtures.ts'
import { nodeMajor, portClosed, startRunning, type Running } from '../ferry-cli/running.ts'

const root = join(import.meta.dirname, '..', '..')
const scratch = mkdtempSync(join(tmpdir(), 'ferry-package-'))
const app = join(scratch, 'notes-app')
const run = promisify(execFile)
let tarball = ''
let contents: string[] = []
after(() => rmSync(scratch, { recursive: true, force: true }))

/** Runs `command` in the app's folder; its exit code, stdout and stderr. */
function inApp(command: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(command, args, { cwd: app, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
    child.once('close', (code) => done({ code, stdout, stderr })),
  )
}

before(async () => {
  const packed = join(scratch, 'packed')
  mkdirSync(packed)
  await run('npm', ['pack', '--pack-destination', packed], { cwd: root, maxBuffer: 64 * 1024 * 1024 })
  tarball = join(packed, `${pkg.name}-${pkg.version}.tgz`)
  contents = (await run('tar', ['-tzf', tarball], { maxBuffer: 64 * 1024 * 1024 })).stdout
    .split('\n')
    .filter(Boolean)
    .map((entry) => entry.replace(/^package\//, ''))
  mkdirSync(app)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'notes-app', version: '1.0.0', private: true }))
  // Native modules (better-sqlite3) build against the pinned Node's headers, which its npm package
  // ships: this machine reaches the npm registry and nothing else.
  await run('npm', ['install', '--save-dev', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
    cwd: app,
    env: { ...process.env, npm_config_nodedir: join(root, 'node_modules', `node-linux-${process.arch}`) },
    maxBuffer: 64 * 1024 * 1024,
  })
})

test('the tarball holds the server, the CLI and the console, and no tests, pages or build output', () => {
  for (const needed of [
    'package.json',
    'scripts/ferry-bin.mjs',
    'scripts/ferry.ts',
    'server/runtime/node.ts',
    'lib/ferry-cli/commands.ts',
    'console-dist/console.js',
  ])
    assert.ok(contents.includes(needed), `${needed} is in the tarball`)
  const unwanted = contents.filter((f) =>
    /^(tests|e2e|pages|\.next|out|node_modules|data|public|components|styles|patches)\/|\.test\.ts$/.test(f),
  )
  assert.deepEqual(unwanted, [], 'nothing of the site, the tests or a build')
})

test(
  'npm i -D <tarball>: npx ferry runs the CLI and publishes a build from the app folder to npx ferry server',
  { timeout: 120_000 },
  async () => {
    const help = await inApp('npx', ['ferry', '--help'])
    assert.equal(help.code, 0, help.stderr)
    assert.match(help.stdout, /^ {2}server \[--port <n>\] \[--data-dir <dir>\]/m)
    const mcp = await inApp('npx', ['ferry', 'mcp'])
    assert.equal(mcp.code, 2, mcp.stderr)
    assert.match(mcp.stderr, /^ferry: mcp: runs in a checkout of Ferry's repository/)

    const server: Running = await startRunning('npx', ['ferry', 'server', '--port', '0', '--data-dir', 'ferry-data'], {
      cwd: app,
      env: { ...process.env, FERRY_HOST: '127.0.0.1', FERRY_LOG_LEVEL: 'info', FERRY_SIGNUP_KEY: SIGNUP_KEY },
    })
    try {
      assert.equal(server.dataDir, join(app, 'ferry-data'))
      const post = async (path: string, body: unknown, token?: string) => {
        const res = await fetch(`${server.url}${path}`, jsonBody(body, token, { 'x-ferry-signup-key': SIGNUP_KEY }))
        assert.equal(res.status, 201, await res.clone().text())
        return res.json() as Promise<{ token: string }>
      }
      const { token: admin } = await post('/v1/auth/signup', {
        teamName: 'Notes',
        name: 'Admin',
        email: 'ci@notes.test',
        password: PASSWORD,
      })
      for (const [path, body] of [
        ['/v1/channels', { name: 'stable' }],
        ['/v1/platforms', { name: 'windows', updater: 'electron-updater' }],
        ['/v1/platforms', { name: 'darwin', updater: 'electron-updater' }],
        ['/v1/platforms', { name: 'linux', updater: 'electron-updater' }],
        ['/v1/archs', { name: 'x64' }],
        ['/v1/archs', { name: 'arm64' }],
        ['/v1/apps', { slug: 'notes', name: 'Notes' }],
      ] as const)
        await post(path, body, admin)
      const { token } = await post(
        '/v1/team/tokens',
        { name: 'ci', permissions: { apps: { upload: { enabled: true }, edit: { enabled: true } } } },
        admin,
      )
      electronBuilderDist(join(app, 'dist'), '1.2.0')
      const published = await inApp('npx', ['ferry', 'publish', 'dist', '--app', 'notes'], {
        FERRY_URL: server.url,
        FERRY_TOKEN: token,
      })
      assert.equal(published.code, 0, published.stderr)
      assert.match(published.stdout, /^windows\/x64: uploaded 1\.2\.0 /m)
      const listed = await fetch(`${server.url}/v1/apps/notes/versions`, bearer(admin))
      const { items } = (await listed.json()) as { items: Array<{ version: string }> }
      assert.deepEqual([...new Set(items.map((v) => v.version))], ['1.2.0'])
    } finally {
      // To npx, the outermost process: npm passes it to the shell it ran `ferry server` in.
      server.child.kill('SIGTERM')
    }
    // Resolves once every holder of npx's stdout, the server included, has let go of it.
    await server.closed
    assert.ok(server.messages.includes('stopped'), `SIGTERM to npx stopped the server: ${server.messages.join(' | ')}`)
    assert.ok(!server.messages.includes('second signal: exiting now'), server.messages.join(' | '))
    assert.equal(await portClosed(server.url), true, 'the port is closed')
  },
)

const debianNode = '/usr/bin/node'
const olderMajor = await nodeMajor(debianNode)
const older = olderMajor !== undefined && olderMajor < 24

test(
  'under an older Node: the bin runs on the Node the package brought, or stops in one line before writing anything',
  { skip: !older && `${debianNode} is not a Node older than 24 here` },
  async () => {
    const ferryBin = join(app, 'node_modules', '.bin', 'ferry')
    const relaunched = await inApp(debianNode, [ferryBin, '--help'])
    assert.equal(relaunched.code, 0, relaunched.stderr)
    assert.match(
      relaunched.stderr.trim(),
      /^ferry: Node v\S+ \(\/usr\/bin\/node\) is older than >=24: running on Node 24\./,
    )
    assert.match(relaunched.stdout, /^Usage: ferry <command>/)

    const pinned = join(app, 'node_modules', `node-linux-${process.arch}`)
    renameSync(pinned, `${pinned}.away`)
    try {
      const refused = await inApp(debianNode, [ferryBin, 'server', '--data-dir', 'never'])
      assert.equal(refused.code, 1, refused.stderr)
      assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr)
      assert.match(
        refused.stderr,
        /^ferry: needs Node >=24 \(package\.json engines\); this is Node v\S+ \(\/usr\/bin\/node\) and no node-linux-\w+ package is installed beside Ferry: install Node 24/,
      )
      assert.ok(!existsSync(join(app, 'never')), 'no data directory, no secrets')
    } finally {
      renameSync(`${pinned}.away`, pinned)
    }
  },
)
