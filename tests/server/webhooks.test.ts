/**
 * Webhooks end to end with a real receiver on 127.0.0.1: every event reaches each subscription
 * once, signed so the Standard Webhooks library verifies it; ramp steps fire once per step; a
 * receiver that fails five times gets the event exactly once more; a subscription failing for
 * a day is disabled; hostile URLs are refused at creation and at delivery; redirects are not
 * followed. The worker is driven pass by pass with short retry delays.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { Webhook } from 'standardwebhooks'
import type { Logger } from '../../server/core/logger.ts'
import { createWebhookWorker, type WebhookWorker } from '../../server/webhooks/worker.ts'
import { checkWebhookUrl, sendWebhookNode } from '../../server/webhooks/send-node.ts'
import { rolloutBucket } from '../../server/updates/update-logic.ts'
import { WEBHOOK_EVENT_TYPES } from '../../server/webhooks/event-types.ts'
import { COMPONENTS_ID, componentSchemas, webhookEvents } from '../../contract/generated/operations.ts'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { bearer, expectProblem, expectSpec, jsonBody, memoryApp, signup, uploadForm, type Fetch } from './helpers.ts'
import { delivered, startReceiver, verify, type Receiver, type Received } from './webhooks/receiver.ts'

const MINUTE = 60_000
let offset = 0
const clock = () => new Date(Date.now() + offset)
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} }
let f: Fetch
let token: string
let db: Awaited<ReturnType<typeof memoryApp>>['db']
let worker: WebhookWorker
const receivers: Receiver[] = []
const post = (body: unknown = {}) => jsonBody(body, token)
const patch = (body: unknown) => ({ ...jsonBody(body, token), method: 'PATCH' })

async function receiver() {
  const r = await startReceiver()
  receivers.push(r)
  return r
}

async function subscribe(url: string, events: string[], apps?: string[]) {
  const res = await f('/v1/webhooks', post({ url, events, ...(apps ? { apps } : {}) }))
  return (await expectSpec('createWebhook', res, 201)) as { id: string; secret: string }
}

/** Runs passes until one makes an attempt (the retry delays are 1 ms); fails after 1000. */
async function passUntilAttempt() {
  for (let i = 0; i < 1000; i++) {
    if ((await worker.pass()) > 0) return
    await new Promise((done) => setImmediate(done))
  }
  assert.fail('no delivery came due')
}

/** Runs passes until one finds nothing due. */
async function drain() {
  while ((await worker.pass()) > 0) {
    /* next pass */
  }
}

async function upload(app: string, version: string, published = 'false') {
  const res = await f(
    `/v1/apps/${app}/versions`,
    bearer(token, {
      method: 'POST',
      body: uploadForm({ version, channel: 'stable', platform: 'windows', arch: 'x64', published }, [
        [`${app}-${version}.exe`, `exe ${version}`],
      ]),
    }),
  )
  assert.equal(res.status, 201, await res.clone().text())
  return ((await res.json()) as { id: string }).id
}

before(async () => {
  const m = await memoryApp({ healthPolicy: { maxFailureRatio: 0.2, minReports: 1, minAddresses: 1 } }, clock, {
    logger: quiet,
  })
  f = m.fetch
  db = m.db
  worker = createWebhookWorker({
    db,
    now: clock,
    send: sendWebhookNode(true),
    logger: quiet,
    retryDelaysMs: [1, 1, 1, 1, 1, 1, 1],
  })
  token = (await signup(f, 'admin@webhooks.test')).token
  for (const [path, body] of [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'ferry' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/apps', { slug: 'harbor', name: 'Harbor' }],
    ['/v1/apps', { slug: 'other', name: 'Other' }],
  ] as const) {
    assert.equal((await f(path, post(body))).status, 201)
  }
})
after(async () => {
  await Promise.all(receivers.map((r) => r.close()))
})

