/**
 * A property over random rule sets (holds, pins, targeting by cohort, device lists and attribute
 * conditions, some expired) and random devices (cohort, attributes, manual flag, version, format):
 * `decideUpdate` never offers a pulled or paused version, never one outside the device's pins,
 * nothing newer under a hold, no targeted version to a device no targeting rule admits; and the
 * update check (the route the /demo sandbox runs too, cached) and explain answer what it decided.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import semver, { SemVer } from 'semver'
import { PROTOCOLS } from '../../server/protocols/index.ts'
import { decideUpdate } from '../../server/updates/decide.ts'
import { bearer, jsonBody, memoryApp, signup, uploadForm } from './helpers.ts'

const NOW = Date.parse('2026-03-02T09:00:00Z')
const COHORTS = ['acme', 'globex'] as const
const DEVICES = ['device-0001', 'device-0002', 'device-0003'] as const
/** Version, rollout percentage, and what happens to it after upload. */
const RELEASES: Array<[string, number, 'pause' | 'pull' | null]> = [
  ['1.0.0', 100, null],
  ['1.4.0', 100, null],
  ['1.4.3', 50, null],
  ['1.5.0', 100, 'pause'],
  ['1.9.0', 100, 'pull'],
  ['2.0.0', 30, null],
  ['2.1.0', 100, 'pause'],
]
const WITHHELD = new Set(RELEASES.filter(([, , s]) => s !== null).map(([v]) => v))

interface RuleBody {
  kind: 'hold' | 'pin' | 'target'
  cohort?: string
  range?: string
  version?: string
  cohorts?: string[]
  devices?: string[]
  deny?: string[]
  conditions?: Array<{ attribute: string; oneOf?: string[]; range?: string }>
  reason?: string
  expiresAt?: string
}

const expiry = fc.option(fc.constantFrom(NOW + 60_000, NOW + 3_600_000), { nil: undefined })
const hold = fc.record({ cohort: fc.option(fc.constantFrom(...COHORTS), { nil: undefined }), expiresAt: expiry })
const pin = fc.record({
  cohort: fc.constantFrom(...COHORTS),
  range: fc.constantFrom('1.4.x', '<2.0.0', '^1.0.0', '>=1.5.0', '2.x', '1.0.0', '~1.9.0'),
})
const target = fc.record({
  version: fc.constantFrom(...RELEASES.map(([v]) => v)),
  cohorts: fc.option(fc.subarray([...COHORTS], { minLength: 1 }), { nil: undefined }),
  devices: fc.option(fc.subarray([...DEVICES], { minLength: 1 }), { nil: undefined }),
  deny: fc.option(fc.subarray([...DEVICES], { minLength: 1 }), { nil: undefined }),
  edition: fc.option(fc.subarray(['pro', 'free'], { minLength: 1 }), { nil: undefined }),
})
const ruleArb: fc.Arbitrary<RuleBody> = fc.oneof(
  hold.map((h) => ({
    kind: 'hold' as const,
    reason: 'held',
    ...(h.cohort ? { cohort: h.cohort } : {}),
    ...(h.expiresAt ? { expiresAt: new Date(h.expiresAt).toISOString() } : {}),
  })),
  pin.map((p) => ({ kind: 'pin' as const, ...p })),
  target
    .filter((t) => Boolean(t.cohorts ?? t.devices ?? t.deny ?? t.edition))
    .map((t) => ({
      kind: 'target' as const,
      version: t.version,
      ...(t.cohorts ? { cohorts: t.cohorts } : {}),
      ...(t.devices ? { devices: t.devices } : {}),
      ...(t.deny ? { deny: t.deny } : {}),
      ...(t.edition ? { conditions: [{ attribute: 'edition', oneOf: t.edition }] } : {}),
    })),
)
const deviceArb = fc.record({
  cohort: fc.option(fc.constantFrom(...COHORTS), { nil: undefined }),
  deviceId: fc.constantFrom(...DEVICES),
  edition: fc.option(fc.constantFrom('pro', 'free'), { nil: undefined }),
  manual: fc.boolean(),
  current: fc.constantFrom('1.0.0', '1.4.0', '1.5.0', '2.0.0', '2.1.0'),
  format: fc.constantFrom('ferry' as const, 'electron-updater' as const, 'squirrel-windows' as const),
  // The clock moves past the short expiries in some runs.
  later: fc.boolean(),
})

