/**
 * A health policy edited on a version is judged at once against the reports already counted: a
 * stricter policy that the version already fails pauses it in the edit's own write, as a report
 * would (the system's audit entry, a `version.paused` event without an actor, no newer offer),
 * without waiting for the next report; a policy it still meets leaves it ramping.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Logger } from '../../server/core/logger.ts'
import { createWebhookWorker, type WebhookWorker } from '../../server/webhooks/worker.ts'
import { sendWebhookNode } from '../../server/webhooks/send-node.ts'
import { bearer, expectSpec, jsonBody, memoryApp, setUpTeam, uploadExe, type Fetch } from './helpers.ts'
import { startReceiver, verify, type Receiver } from './webhooks/receiver.ts'

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} }
let f: Fetch
let token: string
let worker: WebhookWorker
let receiver: Receiver
let secret: string
let versionId: string

interface Version {
  id: string
  version: string
  rollout: { paused: { reason: string; automatic: boolean } | null }
}

/** An update check from a new device at `address`: the version offered, or `null` (204). */
async function offered(deviceId: string, address: string): Promise<string | null> {
  const check = await f('/v1/apps/heron/update?version=1.0.0&platform=windows&arch=x64&format=ferry', {
    headers: { 'x-ferry-device-id': deviceId, 'x-test-client': address },
  })
  if (check.status === 204) return null
  assert.equal(check.status, 200, await check.clone().text())
  return ((await check.json()) as { version: string }).version
}

async function report(i: number, outcome: 'installed' | 'failed'): Promise<{ counted: boolean; paused: boolean }> {
  const deviceId = `heron-device-${i}`
  const address = `198.51.100.${i + 1}`
  assert.equal(await offered(deviceId, address), '1.1.0')
  const res = await f(
    '/v1/apps/heron/health-reports',
    jsonBody(
      {
        deviceId,
        version: '1.1.0',
        channel: 'stable',
        platform: 'windows',
        arch: 'x64',
        outcome,
        ...(outcome === 'failed' ? { reason: 'Crash on start' } : {}),
      },
      undefined,
      { 'x-test-client': address },
    ),
  )
  return (await expectSpec('reportUpdateOutcome', res, 202)) as { counted: boolean; paused: boolean }
}

async function editPolicy(policy: object): Promise<Version> {
  const res = await f(`/v1/apps/heron/versions/${versionId}`, {
    ...jsonBody({ healthPolicy: policy }, token),
    method: 'PATCH',
  })
  return (await expectSpec('updateVersion', res, 200)) as Version
}

before(async () => {
  // The server's default policy: more than 20 % failed, once 20 devices reported from 5 addresses.
  const m = await memoryApp({}, undefined, { clientIp: (c) => c.req.header('x-test-client'), logger: quiet })
  f = m.fetch
  worker = createWebhookWorker({ db: m.db, now: () => new Date(), send: sendWebhookNode(true), logger: quiet })
  token = await setUpTeam(f, 'admin@policy-edit.test', [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'ferry' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/apps', { slug: 'heron', name: 'Heron' }],
  ])
  receiver = await startReceiver()
  const hook = await f('/v1/webhooks', jsonBody({ url: receiver.url, events: ['version.paused'] }, token))
  secret = ((await expectSpec('createWebhook', hook, 201)) as { secret: string }).secret
  await uploadExe(f, token, 'heron', '1.0.0')
  versionId = await uploadExe(f, token, 'heron', '1.1.0')
})

after(async () => {
  await receiver.close()
})

test('a stricter policy the version already fails pauses it in the edit, with the audit entry and event of a pause by reports', async () => {
  // 3 of 10 devices failed (30 %) from 3 addresses: under the default's minimum of 20 reports.
  const outcomes = [...Array<'failed'>(3).fill('failed'), ...Array<'installed'>(7).fill('installed')]
  for (const [i, outcome] of outcomes.entries())
    assert.deepEqual(await report(i, outcome), { counted: true, paused: false })

  const looser = await editPolicy({ maxFailureRatio: 0.5, minReports: 10, minAddresses: 3 })
  assert.equal(looser.rollout.paused, null, '30 % failed is within a 50 % policy: still ramping')
  assert.equal(await offered('heron-newcomer-1', '203.0.113.1'), '1.1.0')

  const stricter = await editPolicy({ maxFailureRatio: 0.2, minReports: 10, minAddresses: 3 })
  assert.equal(stricter.rollout.paused?.automatic, true, 'the edit itself paused it')
  assert.match(stricter.rollout.paused?.reason ?? '', /3 of 10 devices failed \(30 %, from 3 addresses\)/)
  assert.equal(await offered('heron-newcomer-2', '203.0.113.2'), null, 'a paused version is offered to no new device')

  const audit = (await expectSpec('listAuditEntries', await f('/v1/audit?actor=system', bearer(token)), 200)) as {
    items: Array<{ action: string; actor: { type: string }; target: { id: string } }>
  }
  assert.deepEqual(
    audit.items.map((e) => [e.action, e.actor.type, e.target.id]),
    [['version.pause', 'system', versionId]],
  )

  while ((await worker.pass()) > 0) {
    /* deliver what is due */
  }
  await receiver.arrived(1)
  assert.equal(await worker.pass(), 0)
  assert.deepEqual(
    receiver.received.map((r) => r.type),
    ['version.paused'],
    'one event: the pause by health reports, not a second one for the edit',
  )
  const event = verify(secret, receiver.received[0]!) as {
    type: string
    data: { actor: unknown; version: { version: string; paused: { automatic: boolean } } }
  }
  assert.deepEqual(
    [event.type, event.data.actor, event.data.version.version, event.data.version.paused.automatic],
    ['version.paused', null, '1.1.0', true],
  )
})
