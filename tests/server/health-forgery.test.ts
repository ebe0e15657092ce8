/**
 * Health reports an attacker cannot forge, as an outside probe tried them against a real server
 * behind a trusted proxy (each device's address in X-Forwarded-For): made-up device ids from one
 * machine pause nothing, a resumed version is not paused again by the same ids, forged
 * `installed` reports cannot hide real failures, and one address cannot store rows without bound.
 * Each scenario has its own channel, where 1.1.0 is offered to devices on 1.0.0.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { bearer, expectSpec, jsonBody, setUpTeam, uploadForm, withTeam } from './helpers.ts'

const CHANNELS = ['made-up', 'checked', 'resumed', 'hidden', 'flood'] as const
type Channel = (typeof CHANNELS)[number]
const ids = new Map<Channel, string>()

interface Health {
  reports: number
  failed: number
  failedAddresses: number
}
interface VersionBody {
  id: string
  rollout: { paused: { automatic: boolean; reason: string } | null; health: Health }
}

/** An update check from a device on 1.0.0; answers the version offered, or null. */
async function check(channel: Channel, deviceId: string, address: string): Promise<string | null> {
  const res = await f(`/v1/apps/gull/update?version=1.0.0&channel=${channel}&platform=windows&arch=x64&format=ferry`, {
    headers: { 'x-ferry-device-id': deviceId, 'x-forwarded-for': address },
  })
  if (res.status === 204) return null
  assert.equal(res.status, 200)
  return ((await res.json()) as { version: string }).version
}

async function report(channel: Channel, deviceId: string, address: string, outcome: 'installed' | 'failed') {
  const res = await f(
    '/v1/apps/gull/health-reports',
    jsonBody(
      {
        deviceId,
        version: '1.1.0',
        channel,
        platform: 'windows',
        arch: 'x64',
        outcome,
        ...(outcome === 'failed' ? { reason: 'Crash on start' } : {}),
      },
      undefined,
      { 'x-forwarded-for': address },
    ),
  )
  return {
    status: res.status,
    body:
      res.status === 202
        ? ((await expectSpec('reportUpdateOutcome', res, 202)) as { counted: boolean; paused: boolean })
        : undefined,
  }
}

async function version(channel: Channel): Promise<VersionBody> {
  const list = (await expectSpec(
    'searchAppVersions',
    await f(`/v1/apps/gull/versions?limit=100&channel=${channel}`, bearer(team.token)),
    200,
  )) as { items: VersionBody[] }
  const found = list.items.find((v) => v.id === ids.get(channel))
  assert.ok(found, `1.1.0 on ${channel} is listed`)
  return found
}

async function upload(v: string, channel: Channel) {
  const res = await f(
    '/v1/apps/gull/versions',
    bearer(team.token, {
      method: 'POST',
      body: uploadForm({ version: v, channel, platform: 'windows', arch: 'x64', published: 'true' }, [
        [`Gull-${v}.exe`, `exe ${v}`],
      ]),
    }),
  )
  assert.equal(res.status, 201, await res.clone().text())
  return ((await res.json()) as { id: string }).id
}

const team = withTeam(
  (f) =>
    setUpTeam(f, 'admin@gull.test', [
      ['/v1/platforms', { name: 'windows', updater: 'ferry' }],
      ['/v1/archs', { name: 'x64' }],
      ['/v1/apps', { slug: 'gull', name: 'Gull' }],
      ...CHANNELS.map((name) => ['/v1/channels', { name }] as const),
    ]),
  10 * 1024 * 1024,
  { trustedProxies: ['127.0.0.1'] },
  async () => {
    for (const channel of CHANNELS) {
      await upload('1.0.0', channel)
      ids.set(channel, await upload('1.1.0', channel))
    }
  },
)
const { f } = team

test('twenty made-up device ids from one machine pause nothing and store nothing', async () => {
  for (let i = 0; i < 20; i++) {
    const { status, body } = await report('made-up', `made-up-${i}-0000`, '198.51.100.10', 'failed')
    assert.equal(status, 202)
    assert.deepEqual(body, { counted: false, paused: false }, 'a device Ferry never offered 1.1.0 does not count')
  }
  const v = await version('made-up')
  assert.equal(v.rollout.paused, null)
  assert.deepEqual(v.rollout.health, { ...v.rollout.health, reports: 0, failed: 0 })
})