/** The test's own reading of a targeting rule (the oracle), apart from the server's. */
function admits(r: RuleBody, d: { cohort: string | undefined; deviceId: string; edition: string | undefined }) {
  if (r.deny?.includes(d.deviceId)) return false
  if (r.cohorts && (d.cohort === undefined || !r.cohorts.includes(d.cohort))) return false
  if (r.devices && !r.devices.includes(d.deviceId)) return false
  return (r.conditions ?? []).every((c) => d.edition !== undefined && (c.oneOf ?? []).includes(d.edition))
}

test('random rule sets: never a pulled or paused version, never outside a pin, nothing newer under a hold, targeting respected', async () => {
  let now = NOW
  const m = await memoryApp({}, () => new Date(now))
  const { token } = await signup(m.fetch, 'admin@prop.test')
  for (const [path, body] of [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'ferry' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/apps', { slug: 'prop', name: 'Prop' }],
  ] as const)
    assert.equal((await m.fetch(path, jsonBody(body, token))).status, 201)
  for (const [version, percentage, then] of RELEASES) {
    const form = uploadForm(
      {
        version,
        channel: 'stable',
        platform: 'windows',
        arch: 'x64',
        published: 'true',
        rolloutPercentage: String(percentage),
      },
      [
        [`Prop-${version}.exe`, `exe ${version}`],
        [`prop-${version}-full.nupkg`, `nupkg ${version}`],
      ],
    )
    const res = await m.fetch('/v1/apps/prop/versions', bearer(token, { method: 'POST', body: form }))
    assert.equal(res.status, 201)
    const { id } = (await res.json()) as { id: string }
    if (then) assert.equal((await m.fetch(`/v1/apps/prop/versions/${id}/${then}`, jsonBody({}, token))).status, 200)
  }
  const services = { db: m.db, now: () => new Date(now) }

  await fc.assert(
    fc.asyncProperty(fc.array(ruleArb, { maxLength: 4 }), deviceArb, async (rules, d) => {
      now = NOW
      const listed = (await (await m.fetch('/v1/apps/prop/rules', bearer(token))).json()) as {
        items: Array<{ id: string }>
      }
      for (const r of listed.items) await m.fetch(`/v1/apps/prop/rules/${r.id}`, bearer(token, { method: 'DELETE' }))
      for (const r of rules) {
        const res = await m.fetch('/v1/apps/prop/rules', jsonBody(r, token))
        assert.equal(res.status, 201, await res.clone().text())
      }
      if (d.later) now = NOW + 2 * 60_000
      const inForce = rules.filter((r) => r.expiresAt === undefined || now < Date.parse(r.expiresAt))
      const attributes = d.edition ? { edition: d.edition } : undefined
      const current = new SemVer(d.current)
      const decision = await decideUpdate(services, PROTOCOLS, {
        slug: 'prop',
        channel: 'stable',
        platform: 'windows',
        arch: 'x64',
        current,
        format: d.format,
        deviceId: d.deviceId,
        deviceKey: d.deviceId,
        cohort: d.cohort,
        attributes,
        manual: d.manual,
      })
      assert.ok(decision)
      const offered = decision.offer?.release.version ?? null
      if (offered === null) return
      assert.ok(!WITHHELD.has(offered), `${offered} is paused or pulled`)
      for (const p of inForce.filter((r) => r.kind === 'pin' && r.cohort === d.cohort))
        assert.ok(
          semver.satisfies(offered, p.range ?? '', { includePrerelease: true }),
          `${offered} outside ${p.range}`,
        )
      if (inForce.some((r) => r.kind === 'hold' && (r.cohort === undefined || r.cohort === d.cohort)))
        assert.ok(semver.lte(offered, current), `${offered} offered under a hold`)
      const targeting = inForce.filter((r) => r.kind === 'target' && r.version === offered)
      if (targeting.length)
        assert.ok(
          targeting.some((r) => admits(r, { ...d })),
          `${offered} to a device no rule targets`,
        )
    }),
    { numRuns: 60, seed: 20260302 },
  )
})

