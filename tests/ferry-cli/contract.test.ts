/**
 * The CLI reads only answers the contract allows: a server (here a deliberately wrong one on
 * 127.0.0.1, since Ferry itself answers by the contract) whose answer contradicts the schema is
 * refused with the JSON pointer of each problem, and never read as if it were right.
 */
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import { FerryClient } from '../../lib/ferry-cli/api.ts'
import { CliError, EXIT } from '../../lib/ferry-cli/errors.ts'

async function serving(status: number, type: string, body: unknown) {
  const server = createServer((_req, res) => res.writeHead(status, { 'content-type': type }).end(JSON.stringify(body)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    client: new FerryClient({ url: new URL(`http://127.0.0.1:${port}`), token: 'fry_test' }),
    close: () => server.close(),
  }
}

test('an answer whose items break the schema is refused, naming each member', async () => {
  const { client, close } = await serving(200, 'application/json', { items: [{ name: 5 }], nextCursor: null })
  try {
    await assert.rejects(client.catalogNames('channels'), (error: unknown) => {
      assert.ok(error instanceof CliError)
      assert.equal(error.exitCode, EXIT.refused)
      assert.match(error.message, /GET \/v1\/channels: the answer contradicts the contract/)
      assert.match(error.message, /\/items\/0\/name must be string/)
      return true
    })
  } finally {
    close()
  }
})

test('a status the operation does not document is refused as such, not read', async () => {
  const { client, close } = await serving(418, 'application/problem+json', { title: 'Teapot', status: 418 })
  try {
    await assert.rejects(client.versions('notes', {}), (error: unknown) => {
      assert.ok(error instanceof CliError)
      assert.match(error.message, /GET \/v1\/apps\/notes\/versions: HTTP 418/)
      return true
    })
  } finally {
    close()
  }
})

test('a documented problem is shown as the server wrote it', async () => {
  const problem = { type: 'about:blank', title: 'Not found', status: 404, detail: 'No app with slug notes.' }
  const { client, close } = await serving(404, 'application/problem+json', problem)
  try {
    await assert.rejects(
      client.versions('notes', {}),
      /GET \/v1\/apps\/notes\/versions: Not found \(404\): No app with slug notes\./,
    )
  } finally {
    close()
  }
})
