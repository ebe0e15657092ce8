/**
 * The Dockerfile built without a Docker engine (none runs here): its stages are read from the file
 * itself and performed in a minimal Debian root (`debootstrap --variant=minbase`, no Python, no
 * compiler) standing in for the node:<version>-<suite>-slim base (tests/deploy/debian-root.ts).
 * COPY takes files from this checkout (minus .dockerignore) or an earlier stage, RUN runs with
 * chroot as the stage's user, in its WORKDIR, with its ENV. Then the image's CMD serves on a
 * free loopback port: health, the console at /console, a signup, an upload and an update check,
 * the HEALTHCHECK, SIGTERM.
 * The size the steps add is measured and must match what the Docker page says.
 *
 * Time: the first run of a day downloads and unpacks Debian (about a minute and a half) and the
 * Node and npm packages; every run installs the server's dependencies from the npm registry.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { posix, join, relative } from 'node:path'
import { after, test } from 'node:test'
import { quickstartTeam } from '../quickstarts/team.ts'
import { bearer, httpFetch, JWT_SECRET, SIGNUP_KEY, uploadForm } from '../server/helpers.ts'
import { apparentBytes, copyRoot, debianNodeRoot, IMAGE_PATH, runInRoot, spawnInRoot, userIds } from './debian-root.ts'
import { commandArgv, copyArgs, envPairs, healthcheckArgv, parseDockerfile, type Stage } from './dockerfile.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const PAGE = 'pages/docs/getting-started/docker-development.mdx'
const NOT_ROOT =
  process.getuid?.() === 0
    ? false
    : 'needs root: debootstrap, chroot and a private mount namespace build the image (CI runs as root)'

const removeAfter: string[] = []
after(() => {
  for (const dir of removeAfter) rmSync(dir, { recursive: true, force: true })
})

/** .dockerignore's entries: plain paths from the context's root (a pattern would be refused). */
function dockerignore(): string[] {
  const entries = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
  for (const entry of entries)
    if (/[*?[!]/.test(entry)) throw new Error(`.dockerignore: ${entry} is a pattern; this test reads plain paths`)
  return entries.map((e) => e.replace(/^\/|\/$/g, ''))
}

interface Image {
  root: string
  stage: Stage
  env: Record<string, string>
  user: string
  workdir: string
  cmd: string[]
  healthcheck: string[]
  expose: string | undefined
  /** Bytes the stage's steps added to the base. */
  added: number
}

/** Performs the Dockerfile's stages; returns the last one's root and settings. */
async function build(log: (line: string) => void): Promise<Image> {
  const stages = parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))
  const ignored = dockerignore()
  const roots = new Map<string, string>()
  let image: Image | undefined
  for (const stage of stages) {
    const m = /^node:(\d+\.\d+\.\d+)-(\w+)-slim$/.exec(stage.from)
    if (!m) throw new Error(`FROM ${stage.from}: this test stands in for node:<version>-<suite>-slim images only`)
    const base = debianNodeRoot(m[2]!, m[1]!, log)
    const root = copyRoot(base)
    removeAfter.push(root)
    const state: Image = {
      root,
      stage,
      env: { PATH: IMAGE_PATH, NODE_VERSION: m[1]! },
      user: 'root',
      workdir: '/',
      cmd: [],
      healthcheck: [],
      expose: undefined,
      added: 0,
    }
    const inRoot = (path: string) => join(root, posix.resolve(state.workdir, path))
    for (const instruction of stage.instructions) {
      const where = `Dockerfile:${instruction.line}`
      const { keyword, args } = instruction
      if (keyword === 'WORKDIR') {
        state.workdir = posix.resolve(state.workdir, args)
        mkdirSync(join(root, state.workdir), { recursive: true })
      } else if (keyword === 'COPY') {
        const { from, sources, dest } = copyArgs(instruction)
        const intoDir = dest.endsWith('/') || sources.length > 1
        for (const source of sources) {
          let path: string
          if (from !== undefined) {
            const other = roots.get(from)
            assert.ok(other, `${where}: COPY --from=${from} names no earlier stage`)
            path = join(other, posix.resolve('/', source))
          } else {
            const clean = posix.normalize(source).replace(/\/$/, '')
            assert.ok(
              !ignored.some((i) => clean === i || clean.startsWith(`${i}/`)),
              `${where}: ${source} is COPYed but .dockerignore excludes it`,
            )
            path = join(ROOT, clean)
          }
          assert.ok(existsSync(path), `${where}: COPY source ${source} does not exist`)
          const target =
            intoDir && !statSync(path).isDirectory() ? join(inRoot(dest), posix.basename(source)) : inRoot(dest)
          cpSync(path, target, {
            recursive: true,
            verbatimSymlinks: true,
            filter: (file) =>
              from !== undefined ||
              !ignored.some((i) => relative(ROOT, file) === i || relative(ROOT, file).startsWith(`${i}/`)),
          })
        }
      } else if (keyword === 'RUN') {
        log(`${where}: RUN ${args}`)
        const env = { HOME: home(state), ...state.env }
        // A network that inspects TLS (this machine's NODE_EXTRA_CA_CERTS) is trusted during RUN
        // only, as `docker build` behind it would be told to; the image keeps nothing of it.
        const hostCa = process.env.NODE_EXTRA_CA_CERTS
        const buildCa = '/tmp/build-host-ca.crt'
        if (hostCa && existsSync(hostCa)) {
          copyFileSync(hostCa, join(root, buildCa))
          Object.assign(env, { NODE_EXTRA_CA_CERTS: buildCa })
        }
        const started = Date.now()
        const run = await runInRoot({ root, user: state.user, cwd: state.workdir, env, argv: commandArgv(instruction) })
        rmSync(join(root, buildCa), { force: true })
        log(`${where}: RUN took ${((Date.now() - started) / 1000).toFixed(1)} s`)
        assert.equal(run.code, 0, `${where}: RUN ${args} failed in a minimal Debian root:\n${run.output.slice(-4000)}`)
      } else if (keyword === 'ENV') Object.assign(state.env, envPairs(instruction))
      else if (keyword === 'USER') {
        userIds(root, args)
        state.user = args
      } else if (keyword === 'VOLUME') for (const v of args.split(/\s+/)) mkdirSync(join(root, v), { recursive: true })
      else if (keyword === 'EXPOSE') state.expose = args
      else if (keyword === 'CMD') state.cmd = commandArgv(instruction)
      else if (keyword === 'HEALTHCHECK') state.healthcheck = healthcheckArgv(instruction)
      else
        throw new Error(
          `${where}: ${keyword} is not performed by this test; teach it (tests/deploy/docker-image.test.ts)`,
        )
    }
    state.added = apparentBytes(root) - apparentBytes(base)
    if (stage.name) roots.set(stage.name, root)
    image = state
  }
  assert.ok(image, 'the Dockerfile has a stage')
  return image
}