test('the update check and explain give what decideUpdate decided, for random rules and devices', async () => {
  const m = await memoryApp({}, () => new Date(NOW))
  const { token } = await signup(m.fetch, 'admin@agree.test')
  for (const [path, body] of [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'ferry' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/apps', { slug: 'agree', name: 'Agree' }],
  ] as const)
    assert.equal((await m.fetch(path, jsonBody(body, token))).status, 201)
  for (const [version, percentage, then] of RELEASES) {
    const form = uploadForm(
      {
        version,
        channel: 'stable',
        platform: 'windows',
        arch: 'x64',
        published: 'true',
        rolloutPercentage: String(percentage),
      },
      [[`Agree-${version}.exe`, `exe ${version}`]],
    )
    const res = await m.fetch('/v1/apps/agree/versions', bearer(token, { method: 'POST', body: form }))
    const { id } = (await res.json()) as { id: string }
    if (then) await m.fetch(`/v1/apps/agree/versions/${id}/${then}`, jsonBody({}, token))
  }
  const services = { db: m.db, now: () => new Date(NOW) }
  await fc.assert(
    fc.asyncProperty(fc.array(ruleArb, { maxLength: 3 }), deviceArb, async (rules, d) => {
      const listed = (await (await m.fetch('/v1/apps/agree/rules', bearer(token))).json()) as {
        items: Array<{ id: string }>
      }
      for (const r of listed.items) await m.fetch(`/v1/apps/agree/rules/${r.id}`, bearer(token, { method: 'DELETE' }))
      for (const r of rules) assert.equal((await m.fetch('/v1/apps/agree/rules', jsonBody(r, token))).status, 201)
      const decision = await decideUpdate(services, PROTOCOLS, {
        slug: 'agree',
        channel: 'stable',
        platform: 'windows',
        arch: 'x64',
        current: new SemVer(d.current),
        format: 'ferry',
        deviceId: d.deviceId,
        deviceKey: d.deviceId,
        cohort: d.cohort,
        attributes: d.edition ? { edition: d.edition } : undefined,
        manual: d.manual,
      })
      const want = decision?.offer?.release.version ?? null
      const q = new URLSearchParams({
        version: d.current,
        platform: 'windows',
        arch: 'x64',
        ...(d.cohort ? { cohort: d.cohort } : {}),
        ...(d.edition ? { attributes: `edition=${d.edition}` } : {}),
        ...(d.manual ? { manual: 'true' } : {}),
      })
      // Twice: the second answer comes from the answer cache.
      for (let i = 0; i < 2; i++) {
        const res = await m.fetch(`/v1/apps/agree/update?${q}&format=ferry`, {
          headers: { 'X-Ferry-Device-Id': d.deviceId },
        })
        const got = res.status === 204 ? null : ((await res.json()) as { version: string }).version
        assert.equal(got, want, `update check ${i ? '(cached)' : ''}`)
      }
      const explained = await m.fetch(`/v1/apps/agree/update/explain?${q}&deviceId=${d.deviceId}`, bearer(token))
      assert.equal(((await explained.json()) as { offered: string | null }).offered, want, 'explain')
    }),
    { numRuns: 40, seed: 20260303 },
  )
})
