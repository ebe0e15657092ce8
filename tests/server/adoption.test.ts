/**
 * A version's adoption, per day: devices offered it (update checks), whole-file downloads of its
 * artifacts (not ranged resumes, not 304s), installed and failed reports, and devices whose
 * checks say they run it, over a simulated clock across two days. Bad ranges are 400 problems.
 */
import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { bearer, expectSpec, jsonBody, memoryApp, setUpTeam, uploadForm, type Fetch } from './helpers.ts'

let now = Date.parse('2026-06-01T20:00:00Z')
let f: Fetch
let token: string
const ids = new Map<string, string>()
let artifact = ''

const check = (deviceId: string, version: string) =>
  f(`/v1/apps/wren/update?version=${version}&platform=windows&arch=x64&format=ferry`, {
    headers: { 'x-ferry-device-id': deviceId },
  })
const report = (deviceId: string, outcome: 'installed' | 'failed') =>
  f(
    '/v1/apps/wren/health-reports',
    jsonBody({
      deviceId,
      version: '2.0.0',
      channel: 'stable',
      platform: 'windows',
      arch: 'x64',
      outcome,
      ...(outcome === 'failed' ? { reason: 'Crash' } : {}),
    }),
  )
const download = (headers: Record<string, string> = {}) =>
  f(`/v1/apps/wren/versions/${ids.get('2.0.0')}/artifacts/${artifact}/download`, { headers })
const adoption = (query: string) => f(`/v1/apps/wren/versions/${ids.get('2.0.0')}/adoption${query}`, bearer(token))

before(async () => {
  const m = await memoryApp({}, () => new Date(now))
  f = m.fetch
  token = await setUpTeam(f, 'admin@wren.test', [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'ferry' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/apps', { slug: 'wren', name: 'Wren' }],
  ])
  for (const v of ['1.0.0', '2.0.0']) {
    const res = await f(
      '/v1/apps/wren/versions',
      bearer(token, {
        method: 'POST',
        body: uploadForm({ version: v, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }, [
          [`Wren-${v}.exe`, `exe ${v}`],
        ]),
      }),
    )
    assert.equal(res.status, 201)
    const body = (await res.json()) as { id: string; artifacts: Array<{ id: string }> }
    ids.set(v, body.id)
    if (v === '2.0.0') artifact = body.artifacts[0]?.id ?? ''
  }
})

test('adoption counts offers, whole downloads, reports and running devices per day', async () => {
  // Day 1: three devices on 1.0.0 are offered 2.0.0 (one asks twice), two downloads, one ranged resume, one 304.
  for (const d of ['wren-device-1', 'wren-device-2', 'wren-device-3', 'wren-device-1'])
    assert.equal((await check(d, '1.0.0')).status, 200)
  assert.equal((await download()).status, 200)
  const second = await download()
  assert.equal(second.status, 200)
  assert.equal((await download({ range: 'bytes=2-' })).status, 206)
  assert.equal((await download({ 'if-none-match': second.headers.get('etag') ?? '' })).status, 304)
  assert.deepEqual(await report('wren-device-1', 'installed').then((r) => r.json()), { counted: true, paused: false })
  // Day 2: two devices report (one failed), and two devices check in from 2.0.0.
  now += 6 * 3600 * 1000
  await report('wren-device-2', 'installed')
  await report('wren-device-3', 'failed')
  for (const d of ['wren-device-1', 'wren-device-2', 'wren-device-2'])
    assert.equal((await check(d, '2.0.0')).status, 204)

  const body = await expectSpec('getVersionAdoption', await adoption('?from=2026-05-31&to=2026-06-03'), 200)
  assert.deepEqual(body, {
    version: '2.0.0',
    from: '2026-05-31',
    to: '2026-06-03',
    days: [
      { day: '2026-06-01', offered: 3, downloads: 2, installed: 1, failed: 0, running: 0 },
      { day: '2026-06-02', offered: 0, downloads: 0, installed: 1, failed: 1, running: 2 },
    ],
  })
  // Without a range: the 30 days up to today.
  const recent = (await expectSpec('getVersionAdoption', await adoption(''), 200)) as {
    from: string
    to: string
    days: unknown[]
  }
  assert.deepEqual([recent.from, recent.to, recent.days.length], ['2026-05-04', '2026-06-02', 2])
  const other = await expectSpec(
    'getVersionAdoption',
    await f(`/v1/apps/wren/versions/${ids.get('1.0.0')}/adoption?from=2026-06-01&to=2026-06-02`, bearer(token)),
    200,
  )
  assert.deepEqual(other, {
    version: '1.0.0',
    from: '2026-06-01',
    to: '2026-06-02',
    days: [{ day: '2026-06-01', offered: 0, downloads: 0, installed: 0, failed: 0, running: 3 }],
  })
})

test('a range that is reversed or too long, or an unknown version, is a problem naming it', async () => {
  const reversed = (await expectSpec('getVersionAdoption', await adoption('?from=2026-06-02&to=2026-06-01'), 400)) as {
    errors: Array<{ field: string; message: string }>
  }
  assert.deepEqual(reversed.errors, [{ field: 'to', message: 'must not be before from' }])
  const long = (await expectSpec('getVersionAdoption', await adoption('?from=2026-01-01&to=2026-06-01'), 400)) as {
    errors: Array<{ field: string; message: string }>
  }
  assert.deepEqual(long.errors, [{ field: 'to', message: 'must be less than 92 days after from' }])
  await expectSpec('getVersionAdoption', await f('/v1/apps/wren/versions/ver_missing/adoption', bearer(token)), 404)
})
