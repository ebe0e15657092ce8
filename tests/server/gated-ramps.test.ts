/**
 * Health-gated ramps, driven with simulated time: a gated ramp holds before its next step until
 * enough installs are reported (its clock stops, cached answers included), forged reports from
 * one address cannot release it, real ones do at once, a hold past its deadline pauses the
 * rollout with a reason, and failing reports pause it as on any ramp. Each scenario has its own
 * architecture, where 2.0.0 is offered to devices on 1.0.0.
 */
import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import type { Logger } from '../../server/core/logger.ts'
import type { RampGateEvent } from '../../server/updates/ramp-gate.ts'
import { rolloutBucket } from '../../server/updates/update-logic.ts'
import { bearer, expectSpec, jsonBody, memoryApp, signup, uploadForm, type Fetch } from './helpers.ts'

const MINUTE = 60_000
const START = Date.parse('2026-05-04T08:00:00Z')
let now = START
const at = (minutes: number) => new Date(START + minutes * MINUTE).toISOString().replace('.000Z', 'Z')
const logged: string[] = []
const logger: Logger = {
  debug() {},
  info: (_obj, msg) => {
    logged.push(msg ?? '')
  },
  warn() {},
  error() {},
}
const events: RampGateEvent[] = []

let f: Fetch
let token: string
const ids = new Map<string, string>()
const GATE = { minInstalls: 6, maxFailureRatio: 0.2, deadlineMinutes: 120 }
const STEPS = [
  { percentage: 10, afterMinutes: 0 },
  { percentage: 50, afterMinutes: 60 },
  { percentage: 100, afterMinutes: 60 },
]

interface Holding {
  step: number
  since: string
  deadline: string
  expired: boolean
  reason: string
}
interface VersionBody {
  rolloutPercentage: number
  rollout: {
    ramp: {
      currentStep: number | null
      nextStepAt: string | null
      gate?: { met: boolean; installs: number; holding: Holding | null }
    } | null
    paused: { reason: string; automatic: boolean } | null
  }
}

async function version(arch: string): Promise<VersionBody> {
  const list = (await expectSpec(
    'searchAppVersions',
    await f(`/v1/apps/kite/versions?limit=100&arch=${arch}`, bearer(token)),
    200,
  )) as { items: Array<VersionBody & { id: string }> }
  const found = list.items.find((v) => v.id === ids.get(arch))
  assert.ok(found)
  return found
}

/** The version offered to a device on 1.0.0 checking from `address`, or null. */
async function offered(arch: string, deviceId: string, address = '192.0.2.1'): Promise<string | null> {
  const res = await f(`/v1/apps/kite/update?version=1.0.0&platform=windows&arch=${arch}&format=ferry`, {
    headers: { 'x-ferry-device-id': deviceId, 'x-test-client': address },
  })
  if (res.status === 204) return null
  assert.equal(res.status, 200, await res.clone().text())
  return ((await res.json()) as { version: string }).version
}

async function report(arch: string, deviceId: string, address: string, outcome: 'installed' | 'failed') {
  const res = await f(
    '/v1/apps/kite/health-reports',
    jsonBody(
      {
        deviceId,
        version: '2.0.0',
        channel: 'stable',
        platform: 'windows',
        arch,
        outcome,
        ...(outcome === 'failed' ? { reason: 'Crash on start' } : {}),
      },
      undefined,
      { 'x-test-client': address },
    ),
  )
  return (await expectSpec('reportUpdateOutcome', res, 202)) as { counted: boolean; paused: boolean }
}

/** Devices whose bucket for 2.0.0 lies in [from, to). */
async function devicesIn(from: number, to: number, count: number, prefix: string): Promise<string[]> {
  const out: string[] = []
  for (let i = 0; out.length < count; i++) {
    const d = `${prefix}-device-${i}`
    const b = await rolloutBucket(d, '2.0.0')
    if (b >= from && b < to) out.push(d)
  }
  return out
}

/** Offers 2.0.0 to each device from its address, then has it report `outcome`. */
async function installs(
  arch: string,
  devices: string[],
  address: (i: number) => string,
  outcome: 'installed' | 'failed' = 'installed',
) {
  const receipts = []
  for (const [i, d] of devices.entries()) {
    assert.equal(await offered(arch, d, address(i)), '2.0.0', `${d} is offered 2.0.0`)
    receipts.push(await report(arch, d, address(i), outcome))
  }
  return receipts
}

const setRamp = async (arch: string) => {
  now = START
  const res = await f(`/v1/apps/kite/versions/${ids.get(arch)}`, {
    ...jsonBody({ ramp: { steps: STEPS, gate: GATE } }, token),
    method: 'PATCH',
  })
  return (await expectSpec('updateVersion', res, 200)) as VersionBody
}

