/**
 * The guides' GitHub Actions release workflows, executed here as their Ubuntu job would run them
 * (tests/docs/workflow-runner.ts; `act` is not available): every step in order, in bash, against
 * a real Ferry on a free port, for a pushed tag `v1.2.0` of an app at version 1.2.0.
 *
 * - `actions/checkout` copies a fixture app (the page's `filename="…"` blocks) or, for
 *   `ferry-updates/ferry`, this checkout's files (tracked and untracked, as git sees them) into
 *   the step's `path`; `actions/setup-node` puts this Node first on PATH.
 * - `secrets.FERRY_TOKEN` is a release token for the app the step publishes; FERRY_URL and the
 *   guides' example hosts (updates.acme.test, updates.example.com) point at the test's server.
 * - Replaced, because they cannot run here: `npx electron-builder` (it downloads Electron from
 *   GitHub) by tests/docs/fixtures/electron-builder-stand-in.mjs, which packs the app's folder
 *   into app.asar with Electron's asar packer and writes a Linux build's output; tauri-action (Rust
 *   and WebKit) by a recorded bundle folder; the Rust toolchain and the Tauri build's apt packages
 *   are skipped. Everything else — `npm ci` in the app, `npm ci` and `npm pack` or `ferry publish`
 *   in Ferry's checkout, curl uploads — runs as written. When the page that builds the app has the
 *   reader add Ferry's tarball as a devDependency, the fixture app gets it before its `npm ci`
 *   (`npm install --package-lock-only`): a workflow that does not pack Ferry fails there.
 *
 * Then: nothing of Ferry is in the app's folder or in what electron-builder packs (app.asar), and
 * the server holds version 1.2.0 (a tag sent as the version, `v1.2.0`, is answered 400).
 * Backends: `npm test` runs it on SQLite and files only; its server comes from `startTestServer`,
 * so `npx tsx tests/server/run-on-postgres.ts <this file>` runs it on PostgreSQL + S3 (not in CI).
 */
import { listPackage } from '@electron/asar'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { after, test } from 'node:test'
import { quickstartTeam } from '../quickstarts/team.ts'
import { bearer, httpFetch, login, PASSWORD, startTestServer } from '../server/helpers.ts'
import { pageWorkflows, runSteps, type Step } from './workflow-runner.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const STAND_IN = join(import.meta.dirname, 'fixtures', 'electron-builder-stand-in.mjs')
const TAG = 'v1.2.0'
const VERSION = '1.2.0'
/** How this machine reaches the npm registry (its CA bundle, a proxy), passed to the workflow's steps. */
const NETWORK_VARIABLES = [
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy',
]
/** A file only Ferry's checkout has: found in the app, Ferry was shipped with it. */
const FERRY_MARK = 'server/runtime/node.ts'

type AppKind = 'electron' | 'tauri' | 'upload'
const CASES: Array<{ page: string; app: AppKind; files: string }> = [
  { page: 'pages/docs/publishing.mdx', app: 'electron', files: 'pages/docs/quickstart-electron.mdx' },
  { page: 'pages/docs/quickstart-electron.mdx', app: 'electron', files: 'pages/docs/quickstart-electron.mdx' },
  { page: 'pages/docs/quickstart-tauri.mdx', app: 'tauri', files: 'pages/docs/quickstart-tauri.mdx' },
  { page: 'pages/docs/team_based_auth.mdx', app: 'upload', files: 'pages/docs/team_based_auth.mdx' },
]

const work = mkdtempSync(join(tmpdir(), 'ferry-workflows-'))
after(() => rmSync(work, { recursive: true, force: true }))

/** The page's `filename="…"` blocks: the files of the app the page builds. */
function pageFiles(page: string): Record<string, string> {
  const text = readFileSync(join(ROOT, page), 'utf8')
  const files: Record<string, string> = {}
  for (const m of text.matchAll(/^```\w+ [^\n]*filename="([^"]+)"[^\n]*\n([\s\S]*?)^```/gm)) files[m[1]!] = m[2]!
  return files
}

