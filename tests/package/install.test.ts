// unit-stage: alone — npm pack runs prepack in this checkout: it rewrites package.json (the tool manifest) and console-dist/ until postpack.
/**
 * Ferry installed like a tool: `npm pack` of this checkout, then `npm i -D <tarball>` in a new app
 * project (dependencies from the npm registry) with the machine's stock Node first on PATH (Debian's
 * is 20), as in a user's shell. The install prints no warning of Ferry's, links no `node` into the
 * app (its scripts keep running on its own Node), and `npx ferry` runs the CLI and the server from
 * the app's folder on the pinned Node, fetched into Ferry's own folder. The tarball holds what the
 * server and the CLI run, and nothing of the site or the tests.
 */
import assert from 'node:assert/strict'
import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, before, test } from 'node:test'
import { promisify } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import pkg from '../../package.json' with { type: 'json' }
import { bearer, jsonBody, PASSWORD, SIGNUP_KEY } from '../server/helpers.ts'
import { electronBuilderDist } from '../ferry-cli/fixtures.ts'
import { portClosed, startRunning, type Running } from '../ferry-cli/running.ts'

const root = join(import.meta.dirname, '..', '..')
const scratch = mkdtempSync(join(tmpdir(), 'ferry-package-'))
const app = join(scratch, 'notes-app')
const run = promisify(execFile)
const pinned = readFileSync(join(root, '.nvmrc'), 'utf8').trim()
let tarball = ''
let contents: string[] = []
let installLog = ''
after(() => rmSync(scratch, { recursive: true, force: true }))

/** The Node a user's shell finds first: Debian's, not the pinned one npm scripts of this checkout get. */
const stockNode = '/usr/bin/node'
/** A user's environment: the stock Node first on PATH, none of the npm_* variables this test runs under. */
const userEnv = { ...process.env }
for (const name of Object.keys(userEnv)) if (name.startsWith('npm_')) delete userEnv[name]
userEnv.PATH = `${dirname(stockNode)}:${process.env.PATH ?? ''}`

/** `npx ferry mcp` in the app's folder through the MCP SDK's stdio client: the names of the tools it lists. */
async function mcpToolsInApp(env: Record<string, string> = {}): Promise<string[]> {
  const client = new Client({ name: 'install-test', version: '1.0.0' })
  await client.connect(
    new StdioClientTransport({
      command: 'npx',
      args: ['ferry', 'mcp'],
      cwd: app,
      env: Object.fromEntries(
        Object.entries({ ...userEnv, ...env }).filter((e): e is [string, string] => e[1] !== undefined),
      ),
      stderr: 'ignore',
    }),
  )
  try {
    return (await client.listTools()).tools.map((t) => t.name).sort()
  } finally {
    await client.close()
  }
}

/** Runs `command` in the app's folder as the user would; its exit code, stdout and stderr. */
function inApp(command: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(command, args, { cwd: app, env: { ...userEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
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
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'notes-app',
      version: '1.0.0',
      private: true,
      scripts: { 'node-version': 'node --version' },
    }),
  )
  const installed = await inApp('npm', [
    'install',
    '--save-dev',
    '--no-audit',
    '--no-fund',
    '--prefer-offline',
    tarball,
  ])
  installLog = installed.stdout + installed.stderr
  assert.equal(installed.code, 0, installLog)
})

