/**
 * The lean HTTP front (server/runtime/lean-http-node.ts, FERRY_LEAN_HTTP) against node:http alone
 * on the same server, over raw TCP connections: for each laned operation the bytes sent are
 * node:http's (Date aside), 304 and HEAD included; a keep-alive connection mixing lane hits,
 * misses, a POST with a body and a bad request gets node:http's answers in order, whether
 * pipelined in one write, split byte by byte or split where the front hands the connection over;
 * hostile input gets node:http's answer and never a 5xx or a hang; a write is in the very next
 * answer; timeouts and the server's stop end lean connections.
 */
import assert from 'node:assert/strict'
import { connect, type Socket } from 'node:net'
import { Server } from 'node:http'
import { after, before, test } from 'node:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pino } from 'pino'
import { startServer } from '../../server/runtime/node.ts'
import { pinnedNodeMajor } from '../../server/runtime/require-node.ts'
import {
  TEST_ITERATIONS,
  testBlobLocation,
  testDatabaseUrl,
  testServerConfig,
  httpFetch,
  jsonBody,
  prepareUploadTeam,
  startTestServer,
  uploadExe,
  uploadMsixFixture,
  type Fetch,
  type TestServer,
} from './helpers.ts'

let server: TestServer
let f: Fetch
let token: string
let port: number

before(async () => {
  server = await startTestServer(undefined, { edgeCaching: { cacheSeconds: 300, staleSeconds: 30 } })
  port = Number(new URL(server.url).port)
  f = httpFetch(server.url)
  token = await prepareUploadTeam(f, 'lean-feeds')
  assert.equal((await f('/v1/platforms', jsonBody({ name: 'darwin' }, token))).status, 201)
  await uploadExe(f, token, 'lean-feeds', '1.1.0')
  await uploadMsixFixture(f, token, 'lean-feeds', '1.0.5')
})
after(async () => {
  await server?.stop()
})

