/**
 * `ferry mcp --http` through the MCP SDK's own Streamable HTTP client: the same tools as over
 * stdio, the sandbox's state kept from one request to the next, and requests a web page could
 * forge after a DNS rebinding (foreign Origin or Host) refused with 403.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ferry } from '../ferry-cli/fixtures.ts'
import { callTool, startFerryMcpHttp, type FerryMcpHttp } from './mcp-client.ts'

let server: FerryMcpHttp
let client: Client
before(async () => {
  server = await startFerryMcpHttp()
  client = await server.connect()
})
after(async () => {
  await server.stop()
})

const errorMessage = (body: string) => (JSON.parse(body) as { error: { message: string } }).error.message

/** A raw POST with the Host header given, which fetch does not let a caller set. */
function postWithHost(url: URL, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      },
    )
    req.on('error', reject)
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }))
  })
}

test('listens on 127.0.0.1 and lists the same five tools', async () => {
  assert.equal(server.url.hostname, '127.0.0.1')
  assert.equal(server.url.pathname, '/mcp')
  const { tools } = await client.listTools()
  assert.deepEqual(tools.map((t) => t.name).sort(), [
    'call_operation',
    'describe_operation',
    'list_operations',
    'read_page',
    'search_docs',
  ])
})

test('search_docs finds the rollouts guide', async () => {
  const { text, isError } = await callTool(client, 'search_docs', { query: 'ramp rollout', scope: 'docs' })
  assert.equal(isError, false, text)
  assert.match(text.split('\n\n')[0] ?? '', /page: \/docs\/rollouts \(docs\)/, text)
})

test('createApp in the sandbox, then the update check sees it, request after request', async () => {
  const created = await callTool(client, 'call_operation', {
    operationId: 'createApp',
    body: { slug: 'http-notes', name: 'HTTP Notes' },
  })
  assert.equal(created.structured?.status, 201, created.text)
  assert.deepEqual(created.structured?.contract, { ok: true, problems: [], notes: [] })
  const query = { version: '1.0.0', platform: 'windows', arch: 'x64', format: 'ferry' }
  const none = await callTool(client, 'call_operation', {
    operationId: 'checkForUpdate',
    path: { app: 'http-notes' },
    query,
  })
  assert.equal(none.structured?.status, 204, none.text)
  // A second client shares the sandbox: the app is there, and the demo app offers its update.
  const other = await server.connect()
  const again = await callTool(other, 'call_operation', {
    operationId: 'createApp',
    body: { slug: 'http-notes', name: 'HTTP Notes' },
  })
  assert.equal(again.structured?.status, 409, again.text)
  const offered = await callTool(other, 'call_operation', {
    operationId: 'checkForUpdate',
    path: { app: 'harbor-notes' },
    query,
  })
  assert.equal(offered.structured?.status, 200, offered.text)
  assert.equal((offered.structured?.body as { version?: string }).version, '1.1.0')
})

test('a foreign Origin is refused with 403 before any tool runs', async () => {
  await assert.rejects(server.connect({ headers: { origin: 'http://rebound.example' } }), (error) => {
    assert.ok(error instanceof StreamableHTTPError)
    assert.equal(error.code, 403)
    assert.match(error.message, /Origin \\"http:\/\/rebound\.example\\" may not call this server/)
    return true
  })
  // Its own origin passes, as a page served by this server would send it.
  const own = await server.connect({ headers: { origin: server.url.origin } })
  assert.equal((await own.listTools()).tools.length, 5)
})

test('a foreign Host (a DNS-rebound name) is refused with 403', async () => {
  const rebound = await postWithHost(server.url, `rebound.example:${server.url.port}`)
  assert.equal(rebound.status, 403, rebound.body)
  assert.match(errorMessage(rebound.body), /^Host "rebound\.example:\d+" is not this server/)
  const local = await postWithHost(server.url, `localhost:${server.url.port}`)
  assert.notEqual(local.status, 403, local.body)
})

test('the default port in --help is the one the docs page gives', async () => {
  const help = await ferry(['mcp', '--help'], {})
  const port = /--port <n> .*\(default (\d+);/.exec(help.stdout)?.[1]
  assert.ok(port, help.stdout)
  const page = readFileSync(join(import.meta.dirname, '..', '..', 'pages/docs/mcp.mdx'), 'utf8')
  assert.ok(page.includes(`http://127.0.0.1:${port}/mcp`), `pages/docs/mcp.mdx does not give port ${port}`)
})

test('--port without --http, or out of range, is a usage error', async () => {
  const stray = await ferry(['mcp', '--port', '9000'], {})
  assert.equal(stray.code, 2)
  assert.match(stray.stderr, /^ferry: mcp: --port applies to --http/)
  const range = await ferry(['mcp', '--http', '--port', '70000'], {})
  assert.equal(range.code, 2)
  assert.match(range.stderr, /^ferry: mcp: --port must be a whole number from 0 to 65535, not "70000"/)
})

test('a port already taken is a usage error naming the port and the flag', async () => {
  const taken = await ferry(['mcp', '--http', '--port', server.url.port], {})
  assert.equal(taken.code, 2, taken.stderr)
  assert.match(
    taken.stderr,
    new RegExp(`^ferry: mcp: port ${server.url.port} on 127\\.0\\.0\\.1 is in use: pick another with --port`, 'm'),
  )
})
