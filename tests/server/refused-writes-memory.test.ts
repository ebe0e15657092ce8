/**
 * Refused anonymous writes keep the server's memory flat: a server on 127.0.0.1 (on PostgreSQL +
 * S3 under `npm run test:unit:pg`) gets N refused DELETEs, POSTs and PATCHes to ever new paths,
 * then 2N more; the heap retained after a full GC may not grow with the extra requests.
 */
import assert from 'node:assert/strict'
import { request } from 'node:http'
import { after, before, test } from 'node:test'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { startTestServer, type TestServer } from './helpers.ts'

let server: TestServer
before(async () => {
  server = await startTestServer()
})
after(async () => {
  await server?.stop()
})

/** `gc()` even when node was started without --expose-gc. */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

async function retainedHeap(gc: () => void): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc()
    await new Promise((resolve) => setImmediate(resolve))
  }
  return process.memoryUsage().heapUsed
}

const WRITES: Array<[string, string]> = [
  ['DELETE', '/v1/apps/{r}'],
  ['DELETE', '/v1/apps/{r}/versions/ver_{r}'],
  ['DELETE', '/v1/channels/chn_{r}'],
  ['DELETE', '/v1/team/users/usr_{r}'],
  ['DELETE', '/v1/team/tokens/tok_{r}'],
  ['DELETE', '/v1/apps/{r}/versions/ver_{r}/artifacts/art_{r}'],
  ['PATCH', '/v1/apps/{r}'],
  ['POST', '/v1/apps'],
  ['POST', '/v1/apps/{r}/versions/ver_{r}/pause'],
]

let sent = 0
/** Sends `count` refused anonymous writes, 10 at a time, each on a new connection; returns their statuses. */
async function refusedWrites(count: number): Promise<Set<number>> {
  const statuses = new Set<number>()
  const one = (method: string, path: string) =>
    new Promise<number>((resolve, reject) => {
      const body =
        method === 'DELETE'
          ? undefined
          : JSON.stringify({ name: `n${sent}`, slug: `s${sent}`, reason: 'x'.repeat(200) })
      const headers: Record<string, string> = body
        ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }
        : {}
      const req = request(server.url + path, { method, agent: false, headers }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      })
      req.on('error', reject)
      req.end(body)
    })
  for (let i = 0; i < count; i += 10) {
    const batch = Array.from({ length: 10 }, () => {
      const [method, template] = WRITES[sent % WRITES.length]!
      const r = `x${(sent++).toString(36)}`
      return one(method, template.replaceAll('{r}', r))
    })
    for (const status of await Promise.all(batch)) statuses.add(status)
  }
  return statuses
}

test(
  'refused anonymous writes to ever new paths: the retained heap does not grow with their number',
  { timeout: 300_000 },
  async (t) => {
    const gc = exposeGc()
    const N = 2000
    await refusedWrites(500)
    const statuses = await refusedWrites(N)
    const afterN = await retainedHeap(gc)
    for (const status of await refusedWrites(2 * N)) statuses.add(status)
    const after3N = await retainedHeap(gc)
    assert.deepEqual([...statuses], [401], 'every write was refused for want of a token')
    const growth = after3N - afterN
    t.diagnostic(
      `retained heap after ${N} refused writes: ${(afterN / 2 ** 20).toFixed(1)} MiB, after ${3 * N}: ${(after3N / 2 ** 20).toFixed(1)} MiB`,
    )
    // 2N more requests: even 1 KiB kept per each would be 4 MiB (the probe that found the leak measured 3 KiB).
    assert.ok(
      growth < 2 * 2 ** 20,
      `the heap grew by ${(growth / 2 ** 20).toFixed(1)} MiB over ${2 * N} more refused writes`,
    )
  },
)
