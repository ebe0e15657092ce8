// backend-matrix: sqlite-only — reads the Dockerfile; no server
/**
 * The Docker image, checked without a Docker engine (none runs here): the packages the server
 * loads are all production dependencies (what `npm ci --omit=dev` installs), and the server
 * starts and passes the HEALTHCHECK from a directory holding only what the final stage COPYs.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { cp, mkdtemp, readFile, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { build } from 'esbuild'
import { commandArgv, copyArgs, envPairs, healthcheckArgv, parseDockerfile } from '../deploy/dockerfile.ts'

const root = join(import.meta.dirname, '..', '..')

interface FinalStage {
  copies: string[]
  env: Record<string, string>
  cmd: string[]
  healthcheck: string[]
  expose: string
}

/** The last stage of the Dockerfile (tests/deploy/dockerfile.ts reads it): COPY sources from the build context, ENV, CMD, HEALTHCHECK. */
function parseFinalStage(text: string): FinalStage {
  const last = parseDockerfile(text).at(-1)
  if (!last) throw new Error('Dockerfile: no FROM')
  const stage: FinalStage = { copies: [], env: {}, cmd: [], healthcheck: [], expose: '' }
  for (const instruction of last.instructions) {
    if (instruction.keyword === 'COPY') {
      const { from, sources } = copyArgs(instruction)
      if (from === undefined) stage.copies.push(...sources)
    }
    if (instruction.keyword === 'ENV') Object.assign(stage.env, envPairs(instruction))
    if (instruction.keyword === 'CMD') stage.cmd = commandArgv(instruction)
    if (instruction.keyword === 'HEALTHCHECK') stage.healthcheck = healthcheckArgv(instruction)
    if (instruction.keyword === 'EXPOSE') stage.expose = instruction.args
  }
  return stage
}

test('every package the Node server loads is a production dependency', async () => {
  const result = await build({
    entryPoints: [join(root, 'server', 'runtime', 'node.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    // mcp/library-sources.ts builds the MCP docs library from pages/ and openapi/ with the site's
    // tools, only in a checkout: an installed Ferry reads the file `npm pack` wrote instead.
    external: ['better-sqlite3', './library-sources.ts'],
    // A native addon's binary (@napi-rs/lzma's) is loaded, not bundled; its package still counts.
    loader: { '.node': 'empty' },
  })
  const used = new Set<string>(['better-sqlite3'])
  for (const input of Object.keys(result.metafile.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)
    if (m) used.add(m[1]!)
  }
  const lock = JSON.parse(await readFile(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>
  }
  const devOnly = [...used].filter((name) => lock.packages[`node_modules/${name}`]?.dev === true)
  assert.deepEqual(devOnly, [], 'the image does not install these: move them to dependencies')
  assert.ok(used.has('hono') && used.has('kysely'), `the bundle was analysed (${used.size} packages)`)
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>
    scripts: Record<string, string>
  }
  assert.ok(pkg.dependencies.tsx, "the image's CMD runs tsx, so it must be a dependency")
  for (const sitePackage of ['next', 'nextra', 'swagger-ui-react', 'react'])
    assert.equal(pkg.dependencies[sitePackage], undefined, `${sitePackage} is a site build tool`)
})

test(
  'the final stage starts the server from its COPYs alone and passes its HEALTHCHECK',
  { timeout: 60_000 },
  async () => {
    const stage = parseFinalStage(await readFile(join(root, 'Dockerfile'), 'utf8'))
    assert.equal(stage.cmd[0], 'node', 'node runs directly, so SIGTERM reaches the server')
    assert.equal(stage.expose, stage.env.FERRY_PORT)
    const ignored = (await readFile(join(root, '.dockerignore'), 'utf8'))
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
    const image = await mkdtemp(join(tmpdir(), 'ferry-image-'))
    const data = await mkdtemp(join(tmpdir(), 'ferry-image-data-'))
    try {
      for (const source of stage.copies) {
        assert.ok(
          !ignored.some((i) => source === i || source.startsWith(`${i}/`)),
          `${source} is COPYed but .dockerignore excludes it`,
        )
        await cp(join(root, source), join(image, source), { recursive: true })
      }
      await symlink(join(root, 'node_modules'), join(image, 'node_modules'))
      const port = 20_000 + Math.floor(Math.random() * 20_000)
      // The image listens on 0.0.0.0; the test keeps to loopback.
      const env: NodeJS.ProcessEnv = {
        NODE_ENV: 'production',
        PATH: process.env.PATH ?? '',
        HOME: data,
        ...stage.env,
        FERRY_HOST: '127.0.0.1',
        FERRY_PORT: String(port),
        FERRY_DATA_DIR: data,
        FERRY_LOG_LEVEL: 'warn',
      }
      const server = spawn(stage.cmd[0]!, stage.cmd.slice(1), { cwd: image, env, stdio: ['ignore', 'ignore', 'pipe'] })
      let stderr = ''
      server.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString()
      })
      try {
        let healthy = false
        for (let i = 0; i < 200 && !healthy && server.exitCode === null; i++) {
          healthy = await fetch(`http://127.0.0.1:${port}/v1/health`).then(
            (r) => r.ok,
            () => false,
          )
          if (!healthy) await new Promise((r) => setTimeout(r, 100))
        }
        assert.ok(healthy, `the server did not become healthy: ${stderr}`)
        const [program = '', ...args] = stage.healthcheck.map((a) => a.replace('127.0.0.1:8080', `127.0.0.1:${port}`))
        const check = spawn(program, args, { cwd: image, env })
        assert.equal(await new Promise((r) => check.once('exit', r)), 0, `HEALTHCHECK failed: ${args.join(' ')}`)
        const exited = new Promise((r) => server.once('exit', r))
        server.kill('SIGTERM')
        assert.equal(await exited, 0, `docker stop (SIGTERM) shuts the server down cleanly: ${stderr}`)
      } finally {
        if (server.exitCode === null) server.kill('SIGKILL')
      }
    } finally {
      await rm(image, { recursive: true, force: true })
      await rm(data, { recursive: true, force: true })
    }
  },
)