const get = (path: string, headers: Record<string, string> = {}, method = 'GET', to = port) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${to}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`
/** Ends an exchange: node:http answers it and closes the connection. */
const CLOSE = `GET /v1/no-such-route HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`

interface Exchange {
  /** Everything the server sent until it closed the connection, Date lines blanked. */
  text: string
  /** Requests the lean front answered. */
  lean: number
}

const write = (socket: Socket, bytes: Buffer) =>
  new Promise<void>((done) => (socket.destroyed ? done() : socket.write(bytes, () => done())))

/** node:http's server under a test server. */
function nodeServer(running: TestServer): Server {
  assert.ok(running.server instanceof Server)
  return running.server
}

/** A raw TCP connection to the server: what it sent so far, and when it closed. */
class Raw {
  text = ''
  private arrived: (() => void) | undefined
  readonly closed: Promise<void>
  private constructor(readonly socket: Socket) {
    socket.setNoDelay(true)
    socket.on('data', (chunk: Buffer) => {
      this.text += chunk.toString('latin1')
      this.arrived?.()
    })
    socket.on('error', () => undefined)
    this.closed = new Promise<void>((done) =>
      socket.on('close', () => {
        done()
        this.arrived?.()
      }),
    )
  }
  static async open(): Promise<Raw> {
    const socket = connect(port, '127.0.0.1')
    await new Promise<void>((done) => socket.once('connect', done))
    return new Raw(socket)
  }
  async send(text: string, bytewise = false): Promise<void> {
    const bytes = Buffer.from(text, 'latin1')
    if (!bytewise) return write(this.socket, bytes)
    for (let at = 0; at < bytes.length; at++) await write(this.socket, bytes.subarray(at, at + 1))
  }
  /** Until the server has sent `n` status lines (or closed). */
  async until(n: number): Promise<void> {
    while (statuses(this.text).length < n && !this.socket.destroyed)
      await new Promise<void>((done) => (this.arrived = done))
  }
}

/**
 * Sends `parts` on one connection (each after the server has answered `waitFor[i]` requests),
 * byte by byte when `bytewise`, and reads until the server closes the connection.
 */
async function exchange(
  parts: string[],
  lean: boolean,
  { bytewise = false, waitFor = [] }: { bytewise?: boolean; waitFor?: number[] } = {},
): Promise<Exchange> {
  server.lane.lean = lean
  const before = server.lane.leanAnswered
  try {
    const raw = await Raw.open()
    for (const [i, part] of parts.entries()) {
      await raw.until(waitFor[i] ?? 0)
      await raw.send(part, bytewise)
    }
    await raw.closed
    return { text: raw.text.replace(/^Date: .*\r\n/gm, 'Date: -\r\n'), lean: server.lane.leanAnswered - before }
  } finally {
    server.lane.lean = true
  }
}

/** The exchange through the lean front and through node:http alone: the same bytes; returns the lean one. */
async function same(parts: string[], options: Parameters<typeof exchange>[2] = {}): Promise<Exchange> {
  const lean = await exchange(parts, true, options)
  const node = await exchange(parts, false, options)
  assert.equal(node.lean, 0)
  assert.equal(lean.text, node.text, 'the lean front sends what node:http sends')
  assert.doesNotMatch(lean.text, /^HTTP\/1\.1 5\d\d/m, 'no 5xx')
  return lean
}

/** The status of each response (a JSON body does not end with a line break). */
const statuses = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]))

const FEEDS = [
  '/v1/apps/lean-feeds/update?version=1.0.0&platform=windows&arch=x64&format=ferry',
  '/v1/apps/lean-feeds/update?version=1.1.0&platform=windows&arch=x64',
  '/v1/apps/lean-feeds/squirrel/stable/x64/RELEASES?localVersion=1.0.0',
  '/v1/apps/lean-feeds/squirrel-mac/stable/x64?version=1.0.0',
  '/v1/apps/lean-feeds/electron-updater/stable/windows/x64/1.0.0/latest.yml',
  '/v1/apps/lean-feeds/tauri/stable/windows/x86_64/1.0.0',
  '/v1/apps/lean-feeds/velopack/stable/windows/x64/releases.stable.json?localVersion=1.0.0',
  '/v1/apps/lean-feeds/sparkle/stable/windows/x64/appcast.xml?version=1.0.0',
  '/v1/apps/lean-feeds/msix/stable/x64?version=1.0.0',
  '/v1/apps/lean-feeds/latest?packageType=exe&platform=windows&arch=x64',
  '/v1/apps/lean-feeds/msix/stable/x64/app.appinstaller',
  '/v1/apps/lean-feeds/msix/stable/x64/app.appinstaller?hoursBetweenUpdateChecks=8&showPrompt=true',
]
const DEVICE = { 'x-ferry-device-id': 'lean-device-1' }

test('every laned operation: the lean front sends the bytes node:http sends, 304 and HEAD too', async () => {
  for (const path of FEEDS) {
    await f(path, { headers: DEVICE })
    const hit = await same([get(path, DEVICE), CLOSE])
    assert.equal(hit.lean, 1, `${path}: answered by the lean front`)
    const [status] = statuses(hit.text)
    assert.ok(status === 200 || status === 204 || status === 302, `${path}: ${hit.text}`)
    const etag = /^etag: (.*)\r$/m.exec(hit.text)?.[1]
    // Every answer but getLatestBuild's redirect is validated by its ETag, "no update" (204) too.
    if (status === 302) assert.equal(etag, undefined, `${path}: a redirect carries no ETag`)
    else {
      assert.ok(etag, `${path}: carries an ETag`)
      const fresh = await same([get(path, { ...DEVICE, 'if-none-match': etag }), CLOSE])
      assert.deepEqual(statuses(fresh.text), [304, 404], path)
      assert.equal(fresh.lean, 1)
    }
    const head = await same([get(path, DEVICE, 'HEAD'), CLOSE])
    assert.equal(head.lean, 0, 'HEAD goes to node:http')
  }
})

test(
  'a keep-alive connection mixing hits, misses, a POST with a body and a bad request: each answer right and in order',
  { timeout: 60_000 },
  async () => {
    const hit = FEEDS[4] ?? ''
    await f(hit)
    const body = JSON.stringify({ email: 'nobody@lean.test', password: 'wrong password' })
    const parts = [
      get(hit),
      get(hit, { connection: 'keep-alive' }),
      get('/v1/apps/no-such-app/update?version=1.0.0&platform=windows&arch=x64'),
      get(hit),
      `POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      get(hit),
    ]
    const all = parts.join('')
    const pipelined = await same([all + CLOSE])
    assert.deepEqual(statuses(pipelined.text), [200, 200, 404, 200, 401, 200, 404])
    assert.equal(pipelined.lean, 2, 'the lean front answers until the miss, then node:http')
    const bytewise = await same([all + CLOSE], { bytewise: true })
    assert.equal(bytewise.text, pipelined.text)
    // Split inside the miss, after the front answered the first two: the rest reaches node:http in order.
    const cut = all.indexOf('no-such-app')
    const split = await same([all.slice(0, cut), all.slice(cut) + CLOSE], { waitFor: [0, 2] })
    assert.equal(split.text, pipelined.text)
    assert.equal(split.lean, 2)
    // node:http drops the pipelined requests it has not started to answer when a later one in the
    // same read fails to parse, so the bad request follows the answers.
    const bad = 'GET /v1/apps/lean-feeds HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n'
    const ended = await same([get(hit) + get(hit), bad + get(hit)], { waitFor: [0, 2] })
    assert.deepEqual(statuses(ended.text), [200, 200, 400], 'node:http answers the bad request and closes')
    assert.equal(ended.lean, 2)
  },
)