before(async () => {
  const m = await memoryApp(
    { healthPolicy: { maxFailureRatio: 0.2, minReports: 10, minAddresses: 3, maxReportsPerAddress: 2 } },
    () => new Date(now),
    {
      logger,
      clientIp: (c) => c.req.header('x-test-client'),
      events: {
        emit: (e) => {
          events.push(e)
        },
      },
    },
  )
  f = m.fetch
  token = (await signup(f, 'admin@kite.test')).token
  for (const [path, body] of [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'ferry' }],
    ['/v1/apps', { slug: 'kite', name: 'Kite' }],
    ...['held', 'deadline', 'failing'].map((name) => ['/v1/archs', { name }] as const),
  ] as const) {
    assert.equal((await f(path, jsonBody(body, token))).status, 201)
  }
  for (const arch of ['held', 'deadline', 'failing']) {
    for (const v of ['1.0.0', '2.0.0']) {
      const res = await f(
        '/v1/apps/kite/versions',
        bearer(token, {
          method: 'POST',
          body: uploadForm({ version: v, channel: 'stable', platform: 'windows', arch, published: 'true' }, [
            [`Kite-${v}.exe`, `exe ${v}`],
          ]),
        }),
      )
      assert.equal(res.status, 201, await res.clone().text())
      if (v === '2.0.0') ids.set(arch, ((await res.json()) as { id: string }).id)
    }
  }
})

test('a gated ramp holds without installs, forged reports from one address do not release it, real installs do at once', async () => {
  const set = await setRamp('held')
  assert.equal(set.rolloutPercentage, 10)
  assert.deepEqual(set.rollout.ramp?.gate && [set.rollout.ramp.gate.met, set.rollout.ramp.gate.installs], [false, 0])
  // A device between 10 % and 50 %: not offered at step 0, and its answer is cached while the ramp holds.
  const [edge] = (await devicesIn(10, 50, 1, 'edge')) as [string]
  assert.equal(await offered('held', edge), null)

  now = START + 90 * MINUTE
  let v = await version('held')
  assert.equal(v.rolloutPercentage, 10, 'the second step waits for evidence')
  assert.equal(v.rollout.ramp?.currentStep, 0)
  assert.equal(v.rollout.ramp?.nextStepAt, null)
  assert.deepEqual(v.rollout.ramp?.gate?.holding, {
    step: 1,
    since: at(60),
    deadline: at(180),
    expired: false,
    reason: '0 of 6 installs reported',
  })
  assert.equal(await offered('held', edge), null)

  const explain = await f(
    `/v1/apps/kite/update/explain?version=1.0.0&channel=stable&platform=windows&arch=held&deviceId=${edge}`,
    bearer(token),
  )
  const explained = (await expectSpec('explainUpdate', explain, 200)) as {
    versions: Array<{ id: string; reason: string }>
  }
  assert.match(
    explained.versions.find((x) => x.id === ids.get('held'))?.reason ?? '',
    /holds before step 2: 0 of 6 installs reported/,
  )

  // Ten devices offered 2.0.0 behind one address: it counts for 2 installs, the ramp still holds.
  const forged = await devicesIn(0, 10, 10, 'forged')
  await installs('held', forged, () => '198.51.100.7')
  now = START + 100 * MINUTE
  v = await version('held')
  assert.equal(v.rolloutPercentage, 10)
  assert.equal(v.rollout.ramp?.gate?.holding?.reason, '2 of 6 installs reported')
  assert.equal(await offered('held', edge), null)
  assert.equal(events.length, 0, 'no gate changed')

  // Four more devices on their own addresses make 6 installs: the hold ends now, the next step begins.
  const real = await devicesIn(0, 10, 4, 'real')
  await installs('held', real, (i) => `203.0.113.${i + 1}`)
  v = await version('held')
  assert.equal(v.rolloutPercentage, 50)
  assert.equal(v.rollout.ramp?.currentStep, 1)
  assert.equal(v.rollout.ramp?.nextStepAt, at(160), 'the step lasts its full hour from the release')
  assert.deepEqual(
    v.rollout.ramp?.gate && [v.rollout.ramp.gate.met, v.rollout.ramp.gate.installs, v.rollout.ramp.gate.holding],
    [false, 0, null],
    "the gate now counts the new step's installs",
  )
  assert.equal(await offered('held', edge), '2.0.0', 'the cached "no update" ended with the hold')
  assert.deepEqual(
    events.map((e) => [e.type, e.released, e.progress]),
    [['ramp.gate-opened', true, '6 of 6 installs reported']],
  )
  assert.ok(logged.includes('ramp gate opened'))

  // Each step needs its own evidence: step 1's installs do not open the way to step 3.
  now = START + 160 * MINUTE
  v = await version('held')
  assert.equal(v.rolloutPercentage, 50, 'the third step waits for installs reported during the second')
  assert.deepEqual(v.rollout.ramp?.gate && [v.rollout.ramp.gate.met, v.rollout.ramp.gate.installs], [false, 0])
  assert.deepEqual(v.rollout.ramp?.gate?.holding, {
    step: 2,
    since: at(160),
    deadline: at(280),
    expired: false,
    reason: '0 of 6 installs reported',
  })
  const why = await f(
    `/v1/apps/kite/update/explain?version=1.0.0&channel=stable&platform=windows&arch=held&deviceId=${edge}`,
    bearer(token),
  )
  const whyBody = (await expectSpec('explainUpdate', why, 200)) as { versions: Array<{ id: string; reason: string }> }
  assert.match(
    whyBody.versions.find((x) => x.id === ids.get('held'))?.reason ?? '',
    /holds before step 3: 0 of 6 installs reported/,
  )

  // A device of the first step reporting again counts for this step; five newcomers make six.
  now = START + 170 * MINUTE
  await installs('held', [real[0] as string], () => '203.0.113.1')
  assert.equal((await version('held')).rollout.ramp?.gate?.holding?.reason, '1 of 6 installs reported')
  await installs('held', await devicesIn(10, 50, 5, 'second'), (i) => `203.0.113.${i + 11}`)
  v = await version('held')
  assert.equal(v.rolloutPercentage, 100)
  assert.deepEqual([v.rollout.ramp?.currentStep, v.rollout.ramp?.gate?.holding], [2, null])
})