/** The app's repository at tag v1.2.0: its package.json and lock (no dependencies to install here) and the page's files. */
function writeApp(dir: string, kind: AppKind, page: string, slug: string): void {
  const pkg = { name: slug, version: VERSION, private: true, main: 'src/main.js' }
  const files: Record<string, string> = {
    'package.json': JSON.stringify(pkg, null, 2),
    'package-lock.json': JSON.stringify(
      { name: slug, version: VERSION, lockfileVersion: 3, requires: true, packages: { '': pkg } },
      null,
      2,
    ),
    ...pageFiles(page),
  }
  if (kind === 'electron' && !files['electron-builder.yml'])
    throw new Error(`${page} has no electron-builder.yml block`)
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), content)
  }
}

/** This checkout as `actions/checkout` of Ferry would bring it: the files git sees, not node_modules or data. */
function copyFerry(dest: string): void {
  mkdirSync(dest, { recursive: true })
  const copy = spawnSync(
    'sh',
    [
      '-c',
      'git ls-files -z --cached --others --exclude-standard | tar --null --ignore-failed-read -T - -cf - | tar -xf - -C "$0"',
      dest,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  )
  assert.equal(copy.status, 0, `copying the checkout failed: ${copy.stderr}`)
}

/** `bundle/` as tauri-action leaves it on ubuntu-22.04 with updater artifacts: AppImage with its signature, deb, rpm. */
function recordedTauriBundle(app: string, product: string): void {
  const bundle = join(app, 'src-tauri', 'target', 'release', 'bundle')
  const files: Record<string, string> = {
    [`appimage/${product}_${VERSION}_amd64.AppImage`]: `${product} ${VERSION} AppImage\n`,
    [`appimage/${product}_${VERSION}_amd64.AppImage.sig`]: `signature of ${product}_${VERSION}_amd64.AppImage`,
    [`deb/${product}_${VERSION}_amd64.deb`]: 'deb\n',
    [`rpm/${product}-${VERSION}-1.x86_64.rpm`]: 'rpm\n',
  }
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(bundle, name)), { recursive: true })
    writeFileSync(join(bundle, name), content)
  }
}

/** Every path under dir, relative to it. */
function walk(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((p) => p.split('\\').join('/'))
}

