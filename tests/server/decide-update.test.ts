/**
 * `decideUpdate`, the one decision the update check and explain share: the format worked out once
 * (asked for, or the platform's), the plan, and whether the answer varies by device.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SemVer } from 'semver'
import { PROTOCOLS } from '../../server/protocols/index.ts'
import { decideUpdate, type UpdateCheck } from '../../server/updates/decide.ts'
import { rolloutBucket } from '../../server/updates/update-logic.ts'
import { bearer, jsonBody, memoryApp, signup, uploadForm } from './helpers.ts'

async function setup() {
  const m = await memoryApp()
  const { token } = await signup(m.fetch, 'admin@team.test')
  await m.fetch('/v1/channels', jsonBody({ name: 'stable' }, token))
  await m.fetch('/v1/platforms', jsonBody({ name: 'windows', updater: 'squirrel-windows' }, token))
  await m.fetch('/v1/archs', jsonBody({ name: 'x64' }, token))
  await m.fetch('/v1/apps', jsonBody({ slug: 'app-one', name: 'One' }, token))
  for (const [version, rolloutPercentage] of [
    ['1.0.0', '100'],
    ['1.5.0', '100'],
    ['2.0.0', '30'],
  ] as const) {
    const form = uploadForm(
      { version, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true', rolloutPercentage },
      [
        [`setup-${version}.exe`, `bytes of ${version}`],
        [`app-${version}-full.nupkg`, `package ${version}`],
      ],
    )
    assert.equal(
      (await m.fetch('/v1/apps/app-one/versions', bearer(token, { method: 'POST', body: form }))).status,
      201,
    )
  }
  const services = { db: m.db, now: () => new Date() }
  const check = (fields: Partial<UpdateCheck>): UpdateCheck => ({
    slug: 'app-one',
    channel: 'stable',
    platform: 'windows',
    arch: 'x64',
    current: new SemVer('1.0.0'),
    format: 'ferry',
    deviceKey: 'd',
    ...fields,
  })
  return { decide: (fields: Partial<UpdateCheck>) => decideUpdate(services, PROTOCOLS, check(fields)) }
}

test('decideUpdate: a partial rollout above the client makes the answer vary by device where Ferry buckets', async () => {
  const { decide } = await setup()
  for (let i = 0; i < 20; i++) {
    const deviceKey = `device-${i}`
    const d = await decide({ deviceKey })
    assert.ok(d)
    assert.deepEqual(d.vary, [['2.0.0', 30]], 'Ferry JSON: the bucket decides')
    const inside = (await rolloutBucket(deviceKey, '2.0.0')) < 30
    assert.equal(d.offer?.release.version, inside ? '2.0.0' : '1.5.0', `${deviceKey}: 2.0.0 only inside its 30 %`)
  }
  const staged = await decide({ format: 'electron-updater' })
  assert.deepEqual(staged?.vary, [], 'electron-updater stages itself: one answer for every device')
  assert.equal(staged?.offer?.release.version, '2.0.0')
  assert.deepEqual((await decide({ current: new SemVer('2.0.0') }))?.vary, [], 'nothing partial above 2.0.0')
})

test("decideUpdate: the platform's updater decides the format, and the releases it loads", async () => {
  const { decide } = await setup()
  const d = await decide({ format: 'platform' })
  assert.equal(d?.format, 'squirrel-windows')
  assert.deepEqual(
    d?.target.releases.map((r) => r.version),
    ['1.0.0', '1.5.0', '2.0.0'],
    'RELEASES lists older releases too',
  )
  assert.deepEqual(
    (await decide({ format: 'ferry' }))?.target.releases.map((r) => r.version),
    ['1.5.0', '2.0.0'],
    'only those above 1.0.0',
  )
  assert.equal(await decide({ slug: 'no-such-app' }), null)
})
