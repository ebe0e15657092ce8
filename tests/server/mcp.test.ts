/**
 * The server's own /mcp through the MCP SDK's Streamable HTTP client: docs tools without a token,
 * operation tools shaped by the token (read-only, app-scoped, all grants), a read, a write refused
 * and one audited as its token; hostile requests refused with a 4xx and nothing written. Under
 * `npm run test:unit:pg` the client's requests alternate between two instances on one database.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { LATEST_PROTOCOL_VERSION, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js'
import { bearer, httpFetch, jsonBody, prepareUploadTeam, startTestServer, type TestServer } from './helpers.ts'

const MCP_ACCEPT = 'application/json, text/event-stream'
const DOCS_TOOLS = ['describe_operation', 'list_operations', 'read_page', 'search_docs']
const APP = 'mcp-notes'
/** The server's tool-call limit here; the rate-limit test spends it with a token of its own. */
const CALLS_PER_MINUTE = 8

const servers: TestServer[] = []
let admin: string
const tokens: Record<'readOnly' | 'appScoped' | 'full' | 'limited', { id: string; token: string }> = {} as never
const clients: Client[] = []

const f = (path: string, init?: RequestInit) => httpFetch(servers[0]!.url)(path, init)

async function createToken(name: string, permissions: object) {
  const res = await f('/v1/team/tokens', jsonBody({ name, permissions }, admin))
  assert.equal(res.status, 201, await res.clone().text())
  const { id, token } = (await res.json()) as { id: string; token: string }
  return { id, token }
}

before(async () => {
  servers.push(await startTestServer(undefined, { mcpCallsPerMinute: CALLS_PER_MINUTE }))
  // Two instances on one database and blob store, as behind a load balancer (PostgreSQL only).
  const first = servers[0]!
  if (first.databaseUrl)
    servers.push(
      await startTestServer(undefined, {
        mcpCallsPerMinute: CALLS_PER_MINUTE,
        databaseUrl: first.databaseUrl,
        blobs: first.blobLocation,
      }),
    )
  admin = await prepareUploadTeam(f, APP)
  const all = { enabled: true }
  tokens.readOnly = await createToken('agent-read-only', {})
  tokens.appScoped = await createToken('agent-mcp-notes', { apps: { edit: { enabled: true, allowed: [APP] } } })
  tokens.full = await createToken('agent-full', {
    apps: { create: all, edit: all, delete: all, upload: all, download: all },
    channels: { create: all, edit: all, delete: all },
  })
  tokens.limited = await createToken('agent-limited', {})
})

after(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await Promise.all(servers.map((s) => s.stop()))
})

/** Each request to the next instance in turn, as a balancer without affinity would send it. */
let turn = 0
const balanced: typeof fetch = (input, init) => {
  const server = servers[turn++ % servers.length]!
  const url = new URL(input instanceof Request ? input.url : input)
  return fetch(new URL(url.pathname, server.url), init)
}

async function connect(token?: string, options: { balanced?: boolean } = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', servers[0]!.url), {
    ...(token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}),
    ...(options.balanced === false ? {} : { fetch: balanced }),
  })
  const client = new Client({ name: 'ferry-server-mcp-tests', version: '1.0.0' })
  await client.connect(transport)
  clients.push(client)
  return client
}

const names = (tools: Tool[]) => tools.map((t) => t.name).sort()
const writes = (tools: Tool[]) => names(tools.filter((t) => t.annotations?.readOnlyHint !== true))

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  const first = result.content[0]
  return {
    text: first?.type === 'text' ? first.text : '',
    isError: result.isError === true,
    structured: result.structuredContent as { status: number; body: unknown; contract: { ok: boolean } } | undefined,
  }
}

async function appSlugs(): Promise<string[]> {
  const res = await f('/v1/apps', bearer(admin))
  assert.equal(res.status, 200)
  return ((await res.json()) as { items: Array<{ slug: string }> }).items.map((a) => a.slug).sort()
}

