/**
 * The production guide's nginx blocks pass Debian's `nginx -t` as written, with a throw-away
 * certificate in place of Let's Encrypt's files. A block that says "as above" gets the first
 * block's certificate lines, as a reader would copy them.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { throwawayCertificate } from '../../services/nginx-server.ts'

const root = join(import.meta.dirname, '..', '..')
const page = 'pages/docs/getting-started/production-deploy.mdx'
const NGINX = '/usr/sbin/nginx'
const prefix = mkdtempSync(join(tmpdir(), 'ferry-nginx-t-'))
after(() => rmSync(prefix, { recursive: true, force: true }))

function blocks(): Array<{ line: number; code: string }> {
  const text = readFileSync(join(root, page), 'utf8')
  return [...text.matchAll(/^```nginx[^\n]*\n([\s\S]*?)^```/gm)].map((m) => ({
    line: text.slice(0, m.index).split('\n').length,
    code: m[1]!,
  }))
}

test(`${page}: every nginx block passes nginx -t`, () => {
  assert.ok(existsSync(NGINX), `${NGINX} is missing: npm test installs nginx-light (scripts/test-deps.sh)`)
  const { cert, key } = throwawayCertificate(prefix, 'updates.example.com')
  const found = blocks()
  assert.ok(found.length >= 2, `the page's nginx blocks were found (${found.length})`)
  for (const { line, code } of found) {
    let body = code
      .replaceAll('/etc/letsencrypt/live/updates.example.com/fullchain.pem', cert)
      .replaceAll('/etc/letsencrypt/live/updates.example.com/privkey.pem', key)
    if (/listen 443 ssl/.test(body) && !body.includes('ssl_certificate')) {
      body = body.replace(/(listen 443 ssl[^;]*;)/, `$1\n    ssl_certificate ${cert};\n    ssl_certificate_key ${key};`)
    }
    // A block that adds a location "to the server block above" is checked inside a server block.
    if (/^\s*location\b/m.test(body) && !/^\s*server\s*\{/m.test(body))
      body = `server {\n    listen 127.0.0.1:8443;\n${body}\n}`
    const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
      .map((name) => `${name}_temp_path ${join(prefix, name)};`)
      .join(' ')
    const config = `pid ${join(prefix, 'nginx.pid')};\nerror_log ${join(prefix, 'error.log')};\nevents {}\nhttp {\n${temps}\naccess_log off;\n${body}\n}\n`
    const file = join(prefix, `block-${line}.conf`)
    writeFileSync(file, config)
    const result = spawnSync(NGINX, ['-t', '-q', '-p', prefix, '-c', file, '-e', join(prefix, 'error.log')], {
      encoding: 'utf8',
    })
    assert.equal(result.status, 0, `${page}:${line}: nginx -t failed:\n${result.stderr}`)
    assert.doesNotMatch(result.stderr, /\[warn\]|\[emerg\]/, `${page}:${line}: nginx -t warned:\n${result.stderr}`)
  }
})