function home(image: Image): string {
  const { uid } = userIds(image.root, image.user)
  const line = readFileSync(join(image.root, 'etc', 'passwd'), 'utf8')
    .split('\n')
    .find((l) => l.split(':')[2] === String(uid))
  return line?.split(':')[5] ?? '/'
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  assert.ok(address && typeof address === 'object')
  return address.port
}

/** A figure the Docker page states, by the words around it. */
function pageFigure(pattern: RegExp, what: string): number {
  const m = pattern.exec(readFileSync(join(ROOT, PAGE), 'utf8'))
  assert.ok(m, `${PAGE} states ${what} (${pattern})`)
  return Number(m[1])
}

/** Asserts a page's figure is within 10% of a measurement in the same unit. */
function agrees(stated: number, measured: number, what: string): void {
  assert.ok(
    Math.abs(stated - measured) <= stated * 0.1,
    `${PAGE} says ${stated} for ${what}; measured ${measured.toFixed(1)}: correct the page`,
  )
}

test(
  'the Dockerfile builds in a minimal Debian root without a compiler, and its CMD serves updates',
  { skip: NOT_ROOT, timeout: 600_000 },
  async (t) => {
    for (const tool of ['debootstrap', 'unshare', 'chroot'])
      assert.equal(
        spawnSync('sh', ['-c', `command -v ${tool} || test -x /usr/sbin/${tool}`]).status,
        0,
        `${tool} is missing: npm test installs it (scripts/test-deps.sh)`,
      )
    const image = await build((line) => t.diagnostic(line))
    const { root } = image

    const compilers = spawnSync(
      'sh',
      ['-c', 'ls usr/bin/python3* usr/bin/cc usr/bin/gcc usr/bin/g++ usr/bin/make 2>/dev/null'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    )
    assert.equal(compilers.stdout, '', 'the root stands in for a -slim image: no Python, no compiler')
    const app = join(root, posix.resolve('/', image.workdir))
    assert.ok(
      existsSync(join(app, 'node_modules', 'better-sqlite3', 'prebuilds')) &&
        !existsSync(join(app, 'node_modules', 'better-sqlite3', 'build')),
      'better-sqlite3 is installed as its package ships it (prebuilt binaries, nothing built)',
    )

    // Sizes: what the Docker page says, against what the steps wrote (du -sb, 1 MB = 10^6 bytes).
    const nodeModules = apparentBytes(join(app, 'node_modules')) / 1e6
    const full = apparentBytes(join(ROOT, 'node_modules')) / 1e9
    t.diagnostic(
      `the final stage adds ${image.added / 1e6} MB to its base; its node_modules: ${nodeModules} MB; this checkout's: ${full} GB`,
    )
    agrees(
      pageFigure(/about (\d+) MB of\s+`node_modules`/, "the image's node_modules"),
      nodeModules,
      "the image's node_modules (MB)",
    )
    agrees(
      pageFigure(/(\d+) MB the runtime stage adds/, 'what the runtime stage adds'),
      image.added / 1e6,
      'the runtime stage (MB)',
    )
    agrees(
      pageFigure(/a full\s+`npm ci`\s+installs\s+about\s+([\d.]+)\s+GB/, "a full install's size"),
      full,
      'a full npm ci (GB)',
    )

    // `docker run -e FERRY_HOST=127.0.0.1 -e FERRY_PORT=<free>`: the chroot shares this machine's network.
    assert.equal(image.expose, image.env.FERRY_PORT, 'EXPOSE names the port the server listens on')
    const port = await freePort()
    const env = {
      HOME: home(image),
      ...image.env,
      FERRY_HOST: '127.0.0.1',
      FERRY_PORT: String(port),
      FERRY_SIGNUP_KEY: SIGNUP_KEY,
      FERRY_JWT_SECRET: JWT_SECRET,
    }
    const server = spawnInRoot({ root, user: image.user, cwd: image.workdir, env, argv: image.cmd })
    let output = ''
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve))
    try {
      const listening = await Promise.race([
        new Promise<boolean>((resolve) => {
          const onData = () => {
            if (output.includes('"msg":"listening"')) resolve(true)
          }
          server.stdout?.on('data', onData)
          server.stderr?.on('data', onData)
        }),
        exited.then(() => false),
      ])
      assert.ok(listening, `the image's CMD did not start:\n${output}`)
      const f = httpFetch(`http://127.0.0.1:${port}`)
      const health = await f('/v1/health')
      assert.equal(health.status, 200, await health.clone().text())
      assert.equal(((await health.json()) as { status: string }).status, 'ok')

      // The console stage's build: the page, its script and the icon browsers ask every origin for.
      const consolePage = await f('/console')
      const consoleHtml = await consolePage.text()
      assert.equal(consolePage.status, 200, `the image serves the console at /console:\n${consoleHtml.slice(0, 400)}`)
      assert.match(consolePage.headers.get('content-type') ?? '', /^text\/html/)
      assert.match(consoleHtml, /<script type="module" src="\/console\/console\.js">/)
      const script = await f('/console/console.js')
      const scriptBytes = (await script.arrayBuffer()).byteLength
      assert.equal(script.status, 200, '/console/console.js is served')
      assert.ok(scriptBytes > 10_000, `the console's script is the bundle (${scriptBytes} bytes)`)
      const icon = await f('/favicon.ico')
      assert.equal(icon.status, 200, '/favicon.ico is served')
      assert.equal(icon.headers.get('content-type'), 'image/svg+xml')

      const token = await quickstartTeam(f, {
        email: 'ops@image.test',
        teamName: 'Image',
        app: { slug: 'image-notes', name: 'Image Notes' },
        updater: 'electron-updater',
        platforms: ['windows'],
        archs: ['x64'],
        tokenName: 'image-release',
      })
      const uploaded = await f(
        '/v1/apps/image-notes/versions',
        bearer(token, {
          method: 'POST',
          body: uploadForm(
            { version: '1.1.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' },
            [['ImageNotes-Setup-1.1.0.exe', 'Image Notes 1.1.0 installer\n']],
          ),
        }),
      )
      assert.equal(uploaded.status, 201, await uploaded.clone().text())
      const check = await f('/v1/apps/image-notes/update?version=1.0.0&platform=windows&arch=x64&format=ferry')
      assert.equal(check.status, 200, await check.clone().text())
      assert.equal(((await check.json()) as { version: string }).version, '1.1.0', 'a 1.0.0 app is offered 1.1.0')
      const data = join(root, image.env.FERRY_DATA_DIR ?? '')
      assert.ok(
        image.env.FERRY_DATA_DIR &&
          readdirSync(data).length > 0 &&
          statSync(data).uid === userIds(root, image.user).uid,
        `the server's data went to ${image.env.FERRY_DATA_DIR}, owned by ${image.user}`,
      )

      const healthcheck = image.healthcheck.map((a) => a.replace(`127.0.0.1:${image.expose}`, `127.0.0.1:${port}`))
      assert.notDeepEqual(healthcheck, image.healthcheck, `the HEALTHCHECK calls the exposed port ${image.expose}`)
      const probe = await runInRoot({ root, user: image.user, cwd: image.workdir, env, argv: healthcheck })
      assert.equal(probe.code, 0, `the HEALTHCHECK failed:\n${probe.output}`)

      server.kill('SIGTERM')
      assert.equal(await exited, 0, `docker stop's SIGTERM stops the server cleanly:\n${output}`)
    } finally {
      if (server.exitCode === null) server.kill('SIGKILL')
    }
  },
)
