/**
 * Holds, pins, targeting and manual checks, seen by the clients the other suites run over HTTP:
 * electron-updater's own generic provider, the Tauri plugin's and Sparkle's readers (redone from
 * their sources in `clients/`) and Ferry JSON. A pinned organisation stays on 1.4.x while others
 * get 2.0.0; a hold stops offers until its expiry (the app's clock, set by the test); a manual
 * check outside the ramp gets the version, and nothing from a paused or pulled one; explain names
 * each rule. Answers are cached (the default in-process cache), so every step also checks that a
 * rule change or expiry reaches answers already cached.
 */
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, before, beforeEach, test } from 'node:test'
import { serve, type ServerType } from '@hono/node-server'
import { rolloutBucket } from '../../server/updates/update-logic.ts'
import { electronUpdaterCheck } from './clients/electron-updater.ts'
import { chooseItem, parseAppcast } from './clients/sparkle.ts'
import { checkForUpdate as tauriCheck } from './clients/tauri.ts'
import { bearer, expectSpec, jsonBody, memoryApp, signup, uploadForm, type Fetch } from './helpers.ts'

const HOUR = 3_600_000
let now = Date.parse('2026-03-02T09:00:00Z')
let f: Fetch
let token: string
let http: ServerType
let base: string
const ids: Record<string, string> = {}
const post = (body: unknown = {}) => jsonBody(body, token)

async function upload(version: string) {
  const files: Array<[string, string]> = [
    [`Fleet-${version}.exe`, `exe ${version}`],
    [`Fleet-${version}.exe.sig`, `sig ${version}`],
    [`Fleet-${version}.zip`, `zip ${version}`],
    [`fleet-${version}-full.nupkg`, `nupkg ${version}`],
  ]
  const form = uploadForm({ version, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }, files)
  const res = await f('/v1/apps/fleet/versions', bearer(token, { method: 'POST', body: form }))
  assert.equal(res.status, 201, await res.clone().text())
  ids[version] = ((await res.json()) as { id: string }).id
}