test('hostile input gets what node:http alone answers: never a 5xx, never a hang', { timeout: 120_000 }, async () => {
  const hit = FEEDS[4] ?? ''
  await f(hit)
  const cases: Array<[string, string]> = [
    ['a huge header', get(hit, { 'x-padding': 'x'.repeat(20_000) })],
    ['garbage', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n'],
    [
      'CL and TE',
      `GET ${hit} HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${get(hit)}`,
    ],
    ['two Hosts', `GET ${hit} HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n`],
    ['absolute-form target', `GET http://127.0.0.1${hit} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`],
    ['a NUL byte', `GET ${hit} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\x00b\r\n\r\n`],
    ['obs-fold', `GET ${hit} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\r\n b\r\n\r\n`],
    ['HTTP/1.0', `GET ${hit} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n`],
    ['no Host', `GET ${hit} HTTP/1.1\r\n\r\n`],
    ['a bare LF', `GET ${hit} HTTP/1.1\nHost: 127.0.0.1\n\n`],
    ['Expect', get(hit, { expect: '100-continue' })],
    ['Upgrade', get(hit, { connection: 'upgrade', upgrade: 'websocket' })],
  ]
  for (const [what, request] of cases) {
    // Once first: an answer the request leads to (for another Host) is cached, then compared.
    await exchange([get(hit), request + CLOSE], false, { waitFor: [0, 1] })
    const seen = await same([get(hit), request + CLOSE], { waitFor: [0, 1] })
    assert.ok(statuses(seen.text).length >= 2, `${what}: answered (${seen.text.slice(0, 200)})`)
    assert.equal(statuses(seen.text)[0], 200, `${what}: the hit before it is answered`)
    assert.equal(seen.lean, 1, `${what}: only the hit before it is the lean front's`)
  }
  const huge = await same([get(hit, { 'x-padding': 'x'.repeat(20_000) })])
  assert.deepEqual(statuses(huge.text), [431], 'node:http answers an oversized header block')
  const slow = await same([get(hit).slice(0, 20), get(hit).slice(20) + CLOSE], { bytewise: true })
  assert.deepEqual(statuses(slow.text), [200, 404], 'a header sent slowly is answered when complete')
})

test('a write is in the very next answer on a lean connection: a pull stops the offer at once', async () => {
  const app = 'lean-pull'
  const pullToken = await prepareUploadTeam(f, app)
  await uploadExe(f, pullToken, app, '1.0.0')
  const id = await uploadExe(f, pullToken, app, '1.1.0')
  const path = `/v1/apps/${app}/update?version=1.0.0&platform=windows&arch=x64&format=ferry`
  await f(path)
  const before = server.lane.leanAnswered
  const raw = await Raw.open()
  await raw.send(get(path))
  await raw.until(1)
  assert.match(raw.text, /"version":"1\.1\.0"/)
  assert.equal(server.lane.leanAnswered, before + 1, 'the lean front answered')
  const pull = await f(`/v1/apps/${app}/versions/${id}/pull`, jsonBody({ reason: 'corrupts data' }, pullToken))
  assert.equal(pull.status, 200)
  await raw.send(get(path) + CLOSE)
  await raw.closed
  assert.deepEqual(statuses(raw.text), [200, 204, 404], 'the next answer on the same connection offers nothing')
  const fresh = await exchange([get(path), get(path), CLOSE], true)
  assert.deepEqual(statuses(fresh.text), [204, 204, 404])
  assert.ok(fresh.lean >= 1, 'the new answer is cached and sent by the lean front')
})

test(
  'a client that pipelines thousands of checks in one write gets every answer, in order',
  { timeout: 60_000 },
  async () => {
    const hit = FEEDS[4] ?? ''
    await f(hit)
    const count = 3000
    const seen = await exchange([get(hit).repeat(count) + CLOSE], true)
    const codes = statuses(seen.text)
    assert.equal(codes.length, count + 1)
    assert.deepEqual(new Set(codes.slice(0, count)), new Set([200]))
    assert.equal(codes[count], 404)
    // A read that ends inside a request hands the connection over: node:http answers from there on.
    assert.ok(seen.lean >= 1 && seen.lean <= count, `${seen.lean} answered by the lean front`)
  },
)

test(
  'an idle lean connection is closed after the keep-alive timeout, a silent one after the headers timeout',
  { timeout: 20_000 },
  async () => {
    const hit = FEEDS[4] ?? ''
    await f(hit)
    const http = nodeServer(server)
    const { keepAliveTimeout, headersTimeout } = http
    http.keepAliveTimeout = 100
    http.headersTimeout = 200
    try {
      const silent = await Raw.open()
      await silent.closed
      assert.equal(silent.text, '', 'closed without an answer')
      const idle = await Raw.open()
      const before = server.lane.leanAnswered
      await idle.send(get(hit))
      await idle.closed
      assert.deepEqual(statuses(idle.text), [200])
      assert.match(idle.text, /^Keep-Alive: timeout=0\r$/m)
      assert.equal(server.lane.leanAnswered, before + 1)
    } finally {
      http.keepAliveTimeout = keepAliveTimeout
      http.headersTimeout = headersTimeout
    }
  },
)

test('a client that resets its connection mid-request or mid-answer leaves the server serving, without an uncaught error', async () => {
  const hit = FEEDS[4] ?? ''
  const uncaught: unknown[] = []
  const onUncaught = (error: unknown) => uncaught.push(error)
  process.on('uncaughtException', onUncaught)
  try {
    for (let i = 0; i < 5; i++) {
      const raw = await Raw.open()
      await raw.send(get(hit).slice(0, 10 + i))
      raw.socket.resetAndDestroy()
      const half = await Raw.open()
      await half.send(get(hit) + get(hit))
      half.socket.resetAndDestroy()
    }
    const after = await exchange([get(hit) + CLOSE], true)
    assert.deepEqual(statuses(after.text), [200, 404])
    assert.deepEqual(uncaught, [])
  } finally {
    process.off('uncaughtException', onUncaught)
  }
})

test("the server's stop ends lean keep-alive connections", { timeout: 30_000 }, async () => {
  const own = await startTestServer(undefined, {})
  try {
    nodeServer(own).keepAliveTimeout = 600_000
    own.lane.lean = true
    const g = httpFetch(own.url)
    const slugToken = await prepareUploadTeam(g, 'lean-stop')
    await uploadExe(g, slugToken, 'lean-stop', '1.1.0')
    const path = '/v1/apps/lean-stop/update?version=1.0.0&platform=windows&arch=x64&format=ferry'
    await g(path)
    const socket = connect(Number(new URL(own.url).port), '127.0.0.1')
    socket.on('error', () => undefined)
    let text = ''
    const answered = new Promise<void>((done) =>
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1')
        if (statuses(text).length === 1) done()
      }),
    )
    const closed = new Promise<void>((done) => socket.on('close', () => done()))
    socket.write(get(path, {}, 'GET', Number(new URL(own.url).port)))
    await answered
    assert.equal(own.lane.leanAnswered, 1)
    await own.stop()
    await closed
  } finally {
    await own.stop().catch(() => undefined)
  }
})