test('every event reaches each subscription once, signed so that the standardwebhooks library verifies it', async () => {
  const all = await receiver()
  const onlyOther = await receiver()
  const everything = [
    'version.uploaded',
    'version.published',
    'version.unpublished',
    'version.paused',
    'version.resumed',
    'version.pulled',
    'token.created',
    'token.revoked',
    'rule.created',
    'rule.deleted',
  ]
  const a = await subscribe(all.url, everything)
  assert.match(a.secret, /^whsec_/)
  const b = await subscribe(onlyOther.url, ['version.uploaded', 'version.published'], ['other'])
  const listed = (await expectSpec('getWebhook', await f(`/v1/webhooks/${a.id}`, bearer(token)), 200)) as Record<
    string,
    unknown
  >
  assert.equal(listed.secret, undefined, 'the secret is shown only at creation')

  const id = await upload('harbor', '1.0.0')
  assert.equal((await f(`/v1/apps/harbor/versions/${id}`, patch({ published: true }))).status, 200)
  assert.equal(
    (await f(`/v1/apps/harbor/versions/${id}`, patch({ published: true }))).status,
    200,
    'publishing again changes nothing',
  )
  assert.equal((await f(`/v1/apps/harbor/versions/${id}`, patch({ published: false }))).status, 200)
  assert.equal((await f(`/v1/apps/harbor/versions/${id}`, patch({ published: true }))).status, 200)
  assert.equal((await f(`/v1/apps/harbor/versions/${id}/pause`, post({ reason: 'Crash reports' }))).status, 200)
  assert.equal(
    (await f(`/v1/apps/harbor/versions/${id}/pause`, post({ reason: 'again' }))).status,
    200,
    'a second pause is no event',
  )
  assert.equal((await f(`/v1/apps/harbor/versions/${id}/resume`, post())).status, 200)
  assert.equal((await f(`/v1/apps/harbor/versions/${id}/pull`, post({ reason: 'Data loss' }))).status, 200)
  const created = await f('/v1/team/tokens', post({ name: 'ci' }))
  const tokenId = ((await created.json()) as { id: string }).id
  assert.equal((await f(`/v1/team/tokens/${tokenId}`, bearer(token, { method: 'DELETE' }))).status, 204)
  const hold = await f('/v1/apps/harbor/rules', post({ kind: 'hold', reason: 'Release freeze' }))
  const ruleId = ((await expectSpec('createRule', hold, 201)) as { id: string }).id
  assert.equal((await f(`/v1/apps/harbor/rules/${ruleId}`, bearer(token, { method: 'DELETE' }))).status, 204)
  await upload('other', '2.0.0', 'true')
  await drain()

  const expected = [
    'version.uploaded',
    'version.published',
    'version.unpublished',
    'version.published',
    'version.paused',
    'version.resumed',
    'version.pulled',
    'token.created',
    'token.revoked',
    'rule.created',
    'rule.deleted',
    'version.uploaded',
    'version.published',
  ]
  await all.arrived(expected.length)
  // Deliveries go out side by side: at least once each, in no promised order.
  assert.deepEqual(all.received.map((r) => r.type).sort(), [...expected].sort())
  assert.equal(new Set(all.received.map((r) => r.id)).size, expected.length, 'one webhook-id per event')
  for (const r of all.received) verify(a.secret, r)
  assert.throws(() => verify(b.secret, all.received[0]!), /signature/i, "another subscription's secret does not verify")
  const paused = JSON.parse(all.received.find((r) => r.type === 'version.paused')!.body) as {
    data: {
      app: string
      version: { version: string; paused: { reason: string; automatic: boolean } }
      actor: { name: string }
    }
  }
  assert.deepEqual(
    [
      paused.data.app,
      paused.data.version.version,
      paused.data.version.paused.reason,
      paused.data.version.paused.automatic,
      paused.data.actor.name,
    ],
    ['harbor', '1.0.0', 'Crash reports', false, 'Admin'],
  )
  const tokenEvent = all.received.find((r) => r.type === 'token.created')!.body
  assert.doesNotMatch(tokenEvent, /ferry_/, 'a token event never carries the token')

  await onlyOther.arrived(2)
  assert.deepEqual(onlyOther.received.map((r) => r.type).sort(), ['version.published', 'version.uploaded'])
  for (const r of onlyOther.received) verify(b.secret, r)
  assert.equal(await worker.pass(), 0, 'nothing is left to deliver')
  assert.equal(all.received.length, expected.length)

  const log = (await expectSpec(
    'listWebhookDeliveries',
    await f(`/v1/webhooks/${a.id}/deliveries?limit=100`, bearer(token)),
    200,
  )) as { items: Array<{ status: string; attempts: number; responseStatus: number }> }
  assert.equal(log.items.length, expected.length)
  assert.ok(log.items.every((d) => d.status === 'succeeded' && d.attempts === 1 && d.responseStatus === 204))
  for (const r of receivers.splice(0)) await r.close()
  for (const s of [a, b])
    assert.equal((await f(`/v1/webhooks/${s.id}`, bearer(token, { method: 'DELETE' }))).status, 204)
})

