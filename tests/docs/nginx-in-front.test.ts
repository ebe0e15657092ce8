/**
 * production-deploy.mdx's nginx blocks, as written, in front of a real Ferry: Debian's nginx with a
 * throw-away certificate for updates.example.com, curl as the client (resolving that name to
 * 127.0.0.1). Only the ports, the certificate files and the upstream address are changed from
 * the page. nginx-config.test.ts checks the same blocks with `nginx -t`; this one sends traffic.
 * Backends: `npm test` runs it on SQLite and files only; its server comes from `startTestServer`,
 * so `npx tsx tests/server/run-on-postgres.ts <this file>` runs it on PostgreSQL + S3 (not in CI).
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { promisify } from 'node:util'
import { pageBlocks } from '../../lib/docs-runner/pages.ts'
import { freePort, startNginx, throwawayCertificate, type Nginx } from '../../services/nginx-server.ts'
import { httpFetch, prepareUploadTeam, startTestServer, type TestServer } from '../server/helpers.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const PAGE = 'pages/docs/getting-started/production-deploy.mdx'
const HOST = 'updates.example.com'
const run = promisify(execFile)

let server: TestServer
let nginx: Nginx
let token: string
let https: string
let http: number
const work = mkdtempSync(join(tmpdir(), 'ferry-nginx-front-'))

/** The page's first nginx block (the TLS proxy and the port-80 redirect), pointed at this run's ports. */
function guideProxy(tls: number, plain: number, upstream: string, cert: string, key: string): string {
  const block = pageBlocks(ROOT, PAGE).find((b) => b.lang === 'nginx' && b.code.includes('proxy_pass'))
  assert.ok(block, `${PAGE} shows an nginx block with proxy_pass`)
  const edits: Array<[string, string]> = [
    ['listen 443 ssl http2;', `listen 127.0.0.1:${tls} ssl http2;`],
    ['listen 80;', `listen 127.0.0.1:${plain};`],
    ['proxy_pass http://127.0.0.1:8080;', `proxy_pass http://${upstream};`],
    [`/etc/letsencrypt/live/${HOST}/fullchain.pem`, cert],
    [`/etc/letsencrypt/live/${HOST}/privkey.pem`, key],
  ]
  let code = block.code
  for (const [from, to] of edits) {
    assert.ok(code.includes(from), `${PAGE}:${block.line}: the nginx block no longer says ${JSON.stringify(from)}`)
    code = code.replace(from, to)
  }
  return code
}

/** curl as a reader would run it, the name resolved to 127.0.0.1; returns status, headers and body file. */
async function curl(url: string, ...args: string[]) {
  const port = new URL(url).port
  const headers = join(work, `headers-${Math.random()}`)
  const body = join(work, `body-${Math.random()}`)
  const { stdout } = await run('curl', [
    '-sS',
    '--cacert',
    join(work, 'fullchain.pem'),
    '--resolve',
    `${HOST}:${port}:127.0.0.1`,
    '-D',
    headers,
    '-o',
    body,
    '-w',
    '%{http_code}',
    ...args,
    url,
  ])
  return { status: Number(stdout), headers: readFileSync(headers, 'utf8'), body: readFileSync(body) }
}

before(async () => {
  const tls = await freePort()
  http = await freePort()
  https = `https://${HOST}:${tls}`
  server = await startTestServer(4 * 1024 * 1024, { publicUrl: https, trustedProxies: ['127.0.0.1'] })
  const { cert, key } = throwawayCertificate(work, HOST)
  nginx = await startNginx([], [], { http: [guideProxy(tls, http, new URL(server.url).host, cert, key)] })
  token = await prepareUploadTeam(httpFetch(server.url), 'front')
})
after(async () => {
  await nginx?.stop()
  await server?.stop()
  rmSync(work, { recursive: true, force: true })
})

test("through the guide's nginx: TLS with HSTS, and port 80 redirects to https", async () => {
  const health = await curl(`${https}/v1/health`)
  assert.equal(health.status, 200, health.body.toString())
  assert.match(health.headers, /^strict-transport-security: max-age=31536000/im)
  const plain = await curl(`http://${HOST}:${http}/v1/health`)
  assert.equal(plain.status, 301)
  assert.match(plain.headers, new RegExp(`^location: https://${HOST}/v1/health`, 'im'))
})

test("an upload larger than nginx's default 1 MB body limit, then the update check and the download", async () => {
  const bytes = Buffer.alloc(3 * 1024 * 1024, 7)
  const file = join(work, 'Front Setup 1.0.0.exe')
  writeFileSync(file, bytes)
  const fields = { version: '1.0.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }
  const upload = await curl(
    `${https}/v1/apps/front/versions`,
    '-H',
    `authorization: Bearer ${token}`,
    ...Object.entries(fields).flatMap(([k, v]) => ['-F', `${k}=${v}`]),
    '-F',
    `files=@${file}`,
  )
  assert.equal(upload.status, 201, upload.body.toString())
  const check = await curl(`${https}/v1/apps/front/update?version=0.9.0&platform=windows&arch=x64&format=ferry`)
  assert.equal(check.status, 200, check.body.toString())
  const answer: unknown = JSON.parse(check.body.toString())
  const url = JSON.stringify(answer).match(/"(https:[^"]+\/download[^"]*)"/)?.[1]
  assert.ok(url, `the answer names a download link: ${check.body.toString()}`)
  assert.ok(url.startsWith(`${https}/`), `links use FERRY_PUBLIC_URL behind the proxy: ${url}`)
  const download = await curl(url, '-L')
  assert.equal(download.status, 200)
  assert.equal(
    createHash('sha256').update(download.body).digest('hex'),
    createHash('sha256').update(bytes).digest('hex'),
    'the bytes through nginx are the bytes uploaded',
  )
})