test('with logging on, a lean answer is logged as a request like any other', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'ferry-lean-log-'))
  const lines: Array<Record<string, unknown>> = []
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
  const running = await startServer({
    config: testServerConfig(dataDir, { databaseUrl: await testDatabaseUrl(), blobs: testBlobLocation() }),
    logger,
    passwordIterations: TEST_ITERATIONS,
  })
  try {
    running.lane.lean = true
    const ownPort = Number(new URL(running.url).port)
    const g = httpFetch(running.url)
    const logToken = await prepareUploadTeam(g, 'lean-log')
    await uploadExe(g, logToken, 'lean-log', '1.1.0')
    const path = '/v1/apps/lean-log/electron-updater/stable/windows/x64/1.0.0/latest.yml'
    await g(path)
    const socket = connect(ownPort, '127.0.0.1')
    socket.on('error', () => undefined)
    const closed = new Promise<void>((done) => socket.on('close', () => done()))
    socket.write(get(path, {}, 'GET', ownPort) + CLOSE)
    socket.resume()
    await closed
    assert.equal(running.lane.leanAnswered, 1)
    const logged = lines.filter((line) => line.msg === 'request' && line.path === path.split('?')[0])
    assert.equal(logged.length, 2, 'the first check and the lean answer')
    assert.deepEqual(
      logged.map((line) => [line.method, line.status]),
      [
        ['GET', 200],
        ['GET', 200],
      ],
    )
  } finally {
    await running.close()
    await rm(dataDir, { recursive: true, force: true })
  }
})