/** A raw POST to /mcp (what the SDK's client would not send). */
const post = (body: string, headers: Record<string, string> = {}) =>
  f('/mcp', {
    method: 'POST',
    headers: { accept: MCP_ACCEPT, 'content-type': 'application/json', ...headers },
    body,
  })
const toolCall = (name: string, args: object, id = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })

test('initialise: the newest protocol revision, a stateless server (no session id)', async () => {
  const res = await post(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  )
  assert.equal(res.status, 200, await res.clone().text())
  assert.equal(res.headers.get('mcp-session-id'), null)
  const { result } = (await res.json()) as { result: { protocolVersion: string; serverInfo: { name: string } } }
  assert.equal(result.protocolVersion, '2025-11-25')
  assert.equal(result.serverInfo.name, 'ferry')
})

test('without a token: the docs tools only, and search_docs answers', async () => {
  const client = await connect()
  const { tools } = await client.listTools()
  assert.deepEqual(names(tools), DOCS_TOOLS)
  const hit = await call(client, 'search_docs', { query: 'rollout percentage', scope: 'docs' })
  assert.equal(hit.isError, false, hit.text)
  assert.match(hit.text, /page: \/docs\//)
})

test('the tool list follows the token: read-only, one app, all app and channel grants', async () => {
  const readOnly = (await (await connect(tokens.readOnly.token)).listTools()).tools
  const appScoped = (await (await connect(tokens.appScoped.token)).listTools()).tools
  const full = (await (await connect(tokens.full.token)).listTools()).tools
  for (const tools of [readOnly, appScoped, full]) {
    assert.ok(names(tools).includes('listApps'))
    assert.ok(DOCS_TOOLS.every((d) => names(tools).includes(d)))
    // Never to an API token: the admin's operations and token management.
    for (const absent of ['listTeamUsers', 'createWebhook', 'createApiToken', 'listApiTokens', 'login', 'signup'])
      assert.ok(!names(tools).includes(absent), absent)
  }
  assert.deepEqual(writes(readOnly), [])
  assert.deepEqual(writes(appScoped), [
    'createRule',
    'deleteRule',
    'pauseVersion',
    'pullVersion',
    'resumeVersion',
    'updateApp',
    'updateVersion',
  ])
  assert.deepEqual(writes(full), [
    'createApp',
    'createChannel',
    'createRule',
    'deleteApp',
    'deleteArtifact',
    'deleteChannel',
    'deleteRule',
    'deleteVersion',
    'pauseVersion',
    'publishTufMetadata',
    'pullVersion',
    'resumeVersion',
    'updateApp',
    'updateChannel',
    'updateVersion',
  ])
  const deleteApp = full.find((t) => t.name === 'deleteApp')
  assert.deepEqual(deleteApp?.annotations, {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  })
  assert.equal(full.find((t) => t.name === 'createApp')?.annotations?.destructiveHint, false)
})

test('a read as the token, checked against the contract', async () => {
  const client = await connect(tokens.readOnly.token)
  const { structured, text } = await call(client, 'listApps', {})
  assert.equal(structured?.status, 200, text)
  assert.equal(structured?.contract.ok, true, text)
  assert.match(text, new RegExp(`"slug": "${APP}"`))
})

test('a write: no tool for the read-only token, done and audited as the token with all grants', async () => {
  const before = await appSlugs()
  const readOnly = await connect(tokens.readOnly.token)
  const refused = await call(readOnly, 'createApp', { body: { slug: 'mcp-refused', name: 'Refused' } })
  assert.equal(refused.isError, true)
  assert.match(refused.text, /Tool createApp not found/)
  assert.deepEqual(await appSlugs(), before, 'the refused write changed nothing')

  const full = await connect(tokens.full.token)
  const made = await call(full, 'createApp', { body: { slug: 'mcp-made', name: 'Made by an agent' } })
  assert.equal(made.structured?.status, 201, made.text)
  assert.equal(made.structured?.contract.ok, true, made.text)
  assert.deepEqual(await appSlugs(), [...before, 'mcp-made'].sort())

  const audit = await f('/v1/audit?action=app.', bearer(admin))
  const { items } = (await audit.json()) as {
    items: Array<{ operationId: string; actor: { type: string; id: string; name: string }; address: string | null }>
  }
  const entry = items.find((e) => e.operationId === 'createApp' && e.actor.type === 'token')
  assert.equal(entry?.address, '127.0.0.1', "the agent's address, as for a request to the API")
  assert.deepEqual(entry?.actor && { type: entry.actor.type, id: entry.actor.id, name: entry.actor.name }, {
    type: 'token',
    id: tokens.full.id,
    name: 'agent-full',
  })
})

test('an app-scoped token may not write to another app: the gate refuses, the tool says so', async () => {
  const client = await connect(tokens.appScoped.token)
  const refused = await call(client, 'updateApp', { app: 'mcp-made', body: { name: 'Hijacked' } })
  assert.equal(refused.isError, true)
  assert.equal(refused.structured?.status, 403, refused.text)
})

test('hostile requests: each a 4xx naming the problem, nothing written', async () => {
  const before = await appSlugs()
  const write = toolCall('createApp', { body: { slug: 'mcp-hostile', name: 'Hostile' } })
  const auth = { authorization: `Bearer ${tokens.full.token}` }
  const cases: Array<[string, Promise<Response>, number, RegExp]> = [
    ['a forged Origin', post(write, { ...auth, origin: 'http://evil.example' }), 403, /Origin http:\/\/evil\.example/],
    ['an oversized message', post(' '.repeat(1024 * 1024 + 1) + write, auth), 413, /limited to 1048576 bytes/],
    ['a JSON-RPC batch', post(`[${write},${write}]`, auth), 400, /must be object/],
    ['a session id', post(write, { ...auth, 'mcp-session-id': 'abc' }), 400, /stateless/],
    [
      'an unknown token',
      post(write, { authorization: 'Bearer ferry_NotARealToken0123456789abcdefgh' }),
      401,
      /not known/,
    ],
  ]
  for (const [what, response, status, detail] of cases) {
    const res = await response
    const text = await res.text()
    assert.equal(res.status, status, `${what}: ${text}`)
    assert.equal(res.headers.get('content-type'), 'application/problem+json', what)
    assert.match(text, detail, what)
  }
  assert.deepEqual(await appSlugs(), before)
})

test('a token revoked between two calls: the second gets 401, nothing written', async () => {
  const doomed = await createToken('agent-doomed', { apps: { create: { enabled: true } } })
  const client = await connect(doomed.token)
  assert.equal((await call(client, 'listApps', {})).structured?.status, 200)
  const revoked = await f(`/v1/team/tokens/${doomed.id}`, bearer(admin, { method: 'DELETE' }))
  assert.equal(revoked.status, 204)
  const before = await appSlugs()
  await assert.rejects(
    client.callTool({ name: 'createApp', arguments: { body: { slug: 'mcp-revoked', name: 'Revoked' } } }),
    /401|not known/,
  )
  assert.deepEqual(await appSlugs(), before)
})

test(`tool calls per token per minute: the ${CALLS_PER_MINUTE + 1}th is refused with 429 and Retry-After`, async () => {
  const client = await connect(tokens.limited.token, { balanced: false })
  for (let i = 0; i < CALLS_PER_MINUTE; i++) assert.equal((await call(client, 'listApps', {})).structured?.status, 200)
  const res = await post(toolCall('listApps', {}), { authorization: `Bearer ${tokens.limited.token}` })
  assert.equal(res.status, 429, await res.clone().text())
  assert.ok(Number(res.headers.get('retry-after')) >= 1)
  // Listing tools is not a tool call: still answered.
  assert.ok((await client.listTools()).tools.length > DOCS_TOOLS.length)
})