test('a subscription may name every event type or `*`; both get every event, `*` only alone', async () => {
  // The contract's bound on `events` follows the event types: a new type never makes "all" too many.
  const schemas = (componentSchemas as { schemas: Record<string, { properties: { events: { maxItems: number } } }> })
    .schemas
  for (const body of ['WebhookCreate', 'WebhookUpdate'])
    assert.equal(schemas[body]?.properties.events.maxItems, WEBHOOK_EVENT_TYPES.length, body)
  const named = await receiver()
  const star = await receiver()
  const one = await receiver()
  const a = await subscribe(named.url, [...WEBHOOK_EVENT_TYPES])
  const b = await subscribe(star.url, ['*'])
  const c = await subscribe(one.url, ['version.paused'])
  const listed = (await expectSpec('getWebhook', await f(`/v1/webhooks/${b.id}`, bearer(token)), 200)) as {
    events: string[]
  }
  assert.deepEqual(listed.events, ['*'])
  const mixed = await expectProblem(
    await f('/v1/webhooks', post({ url: star.url, events: ['version.paused', '*'] })),
    400,
    'validation',
  )
  assert.deepEqual(mixed.errors?.[0]?.pointer, '/events/1')
  await expectProblem(await f(`/v1/webhooks/${c.id}`, patch({ events: ['*', 'token.created'] })), 400, 'validation')

  assert.equal((await f('/v1/apps', post({ slug: 'starred', name: 'Starred' }))).status, 201)
  const id = await upload('starred', '1.0.0', 'true')
  assert.equal((await f(`/v1/apps/starred/versions/${id}/pause`, post({ reason: 'Crash reports' }))).status, 200)
  assert.equal((await f(`/v1/apps/starred/versions/${id}/resume`, post())).status, 200)
  // Widened to every event by PATCH: it gets the token event that follows.
  const widened = await f(`/v1/webhooks/${c.id}`, patch({ events: ['*'] }))
  assert.deepEqual(((await expectSpec('updateWebhook', widened, 200)) as { events: string[] }).events, ['*'])
  const created = await f('/v1/team/tokens', post({ name: 'all-events' }))
  assert.equal(created.status, 201)
  await drain()

  const expected = ['token.created', 'version.paused', 'version.published', 'version.resumed', 'version.uploaded']
  await Promise.all([named.arrived(expected.length), star.arrived(expected.length), one.arrived(2)])
  assert.equal(await worker.pass(), 0, 'nothing is left to deliver')
  assert.deepEqual(named.received.map((r) => r.type).sort(), expected)
  assert.deepEqual(star.received.map((r) => r.type).sort(), expected)
  assert.deepEqual(one.received.map((r) => r.type).sort(), ['token.created', 'version.paused'])
  for (const r of star.received) verify(b.secret, r)
  for (const s of [a, b, c])
    assert.equal((await f(`/v1/webhooks/${s.id}`, bearer(token, { method: 'DELETE' }))).status, 204)
})