test(
  'after a lean answer, a request that stops mid-header is closed at the keep-alive timeout, as by node:http alone',
  { timeout: 20_000 },
  async () => {
    const hit = FEEDS[4] ?? ''
    await f(hit)
    const http = nodeServer(server)
    const { keepAliveTimeout } = http
    // node:http's headers timeout stays at its minute: only the keep-alive timeout may end these.
    http.keepAliveTimeout = 200
    try {
      for (const cut of [1, get(hit).length - 2]) {
        const seen = await same([get(hit), get(hit).slice(0, cut)], { waitFor: [0, 1] })
        assert.deepEqual(statuses(seen.text), [200], `cut at ${cut}: closed without another answer`)
        assert.equal(seen.lean, 1)
      }
    } finally {
      http.keepAliveTimeout = keepAliveTimeout
    }
  },
)

test(
  "node:http's closeIdleConnections and closeAllConnections end the lean front's connections too",
  { timeout: 10_000 },
  async () => {
    const hit = FEEDS[4] ?? ''
    await f(hit)
    const http = nodeServer(server)
    const { keepAliveTimeout } = http
    http.keepAliveTimeout = 600_000
    try {
      for (const close of [() => http.closeIdleConnections(), () => http.closeAllConnections()]) {
        const before = server.lane.leanAnswered
        const raw = await Raw.open()
        await raw.send(get(hit))
        await raw.until(1)
        assert.equal(server.lane.leanAnswered, before + 1, 'a lean connection')
        close()
        await raw.closed
        assert.deepEqual(statuses(raw.text), [200])
      }
    } finally {
      http.keepAliveTimeout = keepAliveTimeout
    }
  },
)

