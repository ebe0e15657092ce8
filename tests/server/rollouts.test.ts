/**
 * Rollouts that watch themselves, driven with simulated time: a ramp's percentage follows its
 * steps (in the update answers too, through the answer cache), failed health reports pause it,
 * resuming continues it where it stood, a pulled version rolls its devices back (read by the
 * updaters' own code), and the explain endpoint agrees with the update check on many cases.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { serve, type ServerType } from '@hono/node-server'
import { parse } from 'yaml'
import type { Logger } from '../../server/core/logger.ts'
import { rolloutBucket } from '../../server/updates/update-logic.ts'
import { nsisUpdater } from './clients/electron-updater.ts'
import { parseReleases, squirrelCheckForUpdate } from './clients/squirrel-windows.ts'
import { checkForUpdate as tauriCheck } from './clients/tauri.ts'
import { bearer, expectSpec, jsonBody, memoryApp, signup, uploadForm, type Fetch } from './helpers.ts'

const MINUTE = 60_000
const START = Date.parse('2026-03-02T09:00:00Z')
let now = START
const logged: Array<{ obj: object; msg: string | undefined }> = []
const logger: Logger = {
  debug() {},
  info() {},
  warn: (obj, msg) => {
    logged.push({ obj, msg })
  },
  error: (obj, msg) => {
    logged.push({ obj, msg })
  },
}

let f: Fetch
let token: string
let http: ServerType
let base: string
const ids: Record<string, string> = {}
const post = (body: unknown = {}) => jsonBody(body, token)
const patch = (body: unknown) => ({ ...jsonBody(body, token), method: 'PATCH' })

async function upload(version: string, fields: Record<string, string> = {}) {
  const files: Array<[string, string]> = [
    [`Harbor-${version}.exe`, `exe ${version}`],
    [`Harbor-${version}.exe.sig`, `sig ${version}`],
    [`Harbor-${version}.zip`, `zip ${version}`],
    [`harbor-${version}-full.nupkg`, `nupkg ${version}`],
  ]
  const res = await f(
    '/v1/apps/harbor/versions',
    bearer(token, {
      method: 'POST',
      body: uploadForm(
        { version, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true', ...fields },
        files,
      ),
    }),
  )
  assert.equal(res.status, 201, await res.clone().text())
  ids[version] = ((await res.json()) as { id: string }).id
}

interface VersionBody {
  rolloutPercentage: number
  rollout: {
    ramp: { currentStep: number | null; nextStepAt: string | null } | null
    paused: { reason: string; automatic: boolean } | null
    pulled: unknown
    health: { reports: number; failed: number }
  }
}
const version = async (v: string) =>
  (
    (await expectSpec('searchAppVersions', await f(`/v1/apps/harbor/versions?limit=100`, bearer(token)), 200)) as {
      items: Array<VersionBody & { version: string }>
    }
  ).items.find((i) => i.version === v) as VersionBody

/** The version the Ferry JSON answer offers a device on `current`, or null. */
async function offered(deviceId: string, current = '1.1.0', client?: string): Promise<string | null> {
  const res = await f(`/v1/apps/harbor/update?version=${current}&platform=windows&arch=x64&format=ferry`, {
    headers: { 'x-ferry-device-id': deviceId, ...(client ? { 'x-test-client': client } : {}) },
  })
  if (res.status === 204) return null
  assert.equal(res.status, 200)
  return ((await res.json()) as { version: string }).version
}

const devices = Array.from({ length: 200 }, (_, i) => `device-${String(i).padStart(4, '0')}`)
const bucketOf = async (d: string, v: string) => rolloutBucket(d, v)

