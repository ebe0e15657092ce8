/**
 * The writing-docs guide's nginx configuration, run as written in Debian's nginx over a small
 * export (a page with a twin, one without, the home page, a stylesheet): a request that accepts
 * Markdown gets the twin at the page's own URL, any other gets the HTML, and both vary on Accept.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { freePort } from '../../services/nginx-server.ts'

const root = join(import.meta.dirname, '..', '..')
const page = 'pages/docs/writing-docs.mdx'
const NGINX = '/usr/sbin/nginx'
const prefix = mkdtempSync(join(tmpdir(), 'ferry-nginx-md-'))
const site = join(prefix, 'out')
let port = 0
let stop: () => Promise<void> = async () => {}

/** The guide's block that answers Accept: text/markdown, with its line. */
function guideBlock(): { line: number; code: string } {
  const text = readFileSync(join(root, page), 'utf8')
  const found = [...text.matchAll(/^```nginx[^\n]*\n([\s\S]*?)^```/gm)].filter((m) => m[1]!.includes('text/markdown'))
  assert.equal(found.length, 1, `${page}: one nginx block mentions text/markdown`)
  const m = found[0]!
  return { line: text.slice(0, m.index).split('\n').length, code: m[1]! }
}

const accepts = (p: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(p, '127.0.0.1', () => {
      socket.end()
      done(true)
    })
    socket.once('error', () => done(false))
  })

before(async () => {
  assert.ok(existsSync(NGINX), `${NGINX} is missing: npm test installs nginx-light (scripts/test-deps.sh)`)
  mkdirSync(join(site, 'docs'), { recursive: true })
  writeFileSync(join(site, 'index.html'), '<p>home</p>')
  writeFileSync(join(site, 'docs', 'intro.html'), '<p>intro as HTML</p>')
  writeFileSync(join(site, 'docs', 'intro.md'), '# Intro\n\nIntro as Markdown.\n')
  writeFileSync(join(site, 'blog.html'), '<p>the blog, no twin</p>')
  writeFileSync(join(site, 'site.css'), 'body{}')
  port = await freePort()
  const { line, code } = guideBlock()
  const body = code
    .replace(/listen 80;/, `listen 127.0.0.1:${port};`)
    .replace(/root \/srv\/ferry-site\/out;/, `root ${site};`)
  assert.notEqual(body, code, `${page}:${line}: the block has a listen and a root to point at the test's files`)
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((name) => `${name}_temp_path ${join(prefix, name)};`)
    .join(' ')
  const file = join(prefix, 'nginx.conf')
  // The workers read the test's files as their owner; everything else is the guide's block.
  writeFileSync(
    file,
    `daemon off;\nuser ${userInfo().username};\nworker_processes 1;\npid ${join(prefix, 'nginx.pid')};\nerror_log ${join(prefix, 'error.log')} warn;\nevents {}\nhttp {\n${temps}\naccess_log off;\n${body}\n}\n`,
  )
  const child = spawn(NGINX, ['-p', prefix, '-c', file, '-e', join(prefix, 'error.log')], { stdio: 'ignore' })
  const exited = new Promise((done) => child.once('exit', done))
  stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(child.pid, 'SIGQUIT')
      await exited
    }
  }
  const deadline = Date.now() + 10_000
  while (!(await accepts(port))) {
    const log = existsSync(join(prefix, 'error.log')) ? readFileSync(join(prefix, 'error.log'), 'utf8') : ''
    assert.ok(child.exitCode === null && Date.now() < deadline, `${page}:${line}: nginx did not start:\n${log}`)
    await new Promise((done) => setTimeout(done, 50))
  }
})

after(async () => {
  await stop()
  rmSync(prefix, { recursive: true, force: true })
})

async function get(path: string, accept: string) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { Accept: accept } })
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    vary: response.headers.get('vary'),
    text: await response.text(),
  }
}

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

test('a page asked for as Markdown answers with its twin, as text/markdown', async () => {
  const answer = await get('/docs/intro', 'text/markdown, text/html;q=0.5')
  assert.equal(answer.status, 200)
  assert.equal(answer.type, 'text/markdown; charset=utf-8')
  assert.equal(answer.text, '# Intro\n\nIntro as Markdown.\n')
  assert.equal(answer.vary, 'Accept')
})

test('the same URL asked for by a browser is the HTML page', async () => {
  const answer = await get('/docs/intro', BROWSER)
  assert.equal(answer.status, 200)
  assert.equal(answer.type, 'text/html; charset=utf-8')
  assert.equal(answer.text, '<p>intro as HTML</p>')
  assert.equal(answer.vary, 'Accept')
})

test('the twin at its own URL is text/markdown; pages without one, and other files, keep their type', async () => {
  const twin = await get('/docs/intro.md', BROWSER)
  assert.deepEqual(
    [twin.status, twin.type, twin.text],
    [200, 'text/markdown; charset=utf-8', '# Intro\n\nIntro as Markdown.\n'],
  )
  const blog = await get('/blog', 'text/markdown')
  assert.deepEqual([blog.status, blog.type, blog.text], [200, 'text/html; charset=utf-8', '<p>the blog, no twin</p>'])
  const home = await get('/', 'text/markdown')
  assert.deepEqual([home.status, home.text], [200, '<p>home</p>'])
  const css = await get('/site.css', 'text/markdown')
  assert.deepEqual([css.status, css.type], [200, 'text/css'])
  assert.equal((await get('/docs/nope', 'text/markdown')).status, 404)
})