test('on a Node major it was not tested on, the lean front stays off and says so once', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'ferry-lean-node-'))
  const lines: Array<Record<string, unknown>> = []
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
  const untested = `${pinnedNodeMajor + 1}.0.0`
  const running = await startServer({
    config: testServerConfig(dataDir, { databaseUrl: await testDatabaseUrl(), blobs: testBlobLocation() }),
    logger,
    passwordIterations: TEST_ITERATIONS,
    nodeVersion: untested,
  })
  try {
    const warned = lines.filter((line) => String(line.msg).startsWith('FERRY_LEAN_HTTP is off on this Node'))
    assert.equal(warned.length, 1, 'one line')
    assert.equal(warned[0]?.level, 40, 'at warn')
    assert.equal(warned[0]?.node, untested, 'naming the Node it runs on')
    assert.equal(running.lane.lean, false)
    const ownPort = Number(new URL(running.url).port)
    const g = httpFetch(running.url)
    const appToken = await prepareUploadTeam(g, 'lean-node')
    await uploadExe(g, appToken, 'lean-node', '1.1.0')
    const path = '/v1/apps/lean-node/update?version=1.0.0&platform=windows&arch=x64&format=ferry'
    await g(path)
    const socket = connect(ownPort, '127.0.0.1')
    socket.on('error', () => undefined)
    const closed = new Promise<void>((done) => socket.on('close', () => done()))
    socket.write(get(path, {}, 'GET', ownPort) + CLOSE)
    socket.resume()
    await closed
    assert.equal(running.lane.leanAnswered, 0, 'node:http read the request')
    assert.ok(running.lane.answered >= 1, 'the node:http lane answered from the cache')
  } finally {
    await running.close()
    await rm(dataDir, { recursive: true, force: true })
  }
})