test('health reports that pause a version raise version.paused without an actor; its resume raises version.resumed once', async () => {
  const r = await receiver()
  const s = await subscribe(r.url, ['version.paused', 'version.resumed'])
  const id = await upload('harbor', '3.0.0', 'true')
  const check = await f('/v1/apps/harbor/update?version=2.9.0&platform=windows&arch=x64&format=ferry', {
    headers: { 'x-ferry-device-id': 'device-0001' },
  })
  assert.equal(check.status, 200, await check.clone().text())
  const report = await f(
    '/v1/apps/harbor/health-reports',
    jsonBody({
      deviceId: 'device-0001',
      version: '3.0.0',
      channel: 'stable',
      platform: 'windows',
      arch: 'x64',
      outcome: 'failed',
      reason: 'Crash on start',
    }),
  )
  assert.deepEqual(await report.json(), { counted: true, paused: true })
  await drain()
  await r.arrived(1)
  const body = verify(s.secret, r.received[0]!) as {
    type: string
    data: { actor: unknown; version: { version: string; paused: { automatic: boolean } } }
  }
  assert.deepEqual(
    [body.type, body.data.actor, body.data.version.version, body.data.version.paused.automatic],
    ['version.paused', null, '3.0.0', true],
  )
  // Two resumes at once (on PostgreSQL, two connections): one resumed it, one event.
  const resumes = await Promise.all([0, 1, 2].map(() => f(`/v1/apps/harbor/versions/${id}/resume`, post())))
  assert.deepEqual(
    resumes.map((x) => x.status),
    [200, 200, 200],
  )
  await drain()
  await r.arrived(2)
  assert.equal(await worker.pass(), 0)
  assert.deepEqual(
    r.received.map((x) => x.type),
    ['version.paused', 'version.resumed'],
  )
  await f(`/v1/webhooks/${s.id}`, bearer(token, { method: 'DELETE' }))
})

test('a ramp announces each step once, when the worker passes after it began', async () => {
  const r = await receiver()
  const s = await subscribe(r.url, ['version.ramp_step'])
  const id = await upload('harbor', '4.0.0', 'true')
  offset = 0
  const set = await f(
    `/v1/apps/harbor/versions/${id}`,
    patch({
      ramp: {
        steps: [
          { percentage: 10, afterMinutes: 0 },
          { percentage: 50, afterMinutes: 60 },
          { percentage: 100, afterMinutes: 60 },
        ],
      },
    }),
  )
  assert.equal(set.status, 200, await set.clone().text())
  await drain()
  await drain()
  await r.arrived(1)
  offset = 61 * MINUTE
  await drain()
  await drain()
  await r.arrived(2)
  offset = 0
  assert.equal(await worker.pass(), 0)
  const steps = r.received.map((x) => {
    // The timestamps follow the simulated clock: checked with the library's own signing.
    const sig = new Webhook(s.secret).sign(x.id, new Date(Number(x.headers['webhook-timestamp']) * 1000), x.body)
    assert.ok(String(x.headers['webhook-signature']).split(' ').includes(sig))
    const body = JSON.parse(x.body) as { data: { step: number; percentage: number; actor: unknown } }
    return [body.data.step, body.data.percentage, body.data.actor]
  })
  assert.deepEqual(steps, [
    [0, 10, null],
    [1, 50, null],
  ])
  await f(`/v1/webhooks/${s.id}`, bearer(token, { method: 'DELETE' }))
})

/** Checks a request signed at a simulated time with the library's own signing (its `verify` refuses timestamps 5 minutes off), and parses it. */
function verifySimulated(secret: string, x: Received): unknown {
  const sig = new Webhook(secret).sign(x.id, new Date(Number(x.headers['webhook-timestamp']) * 1000), x.body)
  assert.ok(String(x.headers['webhook-signature']).split(' ').includes(sig), "signed with the subscription's secret")
  return JSON.parse(x.body)
}

