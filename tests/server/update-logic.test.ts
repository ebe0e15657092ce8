/** Update decisions: the pure planner as tables, then the same rules through the update check. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { planUpdate, rolloutBucket, type Candidate } from '../../server/updates/update-logic.ts'
import { bearer, jsonBody, memoryApp, signup, uploadForm } from './helpers.ts'

const v = (version: string, flags: Partial<Candidate> = {}): Candidate => ({
  version,
  critical: false,
  intermediate: false,
  rolloutPercentage: 100,
  ...flags,
})

const cases: Array<
  [string, { current: string; versions: Candidate[]; bucket?: number }, { version: string | null; critical?: boolean }]
> = [
  [
    'newest above current',
    { current: '1.0.0', versions: [v('1.0.0'), v('1.1.0'), v('1.2.0')] },
    { version: '1.2.0', critical: false },
  ],
  ['up to date', { current: '1.2.0', versions: [v('1.0.0'), v('1.2.0')] }, { version: null }],
  ['client ahead of every version', { current: '9.0.0', versions: [v('1.0.0')] }, { version: null }],
  ['semver, not string, order', { current: '1.2.0', versions: [v('1.10.0'), v('1.9.0')] }, { version: '1.10.0' }],
  [
    'prerelease is below its release',
    { current: '2.0.0-beta.2', versions: [v('2.0.0-beta.1'), v('2.0.0-beta.10'), v('2.0.0')] },
    { version: '2.0.0' },
  ],
  [
    'prerelease ordering by identifiers',
    { current: '2.0.0-beta.2', versions: [v('2.0.0-beta.1'), v('2.0.0-beta.10')] },
    { version: '2.0.0-beta.10' },
  ],
  ['prerelease client gets the release', { current: '2.0.0-rc.1', versions: [v('2.0.0')] }, { version: '2.0.0' }],
  [
    'lowest intermediate first',
    {
      current: '1.0.0',
      versions: [v('1.1.0', { intermediate: true }), v('1.2.0', { intermediate: true }), v('1.3.0')],
    },
    { version: '1.1.0' },
  ],
  [
    'then the next intermediate',
    {
      current: '1.1.0',
      versions: [v('1.1.0', { intermediate: true }), v('1.2.0', { intermediate: true }), v('1.3.0')],
    },
    { version: '1.2.0' },
  ],
  [
    'then the newest',
    {
      current: '1.2.0',
      versions: [v('1.1.0', { intermediate: true }), v('1.2.0', { intermediate: true }), v('1.3.0')],
    },
    { version: '1.3.0' },
  ],
  [
    'intermediate below current does not gate',
    { current: '1.5.0', versions: [v('1.1.0', { intermediate: true }), v('2.0.0')] },
    { version: '2.0.0' },
  ],
  [
    'versions below the intermediate may be skipped to it',
    { current: '1.0.0', versions: [v('1.0.5'), v('1.1.0', { intermediate: true }), v('2.0.0')] },
    { version: '1.1.0' },
  ],
  [
    'critical when offered version is critical',
    { current: '1.0.0', versions: [v('1.1.0', { critical: true })] },
    { version: '1.1.0', critical: true },
  ],
  [
    'critical when a skipped version is critical',
    { current: '1.0.0', versions: [v('1.1.0', { critical: true }), v('1.2.0')] },
    { version: '1.2.0', critical: true },
  ],
  [
    'not critical when the critical one is above the gate',
    { current: '1.0.0', versions: [v('1.1.0', { intermediate: true }), v('1.2.0', { critical: true })] },
    { version: '1.1.0', critical: false },
  ],
  [
    'critical version below current is not counted',
    { current: '1.1.0', versions: [v('1.1.0', { critical: true }), v('1.2.0')] },
    { version: '1.2.0', critical: false },
  ],
  [
    'rollout 0 % is never offered',
    { current: '1.0.0', versions: [v('1.1.0', { rolloutPercentage: 0 })], bucket: 0 },
    { version: null },
  ],
  [
    'rollout 100 % always',
    { current: '1.0.0', versions: [v('1.1.0', { rolloutPercentage: 100 })], bucket: 99 },
    { version: '1.1.0' },
  ],
  [
    'bucket inside the percentage',
    { current: '1.0.0', versions: [v('1.1.0', { rolloutPercentage: 50 })], bucket: 49 },
    { version: '1.1.0' },
  ],
  [
    'bucket outside falls back to a lower version',
    { current: '1.0.0', versions: [v('1.1.0'), v('1.2.0', { rolloutPercentage: 50 })], bucket: 50 },
    { version: '1.1.0' },
  ],
  [
    'intermediate outside rollout holds everything above it',
    { current: '1.0.0', versions: [v('1.1.0', { intermediate: true, rolloutPercentage: 10 }), v('1.2.0')], bucket: 50 },
    { version: null },
  ],
]

for (const [name, given, want] of cases) {
  test(`planUpdate: ${name}`, () => {
    const plan = planUpdate(given.current, given.versions, () => given.bucket ?? 0)
    assert.equal(plan?.target.version ?? null, want.version)
    if (want.critical !== undefined) assert.equal(plan?.critical, want.critical)
  })
}

test('rollout buckets are deterministic per device and version, and spread out', async () => {
  assert.equal(await rolloutBucket('device-a', '1.0.0'), await rolloutBucket('device-a', '1.0.0'))
  const buckets = await Promise.all(Array.from({ length: 400 }, (_, i) => rolloutBucket(`device-${i}`, '1.0.0')))
  assert.ok(buckets.every((b) => b >= 0 && b < 100))
  const below50 = buckets.filter((b) => b < 50).length
  assert.ok(below50 > 150 && below50 < 250, `about half below 50, got ${below50}`)
  const perVersion = await Promise.all(Array.from({ length: 50 }, (_, i) => rolloutBucket('device-x', `1.0.${i}`)))
  assert.ok(new Set(perVersion).size > 10, 'the version is part of the hash')
})

async function setup() {
  const m = await memoryApp()
  const { token } = await signup(m.fetch, 'admin@team.test')
  for (const [path, name] of [
    ['/v1/channels', 'stable'],
    ['/v1/channels', 'beta'],
    ['/v1/platforms', 'windows'],
    ['/v1/platforms', 'darwin'],
    ['/v1/archs', 'x64'],
    ['/v1/archs', 'arm64'],
  ]) {
    assert.equal((await m.fetch(path ?? '', jsonBody({ name }, token))).status, 201)
  }
  await m.fetch('/v1/apps', jsonBody({ slug: 'app-one', name: 'One' }, token))
  await m.fetch('/v1/apps', jsonBody({ slug: 'secret-app', name: 'Secret', private: true }, token))
  const upload = async (slug: string, version: string, fields: Record<string, string> = {}) => {
    const form = uploadForm(
      { version, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true', ...fields },
      [[`setup-${version}.exe`, `bytes of ${version}`]],
    )
    const res = await m.fetch(`/v1/apps/${slug}/versions`, bearer(token, { method: 'POST', body: form }))
    assert.equal(res.status, 201, await res.clone().text())
    return (await res.json()) as { id: string }
  }
  const check = async (slug: string, query: string, device?: string) => {
    const res = await m.fetch(
      `/v1/apps/${slug}/update?${query}`,
      device ? { headers: { 'x-ferry-device-id': device } } : {},
    )
    return {
      status: res.status,
      body:
        res.status === 200
          ? ((await res.json()) as { version: string; critical: boolean; artifacts: Array<{ downloadUrl: string }> })
          : undefined,
    }
  }
  return { ...m, token, upload, check }
}

test('update check: unpublished versions and other channels, platforms, archs are ignored', async () => {
  const t = await setup()
  await t.upload('app-one', '1.0.0')
  await t.upload('app-one', '1.5.0', { published: 'false' })
  await t.upload('app-one', '2.0.0', { channel: 'beta' })
  await t.upload('app-one', '3.0.0', { platform: 'darwin' })
  await t.upload('app-one', '4.0.0', { arch: 'arm64' })
  assert.equal((await t.check('app-one', 'version=0.9.0&platform=windows&arch=x64')).body?.version, '1.0.0')
  assert.equal((await t.check('app-one', 'version=1.0.0&platform=windows&arch=x64')).status, 204)
  assert.equal(
    (await t.check('app-one', 'version=1.0.0&platform=windows&arch=x64&channel=beta')).body?.version,
    '2.0.0',
  )
  assert.equal((await t.check('app-one', 'version=1.0.0&platform=darwin&arch=x64')).body?.version, '3.0.0')
  assert.equal((await t.check('app-one', 'version=1.0.0&platform=windows&arch=arm64')).body?.version, '4.0.0')
  assert.equal((await t.check('app-one', 'version=1.0.0&platform=linux&arch=x64')).status, 204, 'unknown platform')
  assert.equal(
    (await t.check('app-one', 'version=1.0.0&platform=windows&arch=x64&channel=nightly')).status,
    204,
    'unknown channel',
  )
})

test('update check: rollout by device id is deterministic, 0 % and 100 % are absolute', async () => {
  const t = await setup()
  await t.upload('app-one', '1.0.0')
  const v2 = await t.upload('app-one', '2.0.0', { rolloutPercentage: '30' })
  const q = 'version=1.0.0&platform=windows&arch=x64'
  const got = new Map<string, number>()
  for (let i = 0; i < 60; i++) {
    const device = `device-${String(i).padStart(4, '0')}`
    const first = await t.check('app-one', q, device)
    const again = await t.check('app-one', q, device)
    assert.equal(first.status, again.status, `same answer for ${device}`)
    const expected = (await rolloutBucket(device, '2.0.0')) < 30 ? 200 : 204
    assert.equal(first.status, expected, `bucket decides for ${device}`)
    got.set(device, first.status)
  }
  assert.ok([...got.values()].includes(200) && [...got.values()].includes(204), 'some devices in, some out')
  const patch = async (pct: number) =>
    t.fetch(`/v1/apps/app-one/versions/${v2.id}`, { ...jsonBody({ rolloutPercentage: pct }, t.token), method: 'PATCH' })
  await patch(0)
  for (const device of got.keys()) assert.equal((await t.check('app-one', q, device)).status, 204)
  await patch(100)
  for (const device of got.keys()) assert.equal((await t.check('app-one', q, device)).body?.version, '2.0.0')
})

test('update check: private apps get signed download links that work, then expire', async () => {
  let now = new Date('2030-01-01T00:00:00Z')
  const m = await memoryApp({}, () => now)
  const { token } = await signup(m.fetch, 'admin@team.test')
  for (const [path, name] of [
    ['/v1/channels', 'stable'],
    ['/v1/platforms', 'windows'],
    ['/v1/archs', 'x64'],
  ] as const)
    await m.fetch(path, jsonBody({ name }, token))
  await m.fetch('/v1/apps', jsonBody({ slug: 'secret-app', name: 'Secret', private: true }, token))
  const form = uploadForm(
    { version: '1.0.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' },
    [
      ['s.exe', 'secret bytes'],
      ['s.msi', 'other bytes'],
    ],
  )
  assert.equal(
    (await m.fetch('/v1/apps/secret-app/versions', bearer(token, { method: 'POST', body: form }))).status,
    201,
  )
  const res = await m.fetch('/v1/apps/secret-app/update?version=0.1.0&platform=windows&arch=x64')
  const body = (await res.json()) as { artifacts: Array<{ downloadUrl: string }> }
  const url = new URL(body.artifacts[0]?.downloadUrl ?? '')
  assert.equal(url.searchParams.get('expires'), String(Date.parse('2030-01-01T00:15:00Z') / 1000))
  assert.match(url.searchParams.get('signature') ?? '', /^[0-9a-f]{64}$/)
  const dl = await m.fetch(url.pathname + url.search)
  assert.equal(dl.status, 200)
  assert.equal(await dl.text(), 'secret bytes')
  assert.equal((await m.fetch(url.pathname)).status, 401)
  const second = new URL(body.artifacts[1]?.downloadUrl ?? '')
  assert.equal((await m.fetch(second.pathname + second.search)).status, 200)
  assert.equal((await m.fetch(second.pathname + url.search)).status, 403, 'a signature is bound to its path')
  const latest = await m.fetch('/v1/apps/secret-app/latest?packageType=exe&platform=windows&arch=x64')
  assert.equal(latest.status, 302)
  const target = new URL(latest.headers.get('location') ?? '')
  assert.match(target.search, /^\?expires=\d+&signature=[0-9a-f]{64}$/, 'the permanent link redirects to a signed link')
  assert.equal(await (await m.fetch(target.pathname + target.search)).text(), 'secret bytes')
  now = new Date('2030-01-01T00:16:00Z')
  assert.equal((await m.fetch(url.pathname + url.search)).status, 403, 'expired')
})