before(async () => {
  const m = await memoryApp({}, () => new Date(now))
  f = m.fetch
  http = serve({ fetch: m.app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise((resolve) => http.once('listening', resolve))
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  token = (await signup(f, 'admin@fleet.test')).token
  for (const [path, body] of [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'ferry' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/apps', { slug: 'fleet', name: 'Fleet' }],
  ] as const) {
    assert.equal((await f(path, post(body))).status, 201)
  }
  for (const v of ['1.4.0', '1.4.3', '2.0.0']) await upload(v)
})
after(() => new Promise<void>((resolve) => http.close(() => resolve())))

/** Every rule deleted, 2.0.0 at 100 % and live: each test starts from the same fleet. */
beforeEach(async () => {
  const list = (await (await f('/v1/apps/fleet/rules', bearer(token))).json()) as { items: Array<{ id: string }> }
  for (const r of list.items)
    assert.equal((await f(`/v1/apps/fleet/rules/${r.id}`, bearer(token, { method: 'DELETE' }))).status, 204)
  assert.equal((await f(`/v1/apps/fleet/versions/${ids['2.0.0']}/resume`, post())).status, 200)
  const full = { ...post({ rolloutPercentage: 100 }), method: 'PATCH' }
  assert.equal((await f(`/v1/apps/fleet/versions/${ids['2.0.0']}`, full)).status, 200)
})

const rule = async (body: object) => {
  const res = await f('/v1/apps/fleet/rules', post(body))
  assert.equal(res.status, 201, await res.clone().text())
  return ((await res.json()) as { id: string }).id
}

interface Who {
  cohort?: string
  device?: string
  manual?: boolean
}

const identityQuery = (w: Who) =>
  new URLSearchParams({
    ...(w.cohort ? { cohort: w.cohort } : {}),
    ...(w.manual ? { manual: 'true' } : {}),
  }).toString()

const identityHeaders = (w: Who): Record<string, string> => ({
  ...(w.cohort ? { 'X-Ferry-Cohort': w.cohort } : {}),
  ...(w.device ? { 'X-Ferry-Device-Id': w.device } : {}),
  ...(w.manual ? { 'X-Ferry-Manual': 'true' } : {}),
})

/** Each client from `current`, the version it would install (`null`: none). */
const CLIENTS: Record<string, (current: string, who: Who) => Promise<string | null>> = {
  // The generic provider fetches only a URL: the cohort is a segment of the feed URL, the manual
  // flag its query (which the provider keeps).
  async 'electron-updater'(current, who) {
    const q = identityQuery({ ...who, cohort: undefined })
    const folder = who.cohort ? `cohorts/${who.cohort}/electron-updater` : 'electron-updater'
    const check = await electronUpdaterCheck(
      `${base}/v1/apps/fleet/${folder}/stable/windows/x64/${current}${q ? `?${q}` : ''}`,
      current,
      'win32',
      who.device ? { 'X-Ferry-Device-Id': who.device } : {},
    )
    return check.available ? check.info.version : null
  },
  // The Tauri plugin sends the headers its config or `check({ headers })` names.
  async tauri(current, who) {
    const template = `${base}/v1/apps/fleet/tauri/stable/{{target}}/{{arch}}/{{current_version}}`
    const saved = globalThis.fetch
    globalThis.fetch = (input, init) =>
      saved(input, { ...init, headers: { ...Object(init?.headers), ...identityHeaders(who) } })
    try {
      return (
        (await tauriCheck(template, { target: 'windows', arch: 'x86_64', currentVersion: current }))?.version ?? null
      )
    } finally {
      globalThis.fetch = saved
    }
  },
  // Sparkle fetches its feed URL (`SUFeedURL`): the cohort is a segment of it.
  async sparkle(current, who) {
    const q = identityQuery({ ...who, cohort: undefined })
    const folder = who.cohort ? `cohorts/${who.cohort}/sparkle` : 'sparkle'
    const url = new URL(
      `${base}/v1/apps/fleet/${folder}/stable/windows/x64/appcast.xml?version=${current}${q ? `&${q}` : ''}`,
    )
    const res = await fetch(url, { headers: who.device ? { 'X-Ferry-Device-Id': who.device } : {} })
    assert.equal(res.status, 200)
    const choice = chooseItem(parseAppcast(await res.text(), url), {
      version: current,
      osVersion: '14.5',
      os: 'windows',
    })
    return choice.item?.versionString ?? null
  },
  async ferry(current, who) {
    const res = await fetch(`${base}/v1/apps/fleet/update?version=${current}&platform=windows&arch=x64`, {
      headers: identityHeaders(who),
    })
    if (res.status === 204) return null
    assert.equal(res.status, 200)
    return ((await res.json()) as { version: string }).version
  },
}

async function everyClient(current: string, who: Who, want: string | null, why: string) {
  for (const [name, client] of Object.entries(CLIENTS))
    assert.equal(await client(current, who), want, `${name}, ${why}`)
}

async function explained(current: string, who: Who & { device: string }) {
  const q = identityQuery(who)
  const res = await f(
    `/v1/apps/fleet/update/explain?version=${current}&platform=windows&arch=x64&deviceId=${who.device}${q ? `&${q}` : ''}`,
    bearer(token),
  )
  const body = (await expectSpec('explainUpdate', res, 200)) as {
    offered: string | null
    versions: Array<{ version: string; rule: string; reason: string }>
  }
  return { offered: body.offered, rule: (v: string) => body.versions.find((x) => x.version === v)?.rule }
}

test('a pinned organisation stays on 1.4.x while others get 2.0.0; explain names the pin', async () => {
  await everyClient('1.4.0', { cohort: 'acme-corp' }, '2.0.0', 'before the pin')
  await rule({ kind: 'pin', cohort: 'acme-corp', range: '1.4.x', reason: 'Acme validates 2.0 first' })
  await everyClient('1.4.0', { cohort: 'acme-corp' }, '1.4.3', 'acme is pinned to 1.4.x')
  await everyClient('1.4.0', { cohort: 'globex' }, '2.0.0', 'another organisation')
  await everyClient('1.4.0', {}, '2.0.0', 'a device without a cohort')
  const why = await explained('1.4.0', { cohort: 'acme-corp', device: 'device-acme-0001' })
  assert.equal(why.offered, '1.4.3')
  assert.equal(why.rule('2.0.0'), 'pin')
})

test('a hold stops new offers, and its expiry lifts it (cached answers end at the expiry)', async () => {
  await everyClient('1.4.0', {}, '2.0.0', 'before the hold (now cached)')
  await rule({ kind: 'hold', reason: 'Support asked to wait', expiresAt: new Date(now + HOUR).toISOString() })
  await everyClient('1.4.0', {}, null, 'held')
  await everyClient('1.4.0', { manual: true }, null, 'held, even when a person asks')
  const why = await explained('1.4.0', { device: 'device-hold-0001' })
  assert.deepEqual([why.offered, why.rule('2.0.0'), why.rule('1.4.3')], [null, 'hold', 'hold'])
  now += HOUR
  await everyClient('1.4.0', {}, '2.0.0', 'the hold expired')
  now -= HOUR
})

test('a hold of one cohort leaves the others alone', async () => {
  await rule({ kind: 'hold', cohort: 'acme-corp', reason: 'freeze during audit' })
  await everyClient('1.4.0', { cohort: 'acme-corp' }, null, 'acme held')
  await everyClient('1.4.0', { cohort: 'globex' }, '2.0.0', 'globex not held')
})

test('a manual check outside the ramp gets the version, and nothing from a paused or pulled one', async () => {
  const ramp = { ...post({ rolloutPercentage: 20 }), method: 'PATCH' }
  assert.equal((await f(`/v1/apps/fleet/versions/${ids['2.0.0']}`, ramp)).status, 200)
  let outside = ''
  for (let i = 0; !outside; i++) {
    const id = `device-${String(i).padStart(4, '0')}`
    if ((await rolloutBucket(id, '2.0.0')) >= 20) outside = id
  }
  // Ferry buckets the device for Tauri, Sparkle and Ferry JSON; electron-updater stages itself
  // from `stagingPercentage`, which a manual check's answer leaves out.
  for (const name of ['tauri', 'sparkle', 'ferry']) {
    assert.equal(await CLIENTS[name]!('1.4.0', { device: outside }), '1.4.3', `${name}: outside the 20 %`)
  }
  await everyClient('1.4.0', { device: outside, manual: true }, '2.0.0', 'a person asked')
  const manualFeed = await electronUpdaterCheck(
    `${base}/v1/apps/fleet/electron-updater/stable/windows/x64/1.4.0?manual=true`,
    '1.4.0',
    'win32',
  )
  assert.equal(manualFeed.info.stagingPercentage, undefined, 'no staging for a manual check')
  const why = await explained('1.4.0', { device: outside, manual: true })
  assert.deepEqual([why.offered, why.rule('2.0.0')], ['2.0.0', 'manual'])

  assert.equal((await f(`/v1/apps/fleet/versions/${ids['2.0.0']}/pause`, post({ reason: 'crash' }))).status, 200)
  await everyClient('1.4.0', { device: outside, manual: true }, '1.4.3', 'paused: a person asking changes nothing')
  assert.equal((await f(`/v1/apps/fleet/versions/${ids['2.0.0']}/resume`, post())).status, 200)
  assert.equal((await f(`/v1/apps/fleet/versions/${ids['2.0.0']}/pull`, post({ reason: 'bad build' }))).status, 200)
  await everyClient('1.4.0', { device: outside, manual: true }, '1.4.3', 'pulled: a person asking changes nothing')
})

test('targeting: a version for some cohorts or devices only; a device list keeps answers per device', async () => {
  const id = await rule({ kind: 'target', version: '2.0.0', cohorts: ['beta-testers'] })
  await everyClient('1.4.0', { cohort: 'beta-testers' }, '2.0.0', 'in the targeted cohort')
  await everyClient('1.4.0', { cohort: 'globex' }, '1.4.3', 'outside it')
  const why = await explained('1.4.0', { cohort: 'globex', device: 'device-globex-01' })
  assert.equal(why.rule('2.0.0'), 'targeting')
  assert.equal((await f(`/v1/apps/fleet/rules/${id}`, bearer(token, { method: 'DELETE' }))).status, 204)
  await rule({ kind: 'target', version: '2.0.0', devices: ['device-allowed-01'] })
  // Same URL, two devices: neither gets the other's answer from the cache.
  for (let round = 0; round < 2; round++) {
    await everyClient('1.4.0', { device: 'device-allowed-01' }, '2.0.0', 'on the allowlist')
    await everyClient('1.4.0', { device: 'device-other-0001' }, '1.4.3', 'not on it')
  }
})

test('attribute conditions: equals, one-of and semver ranges on what the device declares', async () => {
  await rule({
    kind: 'target',
    version: '2.0.0',
    conditions: [
      { attribute: 'edition', oneOf: ['pro', 'enterprise'] },
      { attribute: 'os_version', range: '>=13.0.0' },
      { attribute: 'locale', equals: 'de' },
    ],
  })
  const check = async (attributes: string) => {
    const res = await fetch(`${base}/v1/apps/fleet/update?version=1.4.0&platform=windows&arch=x64`, {
      headers: { 'X-Ferry-Attributes': attributes },
    })
    return ((await res.json()) as { version: string }).version
  }
  assert.equal(await check('edition=pro,os_version=14.2.1,locale=de'), '2.0.0')
  assert.equal(await check('locale=de, os_version=14.2.1, edition=enterprise'), '2.0.0', 'any order, spaces')
  assert.equal(await check('edition=free,os_version=14.2.1,locale=de'), '1.4.3', 'not one of')
  assert.equal(await check('edition=pro,os_version=12.7.0,locale=de'), '1.4.3', 'below the range')
  assert.equal(await check('edition=pro,os_version=14.2.1'), '1.4.3', 'locale not declared')
})

test('bad attributes and cohorts are 400 problems naming the header or parameter', async () => {
  const cases: Array<[Record<string, string>, string, string]> = [
    [{ 'X-Ferry-Attributes': 'edition' }, '', 'X-Ferry-Attributes'],
    [{ 'X-Ferry-Attributes': `${'k'.repeat(33)}=v` }, '', 'X-Ferry-Attributes'],
    [{ 'X-Ferry-Attributes': `edition=${'v'.repeat(65)}` }, '', 'X-Ferry-Attributes'],
    [{ 'X-Ferry-Attributes': Array.from({ length: 9 }, (_, i) => `k${i}=v`).join(',') }, '', 'X-Ferry-Attributes'],
    [{ 'X-Ferry-Attributes': 'a=1,a=2' }, '', 'X-Ferry-Attributes'],
    [{}, '&attributes=Edition%3Dpro', 'attributes'],
    [{ 'X-Ferry-Cohort': 'acme corp' }, '', 'X-Ferry-Cohort'],
    [{}, `&cohort=${'c'.repeat(65)}`, 'cohort'],
  ]
  for (const [headers, query, field] of cases) {
    const res = await f(`/v1/apps/fleet/update?version=1.4.0&platform=windows&arch=x64${query}`, { headers })
    const problem = (await expectSpec('checkForUpdate', res, 400)) as { errors: Array<{ field: string }> }
    assert.equal(problem.errors[0]?.field, field, JSON.stringify({ headers, query }))
  }
})