test('a gated ramp that holds is announced once per hold with its evidence, by one of two workers; its deadline pauses it once, without an actor', async (t) => {
  t.after(() => {
    offset = 0
  })
  const r = await receiver()
  assert.equal((await f('/v1/apps', post({ slug: 'gated', name: 'Gated' }))).status, 201)
  const s = await subscribe(
    r.url,
    ['version.ramp_step', 'version.ramp_holding', 'version.paused', 'version.resumed'],
    ['gated'],
  )
  const id = await upload('gated', '7.0.0', 'true')
  offset = 0
  const gate = { minInstalls: 2, maxFailureRatio: 0.5, deadlineMinutes: 120 }
  const set = await f(
    `/v1/apps/gated/versions/${id}`,
    patch({
      ramp: {
        steps: [
          { percentage: 5, afterMinutes: 0 },
          { percentage: 50, afterMinutes: 60 },
        ],
        gate,
      },
    }),
  )
  assert.equal(set.status, 200, await set.clone().text())
  const other = createWebhookWorker({ db, now: clock, send: sendWebhookNode(true), logger: quiet, retryDelaysMs: [1] })
  const passes = async () => {
    await Promise.all([worker.pass(), other.pass(), worker.pass()])
    await drain()
  }
  await passes()
  await r.arrived(1)

  // One install during the first step, from a device the 5 % were offered to (a step's window opens a second in).
  offset = 2000
  let device = ''
  for (let i = 0; !device; i++) if ((await rolloutBucket(`holding-${i}`, '7.0.0')) < 5) device = `holding-${i}`
  const check = await f('/v1/apps/gated/update?version=6.9.0&platform=windows&arch=x64&format=ferry', {
    headers: { 'x-ferry-device-id': device },
  })
  assert.equal(((await check.json()) as { version: string }).version, '7.0.0')
  const report = await f(
    '/v1/apps/gated/health-reports',
    jsonBody({
      deviceId: device,
      version: '7.0.0',
      channel: 'stable',
      platform: 'windows',
      arch: 'x64',
      outcome: 'installed',
    }),
  )
  assert.deepEqual(await report.json(), { counted: true, paused: false })

  // The second step is due without its evidence: the ramp holds, announced once however often it is read or passed over.
  offset = 61 * MINUTE
  for (let i = 0; i < 3; i++) {
    await passes()
    assert.equal((await f('/v1/apps/gated/versions?limit=100', bearer(token))).status, 200)
    await f('/v1/apps/gated/update?version=6.9.0&platform=windows&arch=x64&format=ferry', {
      headers: { 'x-ferry-device-id': device },
    })
  }
  await r.arrived(2)
  assert.deepEqual(
    r.received.map((x) => x.type),
    ['version.ramp_step', 'version.ramp_holding'],
  )
  const holding = verifySimulated(s.secret, r.received[1]!) as {
    data: {
      step: number
      percentage: number
      actor: unknown
      holding: { step: number }
      evidence: Record<string, unknown>
    }
  }
  assert.deepEqual(
    [holding.data.step, holding.data.percentage, holding.data.holding.step, holding.data.actor],
    [0, 5, 1, null],
  )
  assert.deepEqual(holding.data.evidence, {
    installs: 1,
    minInstalls: 2,
    reports: 1,
    failed: 0,
    failureRatio: 0,
    maxFailureRatio: 0.5,
    progress: '1 of 2 installs reported',
  })

  // Past the deadline: one automatic pause, by no one.
  offset = 182 * MINUTE
  await passes()
  await passes()
  await r.arrived(3)
  const paused = verifySimulated(s.secret, r.received[2]!) as {
    type: string
    data: { actor: unknown; version: { paused: { automatic: boolean; reason: string } } }
  }
  assert.deepEqual(
    [paused.type, paused.data.actor, paused.data.version.paused.automatic],
    ['version.paused', null, true],
  )
  assert.match(
    paused.data.version.paused.reason,
    /held 120 minutes before step 2 without evidence: 1 of 2 installs reported/,
  )

  // Resumed by a person: one version.resumed; the ramp holds again (the wait starts over), a new
  // hold announced once more.
  assert.equal((await f(`/v1/apps/gated/versions/${id}/resume`, post())).status, 200)
  await passes()
  await passes()
  await r.arrived(5)
  assert.equal(await worker.pass(), 0)
  // The last two were due together: either may arrive first.
  const later = (type: string) => r.received.slice(3).find((x) => x.type === type)!
  assert.deepEqual(
    [
      ...r.received.slice(0, 3).map((x) => x.type),
      ...r.received
        .slice(3)
        .map((x) => x.type)
        .sort(),
    ],
    ['version.ramp_step', 'version.ramp_holding', 'version.paused', 'version.ramp_holding', 'version.resumed'],
  )
  const resumed = verifySimulated(s.secret, later('version.resumed')) as {
    data: { actor: { name: string } | null; version: { paused: unknown } }
  }
  assert.deepEqual([resumed.data.actor?.name, resumed.data.version.paused], ['Admin', null])
  const again = verifySimulated(s.secret, later('version.ramp_holding')) as { data: { evidence: { progress: string } } }
  assert.equal(again.data.evidence.progress, '0 of 2 installs reported', 'reports before the resume no longer count')

  // Its deadline passes again; a new ramp ends that pause too, with one more version.resumed (and its first step).
  offset = 182 * MINUTE + 182 * MINUTE
  await passes()
  await r.arrived(6)
  const set2 = await f(
    `/v1/apps/gated/versions/${id}`,
    patch({ ramp: { steps: [{ percentage: 5, afterMinutes: 0 }] } }),
  )
  assert.equal(set2.status, 200, await set2.clone().text())
  await passes()
  await r.arrived(8)
  assert.deepEqual(
    r.received
      .slice(5)
      .map((x) => x.type)
      .sort(),
    ['version.paused', 'version.ramp_step', 'version.resumed'],
  )
  offset = 0
  await f(`/v1/webhooks/${s.id}`, bearer(token, { method: 'DELETE' }))
})

