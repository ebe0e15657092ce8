/**
 * `ferry tuf` and `ferry publish` with a release key against a real server: keys and root made
 * offline, the root pushed, a publish signed in CI that a `tuf-js` client then verifies; without
 * the key, or with a key the root does not name, nothing is uploaded. Every request the CLI makes
 * goes through a recording proxy, which shows the private key is never sent.
 */
import assert from 'node:assert/strict'
import { createServer, request, type Server } from 'node:http'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { bearer, httpFetch, jsonBody, signup, startTestServer, type Fetch, type TestServer } from '../server/helpers.ts'
import { tufClient } from '../server/tuf-fixtures.ts'
import { electronBuilderDist, ferry } from './fixtures.ts'

let server: TestServer
let f: Fetch
let admin: string
let work: string
let proxy: Server
let proxyUrl: string
/** Every request the CLI sent: method, path, headers and body, as text. */
const sent: string[] = []

before(async () => {
  server = await startTestServer()
  f = httpFetch(server.url)
  admin = (await signup(f, 'ci@signed.test')).token
  for (const [path, body] of [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'electron-updater' }],
    ['/v1/platforms', { name: 'darwin', updater: 'electron-updater' }],
    ['/v1/platforms', { name: 'linux', updater: 'tauri' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/archs', { name: 'arm64' }],
    ['/v1/apps', { slug: 'signed', name: 'Signed' }],
  ] as const) {
    const res = await f(path, jsonBody(body, admin))
    assert.equal(res.status, 201, await res.text())
  }
  const target = new URL(server.url)
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      sent.push(`${req.method} ${req.url}\n${JSON.stringify(req.headers)}\n${body.toString('latin1')}`)
      const out = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        },
      )
      out.end(body)
    })
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const address = proxy.address()
  proxyUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  work = mkdtempSync(join(tmpdir(), 'ferry-cli-tuf-'))
})
after(async () => {
  await new Promise((resolve) => proxy.close(resolve))
  await server.stop()
  rmSync(work, { recursive: true, force: true })
})

const env = () => ({ FERRY_URL: proxyUrl, FERRY_TOKEN: admin })
const at = (name: string) => join(work, name)

async function versionCount(): Promise<number> {
  const res = await f('/v1/apps/signed/versions?limit=100', bearer(admin))
  return ((await res.json()) as { items: unknown[] }).items.length
}

test('keys and root offline, publish signed with FERRY_TUF_KEY, a tuf-js client verifies the download', async () => {
  for (const key of ['root-a.pem', 'root-b.pem', 'release.pem']) {
    const made = await ferry(['tuf', 'keygen', at(key)], {})
    assert.equal(made.code, 0, made.stderr)
    assert.match(made.stdout, /ed25519 key [0-9a-f]{64}/)
  }
  assert.equal((await ferry(['tuf', 'keygen', at('release.pem')], {})).code, 2, 'a key is never overwritten')
  writeFileSync(at('online-key.json'), await (await f('/v1/apps/signed/tuf/online-key.json')).text())
  const initArgs = ['--root-key', at('root-a.pem'), '--root-key', at('root-b.pem'), '--root-threshold', '2']
  const init = await ferry(
    [
      'tuf',
      'init',
      '--out',
      at('root.json'),
      ...initArgs,
      '--targets-key',
      at('release.pem'),
      '--online-key',
      at('online-key.json'),
    ],
    {},
  )
  assert.equal(init.code, 0, init.stderr)
  assert.match(init.stdout, /root version 1, signed by 2 of the 2 root keys needed/)
  const pushed = await ferry(['tuf', 'push', at('root.json'), '--app', 'signed'], env())
  assert.equal(pushed.code, 0, pushed.stderr)

  const dist = at('dist')
  electronBuilderDist(dist, '1.2.0')
  // Without the key: a clear error before anything is uploaded.
  const unsigned = await ferry(['publish', dist, '--app', 'signed'], env())
  assert.equal(unsigned.code, 2, unsigned.stderr)
  assert.match(unsigned.stderr, /signed publishes signed metadata \(TUF\): pass --tuf-key <file> or set FERRY_TUF_KEY/)
  assert.match(unsigned.stderr, /Nothing uploaded/)
  const missingFile = await ferry(['publish', dist, '--app', 'signed', '--tuf-key', at('nope.pem')], env())
  assert.equal(missingFile.code, 2)
  assert.match(missingFile.stderr, /--tuf-key: cannot read .*nope\.pem/)
  // A key the root does not give the targets role (here a root key): refused, nothing uploaded.
  const wrong = await ferry(['publish', dist, '--app', 'signed', '--tuf-key', at('root-a.pem')], env())
  assert.equal(wrong.code, 2, wrong.stderr)
  assert.match(wrong.stderr, /is not a targets key of signed's root version 1/)
  assert.equal(await versionCount(), 0)

  const pem = readFileSync(at('release.pem'), 'utf8')
  const published = await ferry(['publish', dist, '--app', 'signed'], { ...env(), FERRY_TUF_KEY: pem })
  assert.equal(published.code, 0, published.stderr)
  assert.match(published.stdout, /signed metadata: targets version 1 lists \d+ files/)
  assert.match(published.stdout, /windows\/x64: uploaded and signed 1\.2\.0, published/)

  const listed = (await (await f('/v1/apps/signed/versions?limit=100', bearer(admin))).json()) as {
    items: Array<{
      id: string
      platform: string
      published: boolean
      artifacts: Array<{ id: string; fileName: string }>
    }>
  }
  assert.ok(listed.items.length > 0 && listed.items.every((v) => v.published))
  const windows = listed.items.find((v) => v.platform === 'windows')
  const exe = windows?.artifacts.find((a) => a.fileName.endsWith('.exe'))
  assert.ok(windows && exe)
  const client = await tufClient(server.url, 'signed', readFileSync(at('root.json'), 'utf8'))
  try {
    assert.equal(
      await client.download(`${windows.id}/artifacts/${exe.id}/download`),
      'bytes of Notes Setup 1.2.0.exe\n',
    )
  } finally {
    await client.close()
  }

  // The private key never left: not in a request, not in the CLI's output, not in the audit log.
  const secret = pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s/g, '')
  const audit = await (await f('/v1/audit?limit=100', bearer(admin))).text()
  assert.ok(
    sent.some((r) => r.startsWith('POST /v1/apps/signed/tuf/targets.json')),
    'the proxy saw the publish',
  )
  for (const [where, text] of [
    ['a request', sent.join('\n')],
    ['the output', published.stdout + published.stderr],
    ['the audit log', audit],
  ] as const) {
    assert.ok(!text.includes(secret), `the release key appears in ${where}`)
    assert.ok(
      !text.includes(Buffer.from(secret, 'base64').toString('hex').slice(-64)),
      `its raw bytes appear in ${where}`,
    )
  }
})
