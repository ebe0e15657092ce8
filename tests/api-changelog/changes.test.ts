import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { test } from 'node:test'
import { diffContracts } from '../../lib/api-changelog/changes.ts'
import { loadHistory } from '../../lib/api-changelog/history.ts'
import { buildChangelog, operationChanges } from '../../lib/api-changelog/releases.ts'
import { loadCurrent, ROOT } from './helpers.ts'

const { spec: current, routes } = await loadCurrent()
const history = await loadHistory(ROOT)
const v01 = history.find((r) => r.id === '0.1')!

test('every frozen version has its contract snapshot, 0.1 included', () => {
  assert.ok(v01, 'versions.json lists 0.1')
  assert.equal(v01.frozen, '2026-11-22')
  assert.deepEqual(readdirSync(`${ROOT}openapi/versions`).sort(), history.map((r) => `${r.id}.yaml`).sort())
})

test('0.1 → current: real changes, each with its breaking flag and the link of its operation page', () => {
  const before = structuredClone(v01.spec.raw)
  const changes = diffContracts(v01.spec.raw, current.raw)
  assert.deepEqual(v01.spec.raw, before, 'the diff library must not rewrite the contracts it compares')

  const ops = operationChanges(changes, routes)
  const pause = ops.find((o) => o.method === 'POST' && o.path === '/v1/apps/{app}/versions/{version}/pause')
  assert.equal(pause?.status, 'added')
  assert.equal(pause?.breaking, false)
  assert.equal(pause?.page?.route, '/docs/api/apps/pause-version')

  const listApps = ops.find((o) => o.method === 'GET' && o.path === '/v1/apps')
  assert.equal(listApps?.status, 'changed')
  assert.equal(listApps?.page?.route, '/docs/api/apps/list-apps')
  const keys = listApps?.lines.find(
    (l) => l.location === 'response 200' && l.members.includes('items[].tauriPublicKey'),
  )
  assert.equal(keys?.what, 'added')
  assert.equal(keys?.breaking, false)
})

test('a change the library calls breaking but the versioning policy allows says why and is not breaking', () => {
  const changes = diffContracts(v01.spec.raw, current.raw)
  const packageType = changes.find(
    (c) => c.member === 'items[].artifacts[].packageType' && c.what.startsWith('enum value'),
  )
  assert.ok(packageType, 'a new packageType value in a list response')
  assert.equal(packageType.breaking, false)
  assert.match(packageType.policy ?? '', /enum value/)
})

test('strict request bodies are breaking under the policy, though the library calls them additive; the contract accepts them since 0.1', () => {
  const strict = (c: { method: string; path: string; location: string; what: string }) =>
    c.method === 'POST' &&
    c.path === '/v1/apps' &&
    c.location === 'request body' &&
    c.what === '`additionalProperties` added'
  const plain = diffContracts(v01.spec.raw, current.raw).find(strict)
  assert.ok(plain, 'POST /v1/apps gained additionalProperties: false after 0.1')
  assert.equal(plain.breaking, true)
  assert.match(plain.policyBreaking ?? '', /400/)
  assert.equal(plain.accepted, undefined, 'acceptance applies only against the version it names')
  const against01 = diffContracts(v01.spec.raw, current.raw, '0.1').find(strict)
  assert.equal(against01?.breaking, true, 'still shown as breaking')
  assert.match(against01?.accepted ?? '', /misspelt field/)
  assert.equal(diffContracts(v01.spec.raw, current.raw, '0.2').find(strict)?.accepted, undefined)
})

test('the changelog: Unreleased first, then each frozen release; links are pages the codegen generates', () => {
  const releases = buildChangelog(current.raw, history, routes)
  assert.deepEqual(
    releases.map((r) => r.id),
    ['unreleased', ...history.map((r) => r.id)],
  )
  assert.equal(releases[0]!.since, '0.1')
  assert.ok(releases[0]!.operations.length > 10)
  const generated = new Set([...routes.values()].map((p) => p.route))
  for (const op of releases.flatMap((r) => r.operations))
    if (op.page) assert.ok(generated.has(op.page.route), op.page.route)
  assert.equal(releases.at(-1)!.baseline, 35, 'the first frozen contract is the baseline: 35 operations in 0.1')
})
