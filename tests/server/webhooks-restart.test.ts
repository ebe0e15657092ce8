/**
 * Webhook delivery survives processes: a Ferry killed with SIGKILL while a receiver holds its
 * delivery open delivers it after the restart (the outbox is in the database), and two Ferry
 * processes on one PostgreSQL deliver each event once (`FOR UPDATE SKIP LOCKED`).
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { startPostgres } from '../../services/postgres-server.ts'
import {
  bearer,
  httpFetch,
  jsonBody,
  killHard,
  signup,
  startChild,
  testDatabaseUrl,
  uploadForm,
  type Fetch,
} from './helpers.ts'
import { startReceiver, verify } from './webhooks/receiver.ts'

const WEBHOOKS = { FERRY_TEST_CHILD_WEBHOOKS: '1' }

async function subscribe(f: Fetch, token: string, url: string, events: string[]) {
  const res = await f('/v1/webhooks', jsonBody({ url, events }, token))
  assert.equal(res.status, 201, await res.clone().text())
  return (await res.json()) as { id: string; secret: string }
}

async function deliveries(f: Fetch, token: string, id: string) {
  const res = await f(`/v1/webhooks/${id}/deliveries?limit=100`, bearer(token))
  assert.equal(res.status, 200)
  return ((await res.json()) as { items: Array<{ status: string; attempts: number; eventId: string }> }).items
}

test(
  'a Ferry killed with SIGKILL mid-delivery delivers the event after its restart',
  { timeout: 180_000 },
  async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ferry-webhook-kill-'))
    const databaseUrl = await testDatabaseUrl()
    const receiver = await startReceiver()
    try {
      let { child, url } = await startChild(dataDir, databaseUrl, undefined, WEBHOOKS)
      let f = httpFetch(url)
      const { token } = await signup(f, 'admin@kill.test')
      for (const [path, body] of [
        ['/v1/channels', { name: 'stable' }],
        ['/v1/platforms', { name: 'windows' }],
        ['/v1/archs', { name: 'x64' }],
        ['/v1/apps', { slug: 'kill-app', name: 'Kill' }],
      ] as const) {
        assert.equal((await f(path, jsonBody(body, token))).status, 201)
      }
      const sub = await subscribe(f, token, receiver.url, ['version.uploaded'])
      receiver.hold()
      const up = await f(
        '/v1/apps/kill-app/versions',
        bearer(token, {
          method: 'POST',
          body: uploadForm({ version: '1.0.0', channel: 'stable', platform: 'windows', arch: 'x64' }, [['k.exe', 'k']]),
        }),
      )
      assert.equal(up.status, 201)
      await receiver.arrived(1)
      await killHard(child)
      receiver.release()
      ;({ child, url } = await startChild(dataDir, databaseUrl, undefined, WEBHOOKS))
      f = httpFetch(url)
      try {
        await receiver.arrived(2)
        const [first, second] = receiver.received
        assert.equal(second!.id, first!.id, 'the same event, not a new one')
        verify(sub.secret, second!)
        // The attempt's outcome is recorded right after the receiver answered.
        let log = await deliveries(f, token, sub.id)
        while (log[0]?.status === 'pending') log = await deliveries(f, token, sub.id)
        assert.deepEqual(
          log.map((d) => [d.status, d.attempts]),
          [['succeeded', 2]],
        )
      } finally {
        await killHard(child)
      }
    } finally {
      await receiver.close()
      await rm(dataDir, { recursive: true, force: true })
    }
  },
)

test('two Ferry processes on one PostgreSQL deliver each event once', { timeout: 180_000 }, async () => {
  const pg = await startPostgres()
  const dataDir = await mkdtemp(join(tmpdir(), 'ferry-webhook-two-'))
  const receiver = await startReceiver()
  const children: Array<Awaited<ReturnType<typeof startChild>>> = []
  try {
    const databaseUrl = await pg.createDatabase()
    children.push(await startChild(join(dataDir, 'a'), databaseUrl, undefined, WEBHOOKS))
    children.push(await startChild(join(dataDir, 'b'), databaseUrl, undefined, WEBHOOKS))
    const [a, b] = children.map((c) => httpFetch(c.url)) as [Fetch, Fetch]
    const { token } = await signup(a, 'admin@two.test')
    const sub = await subscribe(b, token, receiver.url, ['token.created'])
    // Both processes deliver: a worker runs one pass at a time, so while the receiver holds the
    // first delivery open, the process that sent it cannot send the second; the other must.
    receiver.hold()
    assert.equal((await a('/v1/team/tokens', jsonBody({ name: 'held-1' }, token))).status, 201)
    await receiver.arrived(1)
    assert.equal((await b('/v1/team/tokens', jsonBody({ name: 'held-2' }, token))).status, 201)
    await receiver.arrived(2)
    receiver.release()
    const EVENTS = 42
    for (let i = 2; i < EVENTS; i++)
      assert.equal((await (i % 2 ? a : b)('/v1/team/tokens', jsonBody({ name: `t${i}` }, token))).status, 201)
    await receiver.arrived(EVENTS)
    let log = await deliveries(a, token, sub.id)
    while (log.some((d) => d.status === 'pending')) log = await deliveries(a, token, sub.id)
    // A second claim of a row would count a second attempt (and send it twice).
    assert.equal(log.length, EVENTS)
    assert.ok(
      log.every((d) => d.status === 'succeeded' && d.attempts === 1),
      JSON.stringify(log.filter((d) => d.attempts !== 1)),
    )
    assert.equal(new Set(receiver.received.map((r) => r.id)).size, EVENTS)
    assert.equal(receiver.received.length, EVENTS)
  } finally {
    for (const c of children) await killHard(c.child)
    await receiver.close()
    await rm(dataDir, { recursive: true, force: true })
    await pg.stop()
  }
})
