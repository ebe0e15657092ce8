// backend-matrix: sqlite-only — Ferry Console's static files; no database or blob store
/** /console on the Node edge: the built files with a strict CSP, and a clear page when they are not built. */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { consoleResponse, isConsoleUrl } from '../../server/runtime/console-node.ts'

const get = (path: string, dist: string, method = 'GET') =>
  consoleResponse(new Request(`http://127.0.0.1${path}`, { method }), dist)

test('only /console and what is under it is the console', () => {
  assert.equal(isConsoleUrl('http://h/console'), true)
  assert.equal(isConsoleUrl('http://h/console/apps/x'), true)
  assert.equal(isConsoleUrl('http://h/consoles'), false)
  assert.equal(isConsoleUrl('http://h/v1/apps/console'), false)
  assert.equal(isConsoleUrl('http://h/v1/health?next=/console'), false)
  assert.equal(isConsoleUrl('http://h/favicon.ico'), true, "the server's icon")
  assert.equal(isConsoleUrl('http://h/v1/apps/favicon.ico'), false)
})

test('a missing build answers 404 with a page saying to run npm run build:console', async () => {
  const res = await get('/console', join(tmpdir(), 'ferry-no-console-build'))
  assert.equal(res.status, 404)
  assert.match(res.headers.get('content-type') ?? '', /^text\/html/)
  assert.match(await res.text(), /npm run build:console/)
})

test('the built page, script and stylesheet, each under a CSP without inline code, never framed', async () => {
  const dist = mkdtempSync(join(tmpdir(), 'ferry-console-dist-'))
  try {
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Ferry Console</title>')
    writeFileSync(join(dist, 'console.js'), 'export {}')
    writeFileSync(join(dist, 'console.css'), 'body{}')
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
    for (const [path, type, body] of [
      ['/console/favicon.svg', 'image/svg\\+xml', '<svg'],
      ['/favicon.ico', 'image/svg\\+xml', '<svg'],
      ['/console', 'text/html', 'Ferry Console'],
      ['/console/apps/tidewater', 'text/html', 'Ferry Console'],
      ['/console/console.js', 'text/javascript', 'export'],
      ['/console/console.css', 'text/css', 'body'],
    ] as const) {
      const res = await get(path, dist)
      assert.equal(res.status, 200, path)
      assert.match(res.headers.get('content-type') ?? '', new RegExp(`^${type}`), path)
      assert.match(await res.text(), new RegExp(body), path)
      const csp = res.headers.get('content-security-policy') ?? ''
      assert.match(csp, /script-src 'self'/)
      assert.match(csp, /style-src 'self'/)
      assert.match(csp, /frame-ancestors 'none'/)
      assert.doesNotMatch(csp, /unsafe/)
    }
    // Nothing outside the built files is read: a path naming another file is the page.
    assert.match(await (await get('/console/../package.json', dist)).text(), /Ferry Console/)
    assert.match(await (await get('/console/%2e%2e%2fpackage.json', dist)).text(), /Ferry Console/)
    assert.equal((await get('/console', dist, 'POST')).status, 405)
  } finally {
    rmSync(dist, { recursive: true, force: true })
  }
})