before(async () => {
  const m = await memoryApp(
    { healthPolicy: { maxFailureRatio: 0.2, minReports: 10, minAddresses: 3 } },
    () => new Date(now),
    { logger, clientIp: (c) => c.req.header('x-test-client') },
  )
  f = m.fetch
  http = serve({ fetch: m.app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise((resolve) => http.once('listening', resolve))
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  token = (await signup(f, 'admin@ramps.test')).token
  for (const [path, body] of [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'ferry' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/apps', { slug: 'harbor', name: 'Harbor' }],
  ] as const) {
    assert.equal((await f(path, post(body))).status, 201)
  }
  await upload('1.0.0')
  await upload('1.1.0')
  await upload('1.2.0')
})
after(() => new Promise<void>((resolve) => http.close(() => resolve())))

test('a ramp follows its schedule, in the version and in the update answers (cached answers end at a step)', async () => {
  const set = await f(
    `/v1/apps/harbor/versions/${ids['1.2.0']}`,
    patch({
      ramp: {
        steps: [
          { percentage: 1, afterMinutes: 0 },
          { percentage: 10, afterMinutes: 60 },
          { percentage: 50, afterMinutes: 60 },
          { percentage: 100, afterMinutes: 60 },
        ],
      },
    }),
  )
  const body = (await expectSpec('updateVersion', set, 200)) as VersionBody
  assert.equal(body.rolloutPercentage, 1)
  assert.deepEqual(body.rollout.ramp && [body.rollout.ramp.currentStep, body.rollout.ramp.nextStepAt], [
    0,
    '2026-03-02T10:00:00Z',
  ])

  // A device whose bucket lies in [1, 10): out at 1 %, in at 10 %. Its answer is cached before the step.
  const buckets = await Promise.all(devices.map((d) => bucketOf(d, '1.2.0')))
  const edge = devices[buckets.findIndex((b) => b >= 1 && b < 10)] as string
  assert.equal(await offered(edge), null)
  assert.equal(await offered(edge), null)
  for (const [minutes, percentage, step] of [
    [59, 1, 0],
    [60, 10, 1],
    [120, 50, 2],
    [179, 50, 2],
    [180, 100, 3],
    [600, 100, 3],
  ] as const) {
    now = START + minutes * MINUTE
    const v = await version('1.2.0')
    assert.equal(v.rolloutPercentage, percentage, `at +${minutes} min`)
    assert.equal(v.rollout.ramp?.currentStep, step)
    const got = await Promise.all(devices.map((d) => offered(d)))
    const want = buckets.map((b) => (b < percentage ? '1.2.0' : null))
    assert.deepEqual(got, want, `answers at +${minutes} min follow ${percentage} %`)
  }
  assert.equal(await offered(edge), '1.2.0')
})

test('failed health reports past the policy pause the ramp; it is logged, shown, and nobody new is offered the version', async () => {
  now = START
  await f(
    `/v1/apps/harbor/versions/${ids['1.2.0']}`,
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
  now = START + 70 * MINUTE
  assert.equal((await version('1.2.0')).rolloutPercentage, 50)
  const buckets = await Promise.all(devices.map((d) => bucketOf(d, '1.2.0')))
  const inside = devices.filter((_, i) => (buckets[i] as number) < 50)
  assert.equal(await offered(inside[0] as string), '1.2.0')

  const report = (deviceId: string, outcome: 'installed' | 'failed') =>
    f(
      '/v1/apps/harbor/health-reports',
      jsonBody({
        deviceId,
        version: '1.2.0',
        channel: 'stable',
        platform: 'windows',
        arch: 'x64',
        outcome,
        fromVersion: '1.1.0',
        ...(outcome === 'failed' ? { reason: 'Crash on start' } : {}),
      }),
    )
  // New devices (the first test offered 1.2.0 to every one of `devices` from no address).
  const fresh = Array.from({ length: 60 }, (_, i) => `reporter-${String(i).padStart(4, '0')}`)
  const freshBuckets = await Promise.all(fresh.map((d) => bucketOf(d, '1.2.0')))
  const reporters = fresh.filter((_, i) => (freshBuckets[i] as number) < 50)
  const receipts: boolean[] = []
  // Ten devices the update check offered 1.2.0, each on its own address. 9 reports (2 failed)
  // stay below the minimum count; the 10th (3 of 10 failed, 30 % > 20 %, 3 addresses) pauses.
  for (const [i, outcome] of (
    [
      'installed',
      'failed',
      'installed',
      'installed',
      'failed',
      'installed',
      'installed',
      'installed',
      'installed',
      'failed',
    ] as const
  ).entries()) {
    assert.equal(await offered(reporters[i] as string, '1.1.0', `203.0.113.${i + 1}`), '1.2.0')
    const res = await report(reporters[i] as string, outcome)
    receipts.push(((await expectSpec('reportUpdateOutcome', res, 202)) as { paused: boolean }).paused)
  }
  assert.deepEqual(receipts, [false, false, false, false, false, false, false, false, false, true])
  const line = logged.find((l) => l.msg === 'rollout paused by health reports')
  assert.ok(line, 'the automatic pause is logged')
  assert.deepEqual([Reflect.get(line.obj, 'reports'), Reflect.get(line.obj, 'failed')], [10, 3])
  // The audit log files the pause under the system, with the reason; the reports themselves are not entries.
  const audit = (await expectSpec(
    'listAuditEntries',
    await f('/v1/audit?app=harbor&action=version.pause', bearer(token)),
    200,
  )) as {
    items: Array<{
      actor: { type: string }
      operationId: string | null
      target: { id: string | null }
      changes: Record<string, { from?: unknown; to?: unknown }>
    }>
  }
  assert.deepEqual(
    audit.items.map((e) => [e.actor.type, e.operationId, e.target.id, e.changes.paused]),
    [['system', null, ids['1.2.0'], { from: false, to: true }]],
  )
  assert.match(String(audit.items[0]?.changes.pauseReason?.to), /3 of 10 devices failed/)

  const v = await version('1.2.0')
  assert.equal(v.rolloutPercentage, 0)
  assert.equal(v.rollout.paused?.automatic, true)
  assert.match(v.rollout.paused?.reason ?? '', /3 of 10 devices failed \(30 %, from 3 addresses\)/)
  assert.deepEqual(v.rollout.health, { ...v.rollout.health, reports: 10, failed: 3 })
  assert.equal(v.rollout.ramp?.nextStepAt, null)
  for (const d of inside) assert.equal(await offered(d), null, `${d} is not offered a paused version`)

  // Time passes while paused: the ramp stands still.
  now = START + 190 * MINUTE
  assert.equal((await version('1.2.0')).rollout.ramp?.currentStep, 1)
})

test('resuming continues the ramp where it stood; reports before the resume no longer count', async () => {
  // Paused at +70 min, 10 minutes into step 1 (50 %, an hour long); resumed at +190 (12:10): step 2 begins 50 minutes later.
  const res = await f(`/v1/apps/harbor/versions/${ids['1.2.0']}/resume`, post())
  const v = (await expectSpec('resumeVersion', res, 200)) as VersionBody
  assert.equal(v.rolloutPercentage, 50)
  assert.equal(v.rollout.paused, null)
  assert.equal(v.rollout.ramp?.nextStepAt, '2026-03-02T13:00:00Z')
  assert.deepEqual([v.rollout.health.reports, v.rollout.health.failed], [0, 0])
  const buckets = await Promise.all(devices.map((d) => bucketOf(d, '1.2.0')))
  const reporter = devices.filter((_, i) => (buckets[i] as number) < 50)[30] as string
  assert.equal(await offered(reporter), '1.2.0')
  const one = await f(
    '/v1/apps/harbor/health-reports',
    jsonBody({
      deviceId: reporter,
      version: '1.2.0',
      channel: 'stable',
      platform: 'windows',
      arch: 'x64',
      outcome: 'failed',
      reason: 'Crash on start',
    }),
  )
  assert.deepEqual(await one.json(), { counted: true, paused: false })
  now = START + 240 * MINUTE
  assert.equal((await version('1.2.0')).rolloutPercentage, 100)
  assert.equal(await offered(devices[0] as string), '1.2.0')
})

test('a pulled version is offered to nobody, and its devices roll back where their updater allows', async () => {
  const res = await f(`/v1/apps/harbor/versions/${ids['1.2.0']}/pull`, post({ reason: 'Corrupts notes' }))
  const v = (await expectSpec('pullVersion', res, 200)) as VersionBody
  assert.equal(v.rolloutPercentage, 0)
  assert.equal(await offered('device-0001', '1.0.0'), '1.1.0')

  // The latest-build link (new installs) skips it too.
  const latest = await f('/v1/apps/harbor/latest?packageType=exe&platform=windows&arch=x64')
  assert.match(latest.headers.get('location') ?? '', new RegExp(`/versions/${ids['1.1.0']}/`))

  // Ferry's JSON says so.
  const ferry = await f('/v1/apps/harbor/update?version=1.2.0&platform=windows&arch=x64&format=ferry', {
    headers: { 'x-ferry-device-id': 'device-0001' },
  })
  assert.deepEqual(
    await ferry.json().then((b) => {
      const o = b as { version: string; downgrade?: boolean }
      return [o.version, o.downgrade]
    }),
    ['1.1.0', true],
  )

  // Squirrel.Windows: RELEASES ends at 1.1.0, below the local 1.2.0, so UpdateManager installs 1.1.0.
  const releases = await (await f('/v1/apps/harbor/squirrel/stable/x64/RELEASES?localVersion=1.2.0')).text()
  assert.equal(squirrelCheckForUpdate(parseReleases(releases), '1.2.0'), '1.1.0')

  // Squirrel.Mac installs whatever it is answered with.
  const mac = await f('/v1/apps/harbor/update?version=1.2.0&platform=windows&arch=x64&format=electron-builtin')
  assert.equal(((await mac.json()) as { name: string }).name, '1.1.0')

  // electron-updater's own NsisUpdater: with allowDowngrade it takes 1.1.0; without, it stays.
  for (const allowDowngrade of [true, false]) {
    const dir = mkdtempSync(join(tmpdir(), 'ferry-rollback-'))
    try {
      const config = join(dir, 'app-update.yml')
      writeFileSync(
        config,
        `provider: generic\nurl: ${base}/v1/apps/harbor/electron-updater/stable/windows/x64/1.2.0\n`,
      )
      const log: string[] = []
      const updater = nsisUpdater(
        { version: '1.2.0', name: 'Harbor', userData: join(dir, 'u'), cache: join(dir, 'c'), appUpdateConfig: config },
        log,
      )
      Object.assign(updater, { allowDowngrade, autoDownload: false })
      const result = await updater.checkForUpdates()
      assert.equal(result?.updateInfo.version, '1.1.0')
      assert.equal(result?.isUpdateAvailable, allowDowngrade, log.join('\n'))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  // Tauri's default comparator installs only newer versions: the rollback needs a custom version_comparator.
  const tauriBody = await f('/v1/apps/harbor/tauri/stable/windows/x86_64/1.2.0')
  assert.equal(((await tauriBody.json()) as { version: string }).version, '1.1.0')
  assert.equal(
    await tauriCheck(`${base}/v1/apps/harbor/tauri/stable/{{target}}/{{arch}}/{{current_version}}`, {
      currentVersion: '1.2.0',
      target: 'windows',
      arch: 'x86_64',
    }),
    null,
  )

  // Resuming lifts the pull.
  await f(`/v1/apps/harbor/versions/${ids['1.2.0']}/resume`, post())
  assert.equal(await offered('device-0001', '1.2.0'), null)
  assert.equal(await offered('device-0001', '1.1.0'), '1.2.0')
})

test('explain and the update check agree, for many devices, versions, formats and rollout states', async () => {
  // 1.3.0 partial, 1.4.0 intermediate on a ramp, 1.5.0 paused, 1.6.0 a draft, 1.7.0 partial.
  await upload('1.3.0', { rolloutPercentage: '30' })
  await upload('1.4.0', { intermediate: 'true', rolloutPercentage: '0' })
  await f(
    `/v1/apps/harbor/versions/${ids['1.4.0']}`,
    patch({
      ramp: {
        steps: [
          { percentage: 20, afterMinutes: 0 },
          { percentage: 60, afterMinutes: 30 },
        ],
      },
    }),
  )
  await upload('1.5.0')
  await f(`/v1/apps/harbor/versions/${ids['1.5.0']}/pause`, post({ reason: 'Waiting for QA' }))
  await upload('1.6.0', { published: 'false' })
  await upload('1.7.0', { rolloutPercentage: '50' })
  let compared = 0
  const rules = new Set<string>()
  for (const minutes of [0, 45]) {
    now = START + 300 * MINUTE + minutes * MINUTE
    for (const current of ['1.0.0', '1.1.0', '1.2.0', '1.3.0', '1.4.0', '1.5.0', '1.7.0']) {
      for (const device of devices.slice(0, 25)) {
        for (const format of ['ferry', 'electron-builtin', 'electron-updater'] as const) {
          const q = `version=${current}&platform=windows&arch=x64&format=${format}`
          const explained = (await expectSpec(
            'explainUpdate',
            await f(`/v1/apps/harbor/update/explain?${q}&deviceId=${device}`, bearer(token)),
            200,
          )) as {
            offered: string | null
            versions: Array<{ version: string; rule: string }>
          }
          for (const v of explained.versions) rules.add(v.rule)
          const res = await f(`/v1/apps/harbor/update?${q}`, { headers: { 'x-ferry-device-id': device } })
          const text = await res.text()
          const real =
            res.status === 204
              ? null
              : format === 'ferry'
                ? (JSON.parse(text) as { version: string }).version
                : format === 'electron-builtin'
                  ? (JSON.parse(text) as { name: string }).name
                  : ((y: { version: string; files: unknown[] }) => (y.files.length ? y.version : null))(
                      parse(text) as { version: string; files: unknown[] },
                    )
          assert.equal(explained.offered, real, `${format} on ${current} for ${device} at +${minutes}`)
          compared++
        }
      }
    }
  }
  assert.equal(compared, 2 * 7 * 25 * 3)
  for (const rule of ['offered', 'not-newer', 'gate', 'paused', 'bucket', 'draft', 'lower-offer'])
    assert.ok(rules.has(rule), `some explanation used rule ${rule}`)
})

test('health reports: only existing published versions count; bad input is named; one device is rate-limited', async () => {
  const send = (body: Record<string, unknown>) =>
    f(
      '/v1/apps/harbor/health-reports',
      jsonBody({
        deviceId: 'limit-device-1',
        version: '1.1.0',
        channel: 'stable',
        platform: 'windows',
        arch: 'x64',
        outcome: 'installed',
        ...body,
      }),
    )
  assert.deepEqual(await (await send({ version: '9.9.9' })).json(), { counted: false, paused: false })
  assert.deepEqual(await (await send({ version: '1.6.0' })).json(), { counted: false, paused: false }, 'a draft')
  assert.equal(
    (
      await f(
        '/v1/apps/nope/health-reports',
        jsonBody({
          deviceId: 'limit-device-1',
          version: '1.1.0',
          channel: 'stable',
          platform: 'windows',
          arch: 'x64',
          outcome: 'installed',
        }),
      )
    ).status,
    404,
  )
  const missing = await send({ outcome: 'failed', deviceId: 'limit-device-2' })
  assert.equal(missing.status, 400)
  assert.match(await missing.text(), /"pointer":"\/reason"/)
  const statuses: number[] = []
  for (let i = 0; i < 12; i++) statuses.push((await send({ deviceId: 'limit-device-3' })).status)
  assert.deepEqual(statuses, [...Array(10).fill(202), 429, 429])
  now += MINUTE
  assert.equal((await send({ deviceId: 'limit-device-3' })).status, 202)
})
