/**
 * `ferry mcp` as an installed Ferry runs it: the package's files only (package.json `files`, with
 * the packed docs library `npm pack` adds), started from an app's folder. Without a server it
 * serves the docs tools from the packed library; with FERRY_URL and FERRY_TOKEN it relays stdio to
 * that server's /mcp, so the agent gets the tools the token may call. tests/package/install.test.ts
 * does the same through a real `npm pack` and install.
 */
import assert from 'node:assert/strict'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { gzipSync } from 'node:zlib'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import pkg from '../../package.json' with { type: 'json' }
import { PACKED_LIBRARY } from '../../mcp/library-shape.ts'
import { packLibrary } from '../../mcp/library-sources.ts'
import { jsonBody, prepareUploadTeam, startTestServer, type TestServer } from '../server/helpers.ts'
import { callTool } from './mcp-client.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const scratch = mkdtempSync(join(tmpdir(), 'ferry-mcp-installed-'))
const installed = join(scratch, 'node_modules', 'ferry')
const app = join(scratch)
let server: TestServer
let token: string
const clients: Client[] = []

before(async () => {
  mkdirSync(installed, { recursive: true })
  for (const entry of [...pkg.files, 'package.json', '.nvmrc'])
    cpSync(join(ROOT, entry), join(installed, entry), { recursive: true })
  symlinkSync(join(ROOT, 'node_modules'), join(installed, 'node_modules'))
  writeFileSync(join(installed, PACKED_LIBRARY), gzipSync(JSON.stringify(await packLibrary(ROOT))))
  server = await startTestServer()
  const f = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init)
  const admin = await prepareUploadTeam(f, 'installed-notes')
  const res = await f('/v1/team/tokens', jsonBody({ name: 'agent' }, admin))
  assert.equal(res.status, 201, await res.clone().text())
  token = ((await res.json()) as { token: string }).token
})
after(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await server.stop()
  rmSync(scratch, { recursive: true, force: true })
})

async function ferryMcp(env: Record<string, string> = {}): Promise<Client> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !e[0].startsWith('FERRY_')),
  )
  const client = new Client({ name: 'ferry-installed-tests', version: '1.0.0' })
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(installed, 'scripts', 'ferry-bin.mjs'), 'mcp'],
      cwd: app,
      env: { ...inherited, ...env },
      stderr: 'ignore',
    }),
  )
  clients.push(client)
  return client
}

test('no server: the docs tools, answered from the packed library', async () => {
  const client = await ferryMcp()
  const { tools } = await client.listTools()
  assert.deepEqual(tools.map((t) => t.name).sort(), [
    'describe_operation',
    'list_operations',
    'read_page',
    'search_docs',
  ])
  const page = await callTool(client, 'read_page', { page: '/docs/rollouts' })
  assert.equal(page.isError, false, page.text)
  assert.match(page.text, /^URL: https:\/\/\S+\/docs\/rollouts\nSource: pages\/docs\/rollouts\.mdx/)
})

test("FERRY_URL and FERRY_TOKEN: a bridge to the server's /mcp, with the token's tools", async () => {
  const client = await ferryMcp({ FERRY_URL: server.url, FERRY_TOKEN: token })
  const names = (await client.listTools()).tools.map((t) => t.name)
  assert.ok(names.includes('listApps') && names.includes('search_docs'), names.join(', '))
  assert.ok(!names.includes('createApp'), 'a token without grants gets no write tool')
  const apps = await callTool(client, 'listApps', {})
  assert.equal(apps.isError, false, apps.text)
  assert.match(apps.text, /"slug": "installed-notes"/)
})

test('a server that refuses the token: connecting fails with its 401 problem', async () => {
  await assert.rejects(
    ferryMcp({ FERRY_URL: server.url, FERRY_TOKEN: 'ferry_RevokedOrMistyped0123456789abcdef' }),
    /refused the request: .*"status":401.*The API token is not known/,
  )
})