test('a receiver that fails five times gets the event exactly once more; redelivery and the test event go out again', async () => {
  const r = await receiver()
  r.script([500, 500, 503, 500, 502])
  const s = await subscribe(r.url, ['version.uploaded'])
  await upload('harbor', '5.0.0')
  for (let n = 1; n <= 6; n++) {
    await r.arrived(n - 1)
    await passUntilAttempt()
  }
  await r.arrived(6)
  assert.equal(await worker.pass(), 0)
  assert.equal(r.received.length, 6)
  assert.equal(new Set(r.received.map((x) => x.id)).size, 1, 'every attempt carries the same webhook-id')
  for (const x of r.received) verify(s.secret, x)
  const log = (await expectSpec(
    'listWebhookDeliveries',
    await f(`/v1/webhooks/${s.id}/deliveries`, bearer(token)),
    200,
  )) as { items: Array<{ id: string; status: string; attempts: number; error: string | null }> }
  assert.deepEqual(
    log.items.map((d) => [d.status, d.attempts, d.error]),
    [['succeeded', 6, null]],
  )

  const again = (await expectSpec(
    'redeliverWebhook',
    await f(`/v1/webhooks/${s.id}/deliveries/${log.items[0]!.id}/redeliver`, post()),
    202,
  )) as { id: string }
  assert.notEqual(again.id, log.items[0]!.id)
  const ping = (await expectSpec('testWebhook', await f(`/v1/webhooks/${s.id}/test`, post()), 202)) as { event: string }
  assert.equal(ping.event, 'webhook.test')
  await drain()
  await r.arrived(8)
  assert.deepEqual(
    r.received
      .slice(6)
      .map((x) => x.type)
      .sort(),
    ['version.uploaded', 'webhook.test'],
  )
  assert.equal(
    r.received.slice(6).find((x) => x.type === 'version.uploaded')!.id,
    r.received[0]!.id,
    "a redelivery keeps the event's webhook-id",
  )
  await f(`/v1/webhooks/${s.id}`, bearer(token, { method: 'DELETE' }))
})