for (const { page, app: kind, files } of CASES) {
  test(`${page}: the release workflow runs step by step, ships nothing of Ferry in the app and publishes ${VERSION}`, async (t) => {
    const found = pageWorkflows(ROOT, page)
    assert.equal(found.length, 1, `${page} shows one workflow (or workflow step)`)
    const { line, steps, workflow } = found[0]!
    const where = `${page}:${line}`
    const text = JSON.stringify(steps)
    const slug = /--app (\S+)/.exec(text)?.[1] ?? /\/v1\/apps\/([\w-]+)\//.exec(text)?.[1]
    assert.ok(slug, `${where}: the workflow names the app it publishes`)

    const server = await startTestServer()
    t.after(() => server.stop())
    const f = httpFetch(server.url)
    const email = 'release@harbor.test'
    const token = await quickstartTeam(f, {
      email,
      teamName: 'Harbor',
      app: { slug, name: slug },
      updater: kind === 'tauri' ? 'tauri' : 'electron-updater',
      platforms: ['linux', 'windows'],
      archs: ['x64'],
      tokenName: 'release',
    })

    const workspace = join(work, `${kind}-${line}`)
    mkdirSync(workspace, { recursive: true })
    // The matrix's Ubuntu entry is the job simulated here.
    const matrixOs = Object.values(workflow?.jobs ?? {})
      .flatMap((job) => (job.strategy?.matrix?.os as string[] | undefined) ?? [])
      .find((os) => os.startsWith('ubuntu'))
    const tools = join(workspace, '..', `${kind}-${line}-tools`)
    mkdirSync(tools, { recursive: true })
    symlinkSync(process.execPath, join(tools, 'node'))
    const local = server.url
    const expressions: Record<string, string> = {
      'github.ref_name': TAG,
      'secrets.FERRY_TOKEN': token,
      'vars.FERRY_URL': local,
      'matrix.os': matrixOs ?? 'ubuntu-latest',
      'secrets.CSC_LINK': '',
      'secrets.CSC_KEY_PASSWORD': '',
      'secrets.TAURI_SIGNING_PRIVATE_KEY': 'recorded-build',
      'secrets.TAURI_SIGNING_PRIVATE_KEY_PASSWORD': 'recorded-build',
    }
    const env: Record<string, string> = {
      PATH: `/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`,
      HOME: process.env.HOME ?? '/root',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_REF: `refs/tags/${TAG}`,
      GITHUB_REF_NAME: TAG,
      GITHUB_REF_TYPE: 'tag',
      GITHUB_WORKSPACE: workspace,
      // npm's cache is warm here (this checkout's npm ci), as setup-node's `cache: npm` makes it on a runner.
      npm_config_prefer_offline: 'true',
      // The machine's own trust store and proxy, as a runner's are: what the cache lacks npm fetches.
      ...Object.fromEntries(
        NETWORK_VARIABLES.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
      ),
    }
    // The guides' example hosts stand for the reader's Ferry: here, the test's.
    const toLocal = (s: string) => s.replace(/https:\/\/updates\.(?:acme\.test|example\.com)/g, local)
    let appDir = workspace
    if (!steps.some((s) => s.uses?.startsWith('actions/checkout'))) {
      // A step shown alone runs in the app's checkout after its build: the recorded installer it uploads.
      writeApp(workspace, kind, files, slug)
      const upload = /files=@([^\s"\\]+)/.exec(text)?.[1]
      assert.ok(upload, `${where}: the step uploads a file`)
      mkdirSync(dirname(join(workspace, upload)), { recursive: true })
      writeFileSync(join(workspace, upload), `${slug} ${VERSION} installer (recorded build output)\n`)
    }

    // FERRY_URL, as the steps' env names it, points at the test's server.
    const runnable = steps.map((step) => ({
      ...step,
      ...(step.env
        ? { env: Object.fromEntries(Object.entries(step.env).map(([k, v]) => [k, toLocal(String(v))])) }
        : {}),
    }))
    const appDependsOnFerry = readFileSync(join(ROOT, files), 'utf8').includes('npm i -D ../ferry/ferry-0.1.0.tgz')
    const results = await runSteps(where, runnable, {
      workspace,
      expressions,
      env,
      uses: async (step: Step, stepEnv) => {
        const uses = step.uses ?? ''
        if (uses.startsWith('actions/checkout@')) {
          const dest = join(workspace, step.with?.path ?? '')
          if (step.with?.repository === 'ferry-updates/ferry') {
            copyFerry(dest)
            return `checked out this repository into ${relative(workspace, dest) || '.'}`
          }
          assert.equal(step.with?.repository, undefined, `${where}: checkout of ${step.with?.repository}`)
          appDir = dest
          writeApp(dest, kind, files, slug)
          return `checked out the fixture app into ${relative(workspace, dest) || '.'}`
        }
        if (uses.startsWith('actions/setup-node@')) {
          assert.equal(String(step.with?.['node-version']), '24', `${where}: the job sets up Node 24`)
          env.PATH = `${tools}:${env.PATH}`
          return `Node ${process.version} first on PATH`
        }
        if (uses.startsWith('dtolnay/rust-toolchain@'))
          return 'skipped: Rust builds the Tauri app, whose bundle is recorded'
        if (uses.startsWith('tauri-apps/tauri-action@')) {
          assert.ok(stepEnv.TAURI_SIGNING_PRIVATE_KEY, `${where}: tauri-action gets the signing key`)
          const project = join(workspace, step.with?.projectPath ?? '')
          const conf = JSON.parse(readFileSync(join(project, 'src-tauri', 'tauri.conf.json'), 'utf8')) as {
            productName?: string
          }
          recordedTauriBundle(project, conf.productName ?? slug)
          return 'replaced: a recorded tauri-action bundle (Rust and WebKit do not build here)'
        }
        throw new Error(`${where}: ${uses} is neither run nor replaced by this test`)
      },
      replace: (run, step) => {
        if (/^sudo apt-get /.test(run))
          return { skip: `"${step.name}" installs the Tauri build's libraries; the bundle is recorded` }
        let script = toLocal(run).replace(
          /\bnpx electron-builder --publish never\b/,
          `node ${JSON.stringify(STAND_IN)}`,
        )
        // The app's devDependency on Ferry's tarball, as the page that builds the app has the reader
        // add it (`npm i -D ../ferry/ferry-0.1.0.tgz`): made when the app's dependencies install.
        const devDependency = appDependsOnFerry && step['working-directory'] === 'app' && /^npm ci\b/.test(script)
        if (devDependency)
          script = `npm install --package-lock-only --no-audit --no-fund --save-dev ../ferry/ferry-0.1.0.tgz && ${script}`
        if (script === run) return undefined
        return {
          script,
          why: [
            devDependency ? "the fixture app's devDependency on Ferry's tarball, as step 3 adds it" : '',
            script.includes(STAND_IN)
              ? 'electron-builder (which downloads Electron from GitHub) by tests/docs/fixtures/electron-builder-stand-in.mjs'
              : '',
            script.includes(local) && !run.includes(local) ? `the example host by the test's server ${local}` : '',
          ]
            .filter(Boolean)
            .join('; '),
        }
      },
    })
    for (const r of results) t.diagnostic(`${r.step.name ?? r.step.uses ?? r.step.run?.split('\n')[0]}: ${r.how}`)

    // A page that counts what Ferry's runtime install adds states npm's own count.
    const counted = /runtime \((\d+) packages\)/.exec(readFileSync(join(ROOT, page), 'utf8'))?.[1]
    const install = results.find((r) => r.step.run?.startsWith('npm ci --omit=dev'))
    if (counted && install) {
      const added = /added (\d+) packages/.exec(install.output)?.[1]
      assert.equal(added, counted, `${page} says Ferry's runtime is ${counted} packages; npm ci added ${added}`)
    }

    // Nothing of Ferry in the app's folder, nor in what electron-builder packed.
    assert.ok(
      !existsSync(join(appDir, 'ferry')),
      `${where}: Ferry was checked out inside the app (${relative(workspace, appDir)}/ferry)`,
    )
    // node_modules is left out: a devDependency is not packed (electron-builder) or bundled (Tauri).
    const inApp = walk(appDir).filter((p) => p.endsWith(FERRY_MARK) && !p.startsWith('node_modules/'))
    assert.deepEqual(inApp, [], `${where}: Ferry's sources are in the app's folder`)
    if (kind === 'electron') {
      const asar = join(appDir, 'dist', 'linux-unpacked', 'resources', 'app.asar')
      const packed = listPackage(asar, { isPack: false })
      assert.ok(packed.includes('/package.json'), `${where}: app.asar holds the app (${packed.length} entries)`)
      assert.deepEqual(
        packed.filter((p) => p.startsWith('/ferry') || p.endsWith(FERRY_MARK)),
        [],
        `${where}: app.asar ships Ferry`,
      )
    }

    // The version published is the app's, valid for Ferry.
    const session = (await (await login(f, email, PASSWORD)).json()) as { token: string }
    const list = await f(`/v1/apps/${slug}/versions`, bearer(session.token))
    assert.equal(list.status, 200, await list.clone().text())
    const versions = ((await list.json()) as { items: Array<{ version: string }> }).items.map((v) => v.version)
    assert.deepEqual(versions, [VERSION], `${where}: the server holds ${VERSION} after the workflow`)
  })
}
