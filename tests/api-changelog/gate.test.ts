import assert from 'node:assert/strict'
import { test } from 'node:test'
import { checkBreakingChanges } from '../../lib/api-changelog/gate.ts'
import type { FrozenRelease } from '../../lib/api-changelog/history.ts'
import { loadHistory } from '../../lib/api-changelog/history.ts'
import { versionProblem } from '../../lib/api-changelog/version-rule.ts'
import { fixtureSpec, loadCurrent, ROOT, type EditableSpec } from './helpers.ts'

const { spec: current } = await loadCurrent()
/** The current contract frozen as 1.0: the fixtures change it after the freeze. */
const frozen: FrozenRelease[] = [
  { id: '1.0', label: '1.0', frozen: '2027-01-01', file: 'openapi/openapi.yaml', spec: current },
]

function removeDeleteApp(version: string) {
  return (doc: EditableSpec) => {
    doc.info.version = version
    delete doc.paths['/v1/apps/{app}']!.delete
  }
}

test('the real repository passes: no breaking change since the newest frozen contract', async () => {
  const result = checkBreakingChanges(current, await loadHistory(ROOT))
  assert.deepEqual(result.problems, [])
  assert.equal(result.ok, true)
  assert.equal(result.against, '0.1')
})

test('a breaking change with an unchanged info.version fails, naming the operation, its place and file:line', async () => {
  const spec = await fixtureSpec('breaking-same-version', removeDeleteApp('1.0.0'))
  const result = checkBreakingChanges(spec, frozen)
  assert.equal(result.ok, false)
  assert.match(
    result.problems[0]!,
    /ferry-api-changelog-.*\.yaml:\d+:\d+ at #\/info\/version: info\.version 1\.0\.0 makes breaking changes to 1\.0\.0 without a major bump: set it to 2\.0\.0/,
  )
  const removal = result.problems.find((p) => p.includes('DELETE /v1/apps/{app} (deleteApp): operation removed'))
  assert.ok(removal, result.problems.join('\n'))
  assert.match(
    removal,
    /openapi\.yaml:\d+:\d+ at #\/paths\/~1v1~1apps~1\{app\}\/delete/,
    'a removal points into the frozen contract it was in',
  )
})

test('a required request member is breaking too, and a major bump lets both through', async () => {
  const edit = (version: string) => (doc: EditableSpec) => {
    removeDeleteApp(version)(doc)
    doc.paths['/v1/apps']!.get!.parameters!.push({
      name: 'owner',
      in: 'query',
      required: true,
      schema: { type: 'string' },
    })
  }
  const same = checkBreakingChanges(await fixtureSpec('required-param', edit('1.0.0')), frozen)
  assert.ok(
    same.problems.some((p) => p.includes('GET /v1/apps (listApps): query parameter `owner` added')),
    same.problems.join('\n'),
  )
  const bumped = checkBreakingChanges(await fixtureSpec('bumped', edit('2.0.0')), frozen)
  assert.equal(bumped.ok, true, bumped.problems.join('\n'))
  assert.ok(bumped.breaking.length >= 2, 'the breaking changes are still listed, only allowed')
})

test('a strict request body needs a bump unless the contract accepts it against the frozen version', async () => {
  const strict = (accept: boolean) => (doc: EditableSpec) => {
    const schema = { type: 'object', properties: { note: { type: 'string' } } }
    const frozenDoc = doc as unknown as Record<string, unknown>
    doc.paths['/v1/apps']!.post = {
      ...doc.paths['/v1/apps']!.post,
      requestBody: { content: { 'application/json': { schema: { ...schema, additionalProperties: false } } } },
    } as never
    frozenDoc['x-ferry-accepted-breaking-changes'] = accept
      ? [{ since: '1.0', location: 'request body', what: '`additionalProperties` added', reason: 'test' }]
      : []
  }
  const lenient = await fixtureSpec('lenient-body', (doc) => {
    doc.paths['/v1/apps']!.post = {
      ...doc.paths['/v1/apps']!.post,
      requestBody: {
        content: { 'application/json': { schema: { type: 'object', properties: { note: { type: 'string' } } } } },
      },
    } as never
  })
  const base: FrozenRelease[] = [{ ...frozen[0]!, spec: lenient }]
  const refused = checkBreakingChanges(await fixtureSpec('strict-body', strict(false)), base)
  assert.equal(refused.ok, false)
  assert.ok(
    refused.problems.some((p) => p.includes('POST /v1/apps (createApp): request body `additionalProperties` added')),
    refused.problems.join('\n'),
  )
  const accepted = checkBreakingChanges(await fixtureSpec('strict-body-accepted', strict(true)), base)
  assert.deepEqual(accepted.problems, [])
})

test('additive changes need no bump', async () => {
  const spec = await fixtureSpec('additive', (doc) => {
    doc.paths['/v1/apps']!.get!.parameters!.push({
      name: 'search',
      in: 'query',
      required: false,
      schema: { type: 'string' },
    })
  })
  assert.deepEqual(checkBreakingChanges(spec, frozen).problems, [])
})

test('the version rule: major bump, or minor while 0.x; never backwards', () => {
  assert.equal(versionProblem('1.0.0', '1.0.0', false), undefined)
  assert.match(versionProblem('1.2.0', '1.3.0', true)!, /set it to 2\.0\.0/)
  assert.equal(versionProblem('1.2.0', '2.0.0', true), undefined)
  assert.match(versionProblem('0.3.1', '0.3.2', true)!, /minor \(0\.x\).*0\.4\.0/)
  assert.equal(versionProblem('0.3.1', '0.4.0', true), undefined)
  assert.equal(versionProblem('0.3.1', '1.0.0', true), undefined)
  assert.match(versionProblem('1.1.0', '1.0.0', false)!, /below the frozen 1\.1\.0/)
  assert.match(versionProblem('1.0', '1.0.0', false)!, /not semver/)
})