test('a subscription whose deliveries fail for a day is disabled with the reason; enabling it sends what waited', async () => {
  const r = await receiver()
  r.script(Array.from({ length: 20 }, () => 500))
  const s = await subscribe(r.url, ['version.uploaded'])
  await upload('harbor', '6.0.0')
  // Retries a minute apart: the second attempt comes only once the clock has moved on.
  const slow = createWebhookWorker({
    db,
    now: clock,
    send: sendWebhookNode(true),
    logger: quiet,
    retryDelaysMs: Array.from({ length: 14 }, () => MINUTE),
  })
  offset = 0
  assert.equal(await slow.pass(), 1)
  assert.equal(await slow.pass(), 0)
  offset = 25 * 60 * MINUTE
  assert.equal(await slow.pass(), 1)
  await r.arrived(2)
  offset = 0
  const got = (await expectSpec('getWebhook', await f(`/v1/webhooks/${s.id}`, bearer(token)), 200)) as {
    enabled: boolean
    disabledReason: string
  }
  assert.equal(got.enabled, false)
  assert.match(got.disabledReason, /failed for 24 hours.*HTTP 500/)
  await expectProblem(await f(`/v1/webhooks/${s.id}/test`, post()), 409, 'conflict')
  offset = 0
  r.script([])
  await expectSpec('updateWebhook', await f(`/v1/webhooks/${s.id}`, patch({ enabled: true })), 200)
  assert.equal(await slow.pass(), 1, 'enabled again, the waiting delivery is due at once')
  await r.arrived(3)
  const log = (await expectSpec(
    'listWebhookDeliveries',
    await f(`/v1/webhooks/${s.id}/deliveries`, bearer(token)),
    200,
  )) as { items: Array<{ status: string }> }
  assert.deepEqual(
    log.items.map((d) => d.status),
    ['succeeded'],
  )
  await f(`/v1/webhooks/${s.id}`, bearer(token, { method: 'DELETE' }))
})

test('hostile URLs are refused at creation (400 naming /url) and at delivery; redirects are not followed', async () => {
  const m = await memoryApp({}, undefined, { logger: quiet, webhookUrlProblem: (url) => checkWebhookUrl(url, false) })
  const admin = (await signup(m.fetch, 'admin@hostile.test')).token
  for (const url of [
    'http://127.0.0.1:9/hook',
    'http://localhost:9/hook',
    'http://10.1.2.3/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://[fd00::1]/hook',
    'http://100.64.0.1/hook',
    'http://0.0.0.0/hook',
    'ftp://hooks.example.org/',
    'http://user:pw@hooks.example.org/',
  ]) {
    const res = await m.fetch('/v1/webhooks', jsonBody({ url, events: ['version.uploaded'] }, admin))
    const problem = await expectProblem(res, 400, 'validation')
    assert.equal(problem.errors?.[0]?.pointer, '/url', url)
  }
  assert.equal(
    await checkWebhookUrl('http://127.0.0.1:9/hook', true),
    undefined,
    'FERRY_WEBHOOK_ALLOW_PRIVATE=true allows loopback',
  )

  const target = await receiver()
  const redirector = await startReceiver((res) => {
    res.statusCode = 302
    res.setHeader('location', target.url)
    res.end()
  })
  receivers.push(redirector)
  const refused = await sendWebhookNode(false)(target.url, {}, '{}')
  assert.match(refused.error ?? '', /refused: 127\.0\.0\.1 is a loopback/)
  const redirected = await sendWebhookNode(true)(redirector.url, {}, '{}')
  assert.equal(redirected.status, 302)
  assert.match(redirected.error ?? '', /redirects are not followed/)
  await redirector.arrived(1)
  assert.equal(target.received.length, 0, 'the redirect target got nothing')
})

/** The contract's schemas with every object closed: a member the server sends but the contract does not describe fails. */
function closedSchemas(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closedSchemas)
  if (node === null || typeof node !== 'object') return node
  const out = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, closedSchemas(value)]))
  return 'properties' in out && !('additionalProperties' in out) ? { ...out, additionalProperties: false } : out
}

test("every event delivered above matches its schema under the contract's `webhooks`, and every event was delivered", () => {
  assert.deepEqual(Object.keys(webhookEvents).sort(), [...WEBHOOK_EVENT_TYPES, 'webhook.test'].sort())
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  ajv.addSchema(closedSchemas(componentSchemas) as object, COMPONENTS_ID)
  const seen = new Set<string>()
  for (const request of delivered) {
    const schema = webhookEvents[request.type]
    assert.ok(schema, `${request.type} is not an event under the contract's webhooks`)
    const validate = ajv.compile(schema as object)
    assert.ok(
      validate(JSON.parse(request.body)),
      `${request.type}: ${ajv.errorsText(validate.errors)}\n${request.body}`,
    )
    for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature'])
      assert.ok(request.headers[header], `${request.type} carries ${header}`)
    seen.add(request.type)
  }
  assert.deepEqual([...seen].sort(), Object.keys(webhookEvents).sort(), 'the suite delivered every event type')
})