test('the tarball holds the server, the CLI, the console and its bundled packages, and no tests, pages or build output', () => {
  for (const needed of [
    'package.json',
    '.nvmrc',
    'scripts/ferry-bin.mjs',
    'scripts/ferry.ts',
    'server/runtime/node.ts',
    'lib/ferry-cli/commands.ts',
    'console-dist/console.js',
    'mcp/server-endpoint.ts',
    'mcp/docs-library.json.gz',
    'node_modules/better-sqlite3/package.json',
    'node_modules/kysely/package.json',
  ])
    assert.ok(contents.includes(needed), `${needed} is in the tarball`)
  const unwanted = contents.filter(
    (f) =>
      /^(tests|e2e|pages|\.next|out|data|public|components|styles|patches)\/|^(?!node_modules\/).*\.test\.ts$/.test(
        f,
      ) ||
      (f.startsWith('node_modules/') && !/^node_modules\/(better-sqlite3|kysely|node-addon-api)\//.test(f)),
  )
  assert.deepEqual(unwanted, [], 'nothing of the site, the tests or a build, no package but those bundled')
})

test("npm i -D <tarball> under the stock Node: no warning of Ferry's, no `node` linked into the app", async () => {
  const warnings = installLog.split('\n').filter((line) => /^npm (warn|WARN|error|ERR)/.test(line))
  assert.deepEqual(
    warnings.filter((line) => /EBADENGINE|engine/i.test(line)),
    [],
    'npm warns about no engines range',
  )
  // npm 11's advisory about install scripts names esbuild (tsx's postinstall), nothing of Ferry's.
  const others = warnings.filter((line) => !/^npm warn install-scripts( |$)/.test(line))
  assert.deepEqual(others, [], installLog)
  assert.doesNotMatch(installLog, /ferry@|node-linux/, 'nothing of Ferry or its Node is flagged')
  assert.ok(!existsSync(join(app, 'node_modules', '.bin', 'node')), "no node in the app's node_modules/.bin")
  assert.ok(!existsSync(join(app, 'node_modules', `node-linux-${process.arch}`)), 'no Node package in the app')
  const stock = await inApp(stockNode, ['--version'])
  const script = await inApp('npm', ['run', '-s', 'node-version'])
  assert.equal(script.code, 0, script.stderr)
  assert.equal(script.stdout.trim(), stock.stdout.trim(), "the app's npm scripts run on the Node they ran on before")
})

test(
  'npx ferry runs the CLI on the pinned Node and publishes a build from the app folder to npx ferry server',
  { timeout: 180_000 },
  async () => {
    const stockMajor = Number((await inApp(stockNode, ['--version'])).stdout.slice(1).split('.')[0])
    const help = await inApp('npx', ['ferry', '--help'])
    assert.equal(help.code, 0, help.stderr)
    assert.match(help.stdout, /^ {2}server \[--port <n>\] \[--data-dir <dir>\]/m)
    assert.match(help.stdout, /^ {2}backup <new folder>/m)
    if (stockMajor < Number(pinned.split('.')[0])) {
      const privateDir = join(app, 'node_modules', 'ferry', '.node')
      assert.match(
        help.stderr,
        new RegExp(
          `^ferry: Node v\\S+ \\(/usr/bin/node\\) is older than 24: fetching Node ${pinned} \\(npm package node-linux-\\w+\\) into ${privateDir}/\n` +
            `ferry: Node v\\S+ \\(/usr/bin/node\\) is older than 24: running on Node ${pinned} \\(${privateDir}/node-linux-\\w+-${pinned}/bin/node\\)\n$`,
        ),
      )
      const again = await inApp('npx', ['ferry', '--help'])
      assert.match(
        again.stderr,
        /^ferry: Node v\S+ \(\/usr\/bin\/node\) is older than 24: running on Node 24\.\S+ \(\S+\)\n$/,
      )
    } else assert.equal(help.stderr, '')
    const mcp = await inApp('npx', ['ferry', 'mcp', '--http'])
    assert.equal(mcp.code, 2, mcp.stderr)
    assert.match(mcp.stderr, /^ferry: mcp: --http serves the in-process sandbox, which only a checkout/m)
    const docs = await mcpToolsInApp()
    assert.deepEqual(docs, ['describe_operation', 'list_operations', 'read_page', 'search_docs'])

    const server: Running = await startRunning('npx', ['ferry', 'server', '--port', '0', '--data-dir', 'ferry-data'], {
      cwd: app,
      env: { ...userEnv, FERRY_HOST: '127.0.0.1', FERRY_LOG_LEVEL: 'info', FERRY_SIGNUP_KEY: SIGNUP_KEY },
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

      // npx ferry mcp with the server's URL and the token: a bridge to its /mcp, with the token's tools.
      const bridged = await mcpToolsInApp({ FERRY_URL: server.url, FERRY_TOKEN: token })
      assert.ok(bridged.includes('updateVersion') && bridged.includes('search_docs'), bridged.join(', '))

      const query = await inApp('npx', ['ferry', 'db', 'query', '--data-dir', 'ferry-data', 'SELECT slug FROM apps'])
      assert.equal(query.code, 0, query.stderr)
      assert.equal(query.stdout, 'slug\nnotes\n')
    } finally {
      // To npx, the outermost process: npm passes it to the shell it ran `ferry server` in.
      server.child.kill('SIGTERM')
    }
    // Resolves once every holder of npx's stdout, the server included, has let go of it.
    await server.closed
    assert.ok(server.messages.includes('stopped'), `SIGTERM to npx stopped the server: ${server.messages.join(' | ')}`)
    assert.ok(!server.messages.includes('second signal: exiting now'), server.messages.join(' | '))
    assert.equal(await portClosed(server.url), true, 'the port is closed')

    const backup = await inApp('npx', ['ferry', 'backup', '--data-dir', 'ferry-data', 'backups/first'])
    assert.equal(backup.code, 0, backup.stderr)
    assert.match(backup.stdout, /^backup: \d+ artifact files copied, .* each matching its SHA-256$/m)
    assert.ok(existsSync(join(app, 'backups', 'first', 'ferry.db')), 'the copy is in backups/first')
  },
)

test(
  'without the npm registry, an older Node stops in one line before writing anything',
  { timeout: 60_000 },
  async (t) => {
    const stockMajor = Number((await inApp(stockNode, ['--version'])).stdout.slice(1).split('.')[0])
    if (stockMajor >= Number(pinned.split('.')[0]))
      return t.skip(`${stockNode} is Node ${stockMajor}: nothing to fetch`)
    const privateDir = join(app, 'node_modules', 'ferry', '.node')
    if (existsSync(privateDir)) renameSync(privateDir, `${privateDir}.away`)
    try {
      const refused = await inApp('npx', ['ferry', 'server', '--port', '0', '--data-dir', 'never'], {
        npm_config_offline: 'true',
        npm_config_cache: join(scratch, 'empty-cache'),
      })
      assert.equal(refused.code, 1, refused.stderr)
      const lines = refused.stderr.trim().split('\n')
      assert.equal(lines.length, 2, refused.stderr)
      assert.match(lines[0] ?? '', /^ferry: Node v\S+ \(\/usr\/bin\/node\) is older than 24: fetching Node /)
      assert.match(
        lines[1] ?? '',
        new RegExp(
          `^ferry: needs Node 24; npm pack node-linux-\\w+@${pinned} failed: .*\\. Install Node 24 and put it first on PATH, or run again when the npm registry is reachable\\.$`,
        ),
      )
      assert.ok(!existsSync(join(app, 'never')), 'no data directory, no secrets')
    } finally {
      rmSync(privateDir, { recursive: true, force: true })
      if (existsSync(`${privateDir}.away`)) renameSync(`${privateDir}.away`, privateDir)
    }
  },
)
