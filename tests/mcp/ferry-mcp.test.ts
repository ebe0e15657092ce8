/**
 * `ferry mcp` through the MCP SDK's own client over stdio, the way an agent client runs it: the
 * tools are listed, the docs searched and read, operations listed, described and called against
 * the in-process sandbox, and a write to a real Ferry server refused unless --allow-writes.
 * Backends: `npm test` runs it on SQLite and files only; its server comes from `startTestServer`,
 * so `npx tsx tests/server/run-on-postgres.ts <this file>` runs it on PostgreSQL + S3 (not in CI).
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { bearer, httpFetch, jsonBody, signup, startTestServer, type TestServer } from '../server/helpers.ts'
import { ferry } from '../ferry-cli/fixtures.ts'
import { callTool, startFerryMcp } from './mcp-client.ts'

const ROOT = join(import.meta.dirname, '..', '..')

describe('ferry mcp with the sandbox', () => {
  let client: Client
  before(async () => {
    client = await startFerryMcp()
  })
  after(async () => {
    await client.close()
  })

  test('lists its five tools, each with an input schema', async () => {
    const { tools } = await client.listTools()
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'call_operation',
      'describe_operation',
      'list_operations',
      'read_page',
      'search_docs',
    ])
    for (const tool of tools) assert.equal(tool.inputSchema.type, 'object', tool.name)
  })

  test('search_docs finds the rollouts guide for "ramp rollout"', async () => {
    const { text, isError } = await callTool(client, 'search_docs', { query: 'ramp rollout', scope: 'docs' })
    assert.equal(isError, false, text)
    const first = text.split('\n\n')[0] ?? ''
    assert.match(first, /page: \/docs\/rollouts \(docs\)/, text)
  })

  test('search_docs says so when nothing matches', async () => {
    const { text } = await callTool(client, 'search_docs', { query: 'zyxwvutsrq' })
    assert.match(text, /No page of scope "current" mentions "zyxwvutsrq"/)
  })

  test('read_page returns the Markdown twin of a page, by route or by URL', async () => {
    const intro = readFileSync(join(ROOT, 'pages/docs/intro.mdx'), 'utf8')
    const sentence =
      /^Ferry is a self-hosted update server for desktop apps\.[^\n]*/m.exec(intro)?.[0] ?? 'missing from intro.mdx'
    for (const page of ['/docs/intro', 'https://ferry.example.org/docs/intro.md']) {
      const { text, isError } = await callTool(client, 'read_page', { page })
      assert.equal(isError, false, text)
      assert.match(
        text,
        /^URL: https:\/\/ferry\.example\.org\/docs\/intro\nSource: pages\/docs\/intro\.mdx\n\n# Introduction\n/,
      )
      assert.ok(text.includes(sentence), `the page's text is missing:\n${text.slice(0, 500)}`)
      assert.ok(!text.includes('description: What Ferry is'), 'front matter must not reach the Markdown')
    }
  })

  test('read_page names the missing route and close ones', async () => {
    const { text, isError } = await callTool(client, 'read_page', { page: '/docs/api/apps/creat' })
    assert.equal(isError, true)
    assert.match(text, /^no page at \/docs\/api\/apps\/creat; did you mean \/docs\/api\/apps\/create/)
  })

  test('list_operations and describe_operation read the contract', async () => {
    const list = await callTool(client, 'list_operations', { tag: 'apps' })
    assert.match(list.text, /^createApp: POST \/v1\/apps: Create an app \[apps; apps\.create\]$/m)
    assert.doesNotMatch(list.text, /^checkForUpdate:/m)
    const described = await callTool(client, 'describe_operation', { operationId: 'createApp' })
    const op = JSON.parse(described.text) as {
      method: string
      path: string
      reference: string
      requestBody: { schema: unknown }
      components: { schemas: Record<string, { required?: string[] }> }
    }
    assert.equal(`${op.method} ${op.path}`, 'POST /v1/apps')
    assert.equal(op.reference, 'https://ferry.example.org/docs/api/apps/create')
    assert.deepEqual(op.requestBody.schema, { $ref: 'ferry:components#/schemas/AppCreate' })
    assert.deepEqual(op.components.schemas.AppCreate?.required, ['slug', 'name'])
    const unknown = await callTool(client, 'describe_operation', { operationId: 'createapp' })
    assert.equal(unknown.isError, true)
    assert.match(unknown.text, /no operation "createapp" in openapi\/openapi\.yaml; did you mean createApp/)
  })

  test('call_operation creates an app in the sandbox, then checks for updates', async () => {
    const created = await callTool(client, 'call_operation', {
      operationId: 'createApp',
      body: { slug: 'mcp-notes', name: 'MCP Notes' },
    })
    assert.equal(created.isError, false, created.text)
    assert.match(created.text, /^POST http:\/\/sandbox\.ferry\.test\/v1\/apps → 201 application\/json/)
    assert.deepEqual(created.structured?.contract, { ok: true, problems: [], notes: [] })
    assert.equal((created.structured?.body as { slug?: string }).slug, 'mcp-notes')

    const listed = await callTool(client, 'call_operation', { operationId: 'listApps', query: { limit: 100 } })
    assert.ok(
      (listed.structured?.body as { items: Array<{ slug: string }> }).items.some((a) => a.slug === 'mcp-notes'),
      listed.text,
    )

    // The new app has no version yet: up to date. The demo app offers 1.1.0, its intermediate build, to 1.0.0.
    const query = { version: '1.0.0', platform: 'windows', arch: 'x64', format: 'ferry' }
    const none = await callTool(client, 'call_operation', {
      operationId: 'checkForUpdate',
      path: { app: 'mcp-notes' },
      query,
    })
    assert.equal(none.structured?.status, 204, none.text)
    const offered = await callTool(client, 'call_operation', {
      operationId: 'checkForUpdate',
      path: { app: 'harbor-notes' },
      query,
    })
    assert.equal(offered.structured?.status, 200, offered.text)
    assert.equal((offered.structured?.body as { version?: string }).version, '1.1.0')
    assert.deepEqual(offered.structured?.contract, { ok: true, problems: [], notes: [] })
  })

  test('call_operation reports the server refusing bad input as a documented problem', async () => {
    const bad = await callTool(client, 'call_operation', {
      operationId: 'createApp',
      body: { slug: 'Not A Slug', name: 'x' },
    })
    assert.equal(bad.structured?.status, 400, bad.text)
    assert.equal(bad.structured?.contentType, 'application/problem+json')
    assert.equal((bad.structured?.contract as { ok: boolean }).ok, true)
    assert.match(bad.text, /"pointer": "\/slug"/)
  })

  test('call_operation refuses what it cannot send, naming the parameter', async () => {
    const typo = await callTool(client, 'call_operation', {
      operationId: 'checkForUpdate',
      path: { app: 'harbor-notes' },
      query: { versio: '1.0.0' },
    })
    assert.equal(typo.isError, true)
    assert.match(
      typo.text,
      /checkForUpdate: query parameter "versio" is not one of this operation's \(version, channel/,
    )
    const missing = await callTool(client, 'call_operation', { operationId: 'updateApp', body: { name: 'x' } })
    assert.match(missing.text, /updateApp: path parameter "app" is required \(PATCH \/v1\/apps\/\{app\}\)/)
    const upload = await callTool(client, 'call_operation', {
      operationId: 'uploadVersion',
      path: { app: 'harbor-notes' },
      body: {},
    })
    assert.match(upload.text, /uploadVersion takes multipart\/form-data/)
    const noServer = await callTool(client, 'call_operation', { operationId: 'listApps', target: 'server' })
    assert.equal(noServer.isError, true)
    assert.match(noServer.text, /No real server is configured/)
  })
})

