/**
 * The install of local-deploy ("Keep it running with systemd") and the upgrade of
 * production-deploy ("Upgrades"), followed as written on a machine with npm's default settings
 * (a fresh HOME, no npm_config_* variables): a bare repository holding this checkout's files
 * stands for GitHub, a folder for /opt/ferry. The blocks' git and npm lines run in bash; the
 * machine's administration (useradd, install -d, systemctl, journalctl) is left out. After the
 * install the unit's ExecStart serves the API and the console; upstream then commits a lockfile change (a version bump);
 * the upgrade's lines run, and the unit's ExecStart serves the new version. `git status
 * --porcelain` must list nothing after each step: `git pull --ff-only` refuses to update a file
 * the install rewrote.
 *
 * Time: two `npm ci --omit=dev` from the npm registry (this machine's npm cache is used).
 */
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { pageBlocks } from '../../lib/docs-runner/pages.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const INSTALL_PAGE = 'pages/docs/getting-started/local-deploy.mdx'
const UPGRADE_PAGE = 'pages/docs/getting-started/production-deploy.mdx'
const GITHUB = 'https://github.com/ferry-updates/ferry.git'
/** Lines that set up the machine rather than the checkout. */
const MACHINE = /^(useradd|install -d|systemctl|journalctl) /

const base = mkdtempSync(join(tmpdir(), 'ferry-upgrade-'))
after(() => rmSync(base, { recursive: true, force: true }))
const upstream = join(base, 'upstream.git')
const work = join(base, 'work')
const opt = join(base, 'opt-ferry')
const home = join(base, 'home')
mkdirSync(home)

/** npm as on a machine nobody configured: no user .npmrc, nothing npm exported to this test, no node_modules/.bin on PATH. */
const env: NodeJS.ProcessEnv = { ...process.env }
for (const name of Object.keys(env)) if (/^npm_/i.test(name) || name.startsWith('FERRY_')) delete env[name]
env.HOME = home
env.PATH = (process.env.PATH ?? '')
  .split(':')
  .filter((dir) => !dir.includes('node_modules'))
  .join(':')
// The packages come from the registry as on any machine; only the download is spared.
env.npm_config_cache = join(homedir(), '.npm')

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 })
  assert.equal(result.status, 0, `${command} ${args.join(' ')} in ${cwd}:\n${result.stdout}\n${result.stderr}`)
  return result.stdout
}
const git = (cwd: string, ...args: string[]) =>
  run('git', ['-c', 'user.name=upstream', '-c', 'user.email=upstream@localhost', ...args], cwd)

/** The page's bash block that contains `marker`, as the lines this test runs. */
function commands(page: string, marker: string): string {
  const block = pageBlocks(ROOT, page).find((b) => b.lang === 'bash' && b.code.includes(marker))
  assert.ok(block, `${page} has a bash block with ${marker}`)
  return block.code
    .split('\n')
    .filter((line) => line.trim() && !MACHINE.test(line))
    .map((line) => line.replaceAll(GITHUB, upstream).replaceAll('/opt/ferry', opt))
    .join('\n')
}

function clean(step: string): void {
  assert.equal(git(opt, 'status', '--porcelain'), '', `git status after ${step} lists changes`)
}

/** The unit's ExecStart in the install: it must serve, then stop on SIGTERM. Resolves to the version /v1/health names. */
async function serve(): Promise<string> {
  const page = readFileSync(join(ROOT, INSTALL_PAGE), 'utf8')
  const execStart = /^ExecStart=(.*)$/m.exec(page)?.[1]
  assert.ok(execStart, `${INSTALL_PAGE} shows a unit with ExecStart`)
  const [program = '', ...args] = execStart.replaceAll('/opt/ferry', opt).split(' ')
  const child = spawn(program, args, {
    cwd: opt,
    env: { ...env, FERRY_DATA_DIR: join(base, 'data'), FERRY_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stderr.on('data', (d: Buffer) => (out += d.toString()))
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  const url = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const line = out.split('\n').find((l) => l.includes('"msg":"listening"'))
      if (line) done((JSON.parse(line) as { url: string }).url)
    })
    void exited.then((code) => fail(new Error(`the server exited with ${code} before listening:\n${out}`)))
  })
  const health = (await (await fetch(`${url}/v1/health`)).json()) as { status?: string; version?: string }
  const consolePage = await fetch(`${url}/console`)
  const pageText = await consolePage.text()
  const script = await fetch(`${url}/console/console.js`)
  const scriptType = script.headers.get('content-type')
  const scriptBytes = (await script.arrayBuffer()).byteLength
  child.kill('SIGTERM')
  assert.equal(await exited, 0, `the server stops with status 0 on SIGTERM:\n${out}`)
  assert.equal(health.status, 'ok')
  assert.equal(consolePage.status, 200, `the install serves the console at /console:\n${pageText.slice(0, 400)}`)
  assert.match(pageText, /<script type="module" src="\/console\/console\.js">/)
  assert.equal(script.status, 200, '/console/console.js is served')
  assert.match(scriptType ?? '', /^text\/javascript/)
  assert.ok(scriptBytes > 10_000, `the console's script is the bundle (${scriptBytes} bytes)`)
  return health.version ?? ''
}

test(
  `${INSTALL_PAGE}'s install and ${UPGRADE_PAGE}'s upgrade leave the checkout clean, across a lockfile change`,
  { timeout: 900_000 },
  async () => {
    // Upstream: this checkout's tracked files, as they are now.
    git(base, 'init', '-q', '--bare', '-b', 'main', upstream)
    git(base, 'init', '-q', '-b', 'main', work)
    for (const file of run('git', ['ls-files', '-z'], ROOT).split('\0').filter(Boolean))
      cpSync(join(ROOT, file), join(work, file), { recursive: true, force: true, errorOnExist: false })
    git(work, 'add', '-A')
    git(work, 'commit', '-q', '--no-gpg-sign', '-m', 'upstream')
    git(work, 'push', '-q', upstream, 'main')

    run('bash', ['-euo', 'pipefail', '-c', commands(INSTALL_PAGE, 'git clone')], base)
    clean('the install')
    const installed = await serve()
    clean('the first start')

    // Upstream changes the lockfile: the next version.
    const pkg = JSON.parse(readFileSync(join(work, 'package.json'), 'utf8')) as { version: string }
    const next = pkg.version.replace(/\d+$/, (patch) => String(Number(patch) + 1))
    for (const file of ['package.json', 'package-lock.json']) {
      const text = readFileSync(join(work, file), 'utf8')
      const json = JSON.parse(text) as { version: string; packages?: Record<string, { version?: string }> }
      json.version = next
      if (json.packages?.['']) json.packages[''].version = next
      writeFileSync(join(work, file), `${JSON.stringify(json, null, 2)}\n`)
    }
    git(work, 'commit', '-q', '--no-gpg-sign', '-am', `${next}`)
    git(work, 'push', '-q', upstream, 'main')
    assert.match(git(work, 'show', '--stat', 'HEAD'), /package-lock\.json/)

    run('bash', ['-euo', 'pipefail', '-c', commands(UPGRADE_PAGE, 'git pull')], base)
    clean('the upgrade')
    assert.equal(git(opt, 'rev-parse', 'HEAD'), git(work, 'rev-parse', 'HEAD'), 'the install is on upstream’s commit')
    const upgraded = await serve()
    clean('the restart')
    assert.notEqual(installed, upgraded)
    assert.equal(upgraded, next, 'the restarted server is the new version')
  },
)