test('a hold past its deadline pauses the rollout with a reason; resuming starts the wait over', async () => {
  await setRamp('deadline')
  const [inside] = (await devicesIn(0, 10, 1, 'inside')) as [string]
  now = START + 179 * MINUTE
  assert.equal(await offered('deadline', inside), '2.0.0')
  assert.equal((await version('deadline')).rollout.paused, null)

  now = START + 180 * MINUTE
  const v = await version('deadline')
  assert.equal(v.rolloutPercentage, 0)
  assert.equal(v.rollout.paused?.automatic, true)
  assert.match(
    v.rollout.paused?.reason ?? '',
    /held 120 minutes before step 2 without evidence: 0 of 6 installs reported/,
  )
  assert.equal(v.rollout.ramp?.gate?.holding?.expired, true)
  assert.equal(await offered('deadline', 'somebody-new'), null)
  assert.equal(await offered('deadline', inside), null, 'the answer cached at +179 min ended at the deadline')

  now = START + 200 * MINUTE
  const resumed = (await expectSpec(
    'resumeVersion',
    await f(`/v1/apps/kite/versions/${ids.get('deadline')}/resume`, jsonBody({}, token)),
    200,
  )) as VersionBody
  assert.equal(resumed.rollout.paused, null)
  assert.equal(resumed.rolloutPercentage, 10)
  assert.deepEqual(
    resumed.rollout.ramp?.gate?.holding && [
      resumed.rollout.ramp.gate.holding.since,
      resumed.rollout.ramp.gate.holding.deadline,
    ],
    [at(200), at(320)],
  )
})

test('failing reports on a gated ramp pause it as on any ramp, and its gate closes', async () => {
  await setRamp('failing')
  now = START + MINUTE
  const devices = await devicesIn(0, 10, 12, 'failing')
  await installs('failing', devices.slice(0, 6), (i) => `203.0.113.${i + 1}`)
  now = START + 60 * MINUTE
  assert.equal((await version('failing')).rolloutPercentage, 50, 'evidence there before the step: it begins on time')
  const receipts = await installs('failing', devices.slice(6, 10), (i) => `198.51.100.${i + 1}`, 'failed')
  assert.deepEqual(
    receipts.map((r) => r.paused),
    [false, false, false, true],
  )
  const v = await version('failing')
  assert.equal(v.rolloutPercentage, 0)
  assert.equal(v.rollout.paused?.automatic, true)
  assert.match(v.rollout.paused?.reason ?? '', /4 of 10 devices failed/)
  assert.deepEqual(
    v.rollout.ramp?.gate && [v.rollout.ramp.gate.met, v.rollout.ramp.gate.installs],
    [false, 0],
    'the step in force has no installs of its own',
  )
})