test(
  'hostile pipelines, byte for byte as node:http alone: smuggling, a split at every byte, oversized heads, a pipeline read late',
  { timeout: 60_000 },
  async () => {
    const hit = FEEDS[4] ?? ''
    await f(hit)
    const host = `Host: 127.0.0.1:${port}\r\n`
    const smuggled = get('/v1/apps/lean-feeds/versions')
    const smuggling: Array<[string, string]> = [
      [
        'CL.TE',
        `POST /v1/auth/login HTTP/1.1\r\n${host}Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nG`,
      ],
      [
        'TE.CL',
        `POST /v1/auth/login HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n8\r\nSMUGGLED\r\n0\r\n\r\n`,
      ],
      ['TE obfuscated', `GET ${hit} HTTP/1.1\r\n${host}Transfer-Encoding: xchunked\r\nContent-Length: 4\r\n\r\nabcd`],
      [
        'TE with a space before the colon',
        `GET ${hit} HTTP/1.1\r\n${host}Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n`,
      ],
      [
        'TE twice',
        `GET ${hit} HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\n`,
      ],
      ['TE list', `GET ${hit} HTTP/1.1\r\n${host}Transfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n`],
      [
        'two lengths',
        `GET ${hit} HTTP/1.1\r\n${host}Content-Length: 0\r\nContent-Length: ${smuggled.length}\r\n\r\n${smuggled}`,
      ],
      ['a signed length', `GET ${hit} HTTP/1.1\r\n${host}Content-Length: +${smuggled.length}\r\n\r\n${smuggled}`],
      [
        'a GET with a body holding a request',
        `GET ${hit} HTTP/1.1\r\n${host}content-LENGTH: ${smuggled.length}\r\n\r\n${smuggled}`,
      ],
      [
        'a huge chunk size',
        `POST /v1/auth/login HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\nfffffffffffffffff1\r\nx\r\n0\r\n\r\n`,
      ],
      [
        'a chunk extension with a bare LF',
        `POST /v1/auth/login HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\n1;a\nb\r\nx\r\n0\r\n\r\n`,
      ],
      ['a lone CR in a header', `GET ${hit} HTTP/1.1\r\n${host}X-A: a\rGET / HTTP/1.1\r\n\r\n`],
      ['a bare LF ending the head', `GET ${hit} HTTP/1.1\r\n${host}\n`],
      ['two spaces in the request line', `GET  ${hit} HTTP/1.1\r\n${host}\r\n`],
      ['Host with a space before the colon', `GET ${hit} HTTP/1.1\r\nHost : 127.0.0.1\r\n\r\n`],
      ['Connection: close on a hit', get(hit, { connection: 'close' })],
      ['HTTP/1.0 keep-alive', `GET ${hit} HTTP/1.0\r\n${host}Connection: keep-alive\r\n\r\n`],
      ['an invalid method after a hit, unfinished', 'G\x01T'],
      ['a header name with a space, unfinished', `GET ${hit} HTTP/1.1\r\nBad Header`],
    ]
    for (const [what, request] of smuggling) {
      // After the hit's answer: node:http alone drops the pipelined requests it has not answered
      // when a later one in the same read fails to parse, the front has answered them by then.
      const seen = await same([get(hit), request + get(hit) + CLOSE], { waitFor: [0, 1] })
      assert.equal(statuses(seen.text)[0], 200, `${what}: the hit before it is answered`)
      assert.doesNotMatch(seen.text, /SMUGGLED|"items"/, `${what}: nothing smuggled is answered`)
    }
    // Each split of a pipeline: its complete requests answered, then the rest.
    const pipeline = get(hit) + get('/v1/apps/no-such-app/update?version=1.0.0&platform=windows&arch=x64') + get(hit)
    const whole = await same([pipeline + CLOSE])
    for (let cut = 1; cut < pipeline.length; cut++) {
      const first = pipeline.slice(0, cut)
      const complete = first.split('\r\n\r\n').length - 1
      const split = await same([first, pipeline.slice(cut) + CLOSE], { waitFor: [0, complete] })
      assert.equal(split.text, whole.text, `split at byte ${cut}`)
    }
    // Around the front's 8 KiB and node:http's 16 KiB header limits, first on a connection and after a hit.
    for (const size of [8 * 1024 - 200, 8 * 1024 + 200, 16 * 1024 - 300, 16 * 1024 + 10]) {
      const big = get(hit, { 'x-padding': 'x'.repeat(size) })
      await same([big + CLOSE])
      await same([get(hit), big + CLOSE], { waitFor: [0, 1] })
    }
    // Thousands of checks from a client that reads nothing for a while: the server stops reading
    // once its answers wait (the client's write may not even complete), then answers them all.
    for (const lean of [true, false]) {
      server.lane.lean = lean
      try {
        const raw = await Raw.open()
        raw.socket.pause()
        raw.socket.write(get(hit).repeat(2000) + CLOSE)
        await new Promise((done) => setTimeout(done, 300))
        raw.socket.resume()
        await raw.closed
        const codes = statuses(raw.text)
        assert.equal(codes.length, 2001)
        assert.deepEqual(new Set(codes.slice(0, 2000)), new Set([200]))
      } finally {
        server.lane.lean = true
      }
    }
  },
)