test('made-up ids that ask for the update first still count as one machine: no pause', async () => {
  for (let i = 0; i < 20; i++) {
    const id = `forged-${i}-0000`
    assert.equal(await check('checked', id, '198.51.100.20'), '1.1.0')
    assert.deepEqual((await report('checked', id, '198.51.100.20', 'failed')).body, { counted: true, paused: false })
  }
  const v = await version('checked')
  assert.equal(v.rollout.paused, null, 'one address is not a fleet')
  assert.deepEqual(v.rollout.health, { ...v.rollout.health, reports: 5, failed: 5, failedAddresses: 1 })
})

test('after a person resumes a version real failures paused, the same forged ids do not pause it again', async () => {
  // Twenty real devices on twenty addresses, five of them failing: 25 % > 20 %, from 5 addresses.
  const paused: boolean[] = []
  for (let i = 0; i < 20; i++) {
    const address = `203.0.113.${i + 1}`
    await check('resumed', `real-${i}-0000`, address)
    paused.push(
      (await report('resumed', `real-${i}-0000`, address, i % 4 === 3 ? 'failed' : 'installed')).body?.paused === true,
    )
  }
  assert.equal(paused.indexOf(true), 19, 'the twentieth real report paused it')
  assert.match(
    (await version('resumed')).rollout.paused?.reason ?? '',
    /5 of 20 devices failed \(25 %, from 5 addresses\)/,
  )

  const resumed = (await expectSpec(
    'resumeVersion',
    await f(`/v1/apps/gull/versions/${ids.get('resumed')}/resume`, jsonBody({}, team.token)),
    200,
  )) as VersionBody
  assert.equal(resumed.rollout.paused, null)
  // The forger's twenty ids were offered 1.1.0 before the pause and report after the resume.
  for (let i = 0; i < 20; i++) await check('resumed', `forged-again-${i}-0000`, '198.51.100.30')
  for (let i = 0; i < 20; i++)
    assert.equal((await report('resumed', `forged-again-${i}-0000`, '198.51.100.30', 'failed')).body?.paused, false)
  const v = await version('resumed')
  assert.equal(v.rollout.paused, null, 'the forged ids paused it again')
  assert.deepEqual(v.rollout.health, { ...v.rollout.health, reports: 5, failed: 5, failedAddresses: 1 })
})

test('two hundred forged installed reports do not hide thirty real failures', async () => {
  const statuses = new Map<number, number>()
  for (let i = 0; i < 200; i++) {
    const id = `cover-${i}-0000`
    await check('hidden', id, '198.51.100.40')
    const { status } = await report('hidden', id, '198.51.100.40', 'installed')
    statuses.set(status, (statuses.get(status) ?? 0) + 1)
  }
  assert.deepEqual(
    Object.fromEntries(statuses),
    { 202: 60, 429: 140 },
    'one address may send 60 reports a minute per app',
  )
  const paused: boolean[] = []
  const offered: Array<string | null> = []
  for (let i = 0; i < 30; i++) {
    const address = `192.0.2.${i + 1}`
    offered.push(await check('hidden', `victim-${i}-0000`, address))
    paused.push((await report('hidden', `victim-${i}-0000`, address, 'failed')).body?.paused === true)
  }
  // The forger's address counts for 5 installed reports: 15 failures make 15 of 20 (75 %).
  assert.equal(paused.indexOf(true), 14)
  assert.deepEqual(
    offered,
    [...Array(15).fill('1.1.0'), ...Array(15).fill(null)],
    'once paused, no new device is offered 1.1.0',
  )
  const v = await version('hidden')
  assert.equal(v.rollout.paused?.automatic, true)
  assert.deepEqual(v.rollout.health, { ...v.rollout.health, reports: 20, failed: 15, failedAddresses: 15 })
})

test('one address records at most 100 offers of a version: more made-up ids store nothing', async () => {
  const address = '198.51.100.50'
  for (let i = 0; i < 150; i++) assert.equal(await check('flood', `flood-${i}-0000`, address), '1.1.0')
  assert.deepEqual((await report('flood', 'flood-0-0000', address, 'installed')).body, { counted: true, paused: false })
  for (let i = 100; i < 150; i++) {
    assert.deepEqual(
      (await report('flood', `flood-${i}-0000`, address, 'installed')).body,
      { counted: false, paused: false },
      `flood-${i}`,
    )
  }
})