describe('ferry mcp with a real server', () => {
  let server: TestServer
  let admin: string
  let client: Client
  const slugs = async () => {
    const res = await httpFetch(server.url)('/v1/apps?limit=100', bearer(admin))
    assert.equal(res.status, 200)
    return ((await res.json()) as { items: Array<{ slug: string }> }).items.map((a) => a.slug)
  }

  before(async () => {
    server = await startTestServer()
    admin = (await signup(httpFetch(server.url), 'agent@mcp.test')).token
    const made = await httpFetch(server.url)('/v1/apps', jsonBody({ slug: 'real-app', name: 'Real app' }, admin))
    assert.equal(made.status, 201)
    client = await startFerryMcp([], { FERRY_URL: server.url, FERRY_TOKEN: admin })
  })
  after(async () => {
    await client.close()
    await server.stop()
  })

  test('reads go to the server by default, with its token', async () => {
    const listed = await callTool(client, 'call_operation', { operationId: 'listApps' })
    assert.equal(listed.structured?.target, 'server', listed.text)
    assert.deepEqual(
      (listed.structured?.body as { items: Array<{ slug: string }> }).items.map((a) => a.slug),
      ['real-app'],
    )
    assert.ok(!listed.text.includes(admin), 'the token must not be echoed')
  })

  test('a write is refused without --allow-writes, and nothing reaches the server', async () => {
    const refused = await callTool(client, 'call_operation', {
      operationId: 'createApp',
      body: { slug: 'agent-app', name: 'Agent app' },
    })
    assert.equal(refused.isError, true)
    assert.match(
      refused.text,
      /^refused: createApp \(POST \/v1\/apps\) writes, and writes to the Ferry server at http:\/\/127\.0\.0\.1:\d+ are off\. Nothing was sent\./,
    )
    assert.deepEqual(await slugs(), ['real-app'])
    // The sandbox still takes the same write.
    const sandbox = await callTool(client, 'call_operation', {
      operationId: 'createApp',
      target: 'sandbox',
      body: { slug: 'agent-app', name: 'Agent app' },
    })
    assert.equal(sandbox.structured?.status, 201, sandbox.text)
    assert.deepEqual(await slugs(), ['real-app'])
  })

  test('with --allow-writes the write reaches the server', async () => {
    const writer = await startFerryMcp(['--allow-writes'], { FERRY_URL: server.url, FERRY_TOKEN: admin })
    try {
      const created = await callTool(writer, 'call_operation', {
        operationId: 'createApp',
        body: { slug: 'agent-app', name: 'Agent app' },
      })
      assert.equal(created.structured?.status, 201, created.text)
      assert.deepEqual((await slugs()).sort(), ['agent-app', 'real-app'])
    } finally {
      await writer.close()
    }
  })
})

test('ferry mcp --allow-writes without a server is a usage error', async () => {
  const run = await ferry(['mcp', '--allow-writes'], {})
  assert.equal(run.code, 2)
  assert.match(run.stderr, /^ferry: mcp: --allow-writes applies to a real server: set FERRY_URL/)
  assert.equal(run.stdout, '')
})
