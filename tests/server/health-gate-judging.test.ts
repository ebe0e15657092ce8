/**
 * The health gate is judged on every counted report, whatever its outcome: under the default
 * policy (more than 20 % failed, once 20 count, from at least 5 addresses), five failures from five
 * addresses then fifteen installs pause the version at the twentieth report, an install, not at
 * the next failure. Each device is offered the version first (only offered devices count).
 */
import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { bearer, expectSpec, jsonBody, memoryApp, setUpTeam, uploadExe, type Fetch } from './helpers.ts'

let f: Fetch
let token: string

before(async () => {
  const m = await memoryApp({}, undefined, { clientIp: (c) => c.req.header('x-test-client') })
  f = m.fetch
  token = await setUpTeam(f, 'admin@gate-judging.test', [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'ferry' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/apps', { slug: 'heron', name: 'Heron' }],
  ])
  await uploadExe(f, token, 'heron', '1.0.0')
  await uploadExe(f, token, 'heron', '1.1.0')
})

/** Offers 1.1.0 to the device from `address`, then sends its report; returns the receipt. */
async function report(i: number, outcome: 'installed' | 'failed'): Promise<{ counted: boolean; paused: boolean }> {
  const deviceId = `heron-device-${String(i).padStart(3, '0')}`
  const address = `198.51.100.${i + 1}`
  const check = await f('/v1/apps/heron/update?version=1.0.0&platform=windows&arch=x64&format=ferry', {
    headers: { 'x-ferry-device-id': deviceId, 'x-test-client': address },
  })
  assert.equal(check.status, 200, await check.clone().text())
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

test('an install that brings the count to the minimum pauses a version already past the failure share', async () => {
  const outcomes = [...Array<'failed'>(5).fill('failed'), ...Array<'installed'>(15).fill('installed')]
  const receipts: Array<{ counted: boolean; paused: boolean }> = []
  for (const [i, outcome] of outcomes.entries()) receipts.push(await report(i, outcome))
  assert.ok(
    receipts.every((r) => r.counted),
    'every report counts',
  )
  assert.deepEqual(
    receipts.map((r) => r.paused),
    [...Array<boolean>(19).fill(false), true],
    'the 20th report (an install: 5 of 20 failed, 25 % > 20 %) pauses',
  )
  const versions = (await expectSpec('searchAppVersions', await f('/v1/apps/heron/versions', bearer(token)), 200)) as {
    items: Array<{ version: string; rollout: { paused: { reason: string; automatic: boolean } | null } }>
  }
  const paused = versions.items.find((v) => v.version === '1.1.0')?.rollout.paused
  assert.equal(paused?.automatic, true)
  assert.match(paused?.reason ?? '', /5 of 20 devices failed \(25 %, from 5 addresses\)/)
  // Paused: a device that was never offered it is offered nothing newer.
  const check = await f('/v1/apps/heron/update?version=1.0.0&platform=windows&arch=x64&format=ferry', {
    headers: { 'x-ferry-device-id': 'heron-newcomer', 'x-test-client': '203.0.113.200' },
  })
  assert.equal(check.status, 204)
})

test('installs alone never pause; a version under the share stays ramping however many report', async () => {
  // 1.1.0 is paused by the test above; a fresh version on the same app.
  await uploadExe(f, token, 'heron', '1.2.0')
  const receipts: boolean[] = []
  for (let i = 0; i < 25; i++) {
    const deviceId = `heron-good-${i}`
    const address = `192.0.2.${i + 1}`
    const check = await f('/v1/apps/heron/update?version=1.0.0&platform=windows&arch=x64&format=ferry', {
      headers: { 'x-ferry-device-id': deviceId, 'x-test-client': address },
    })
    assert.equal(((await check.json()) as { version: string }).version, '1.2.0')
    const res = await f(
      '/v1/apps/heron/health-reports',
      jsonBody(
        { deviceId, version: '1.2.0', channel: 'stable', platform: 'windows', arch: 'x64', outcome: 'installed' },
        undefined,
        { 'x-test-client': address },
      ),
    )
    receipts.push(((await expectSpec('reportUpdateOutcome', res, 202)) as { paused: boolean }).paused)
  }
  assert.deepEqual(receipts, Array<boolean>(25).fill(false))
})
