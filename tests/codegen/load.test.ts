import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createContext } from '../../lib/codegen/context.ts'
import { SpecError, loadSpec } from '../../lib/codegen/load.ts'
import { transformTags } from '../../lib/codegen/transform/operation.ts'
import { FIXTURES } from './helpers.ts'

const cases: [string, { file: string; line: number; pointer: string; problem: RegExp }][] = [
  [
    'a $ref to a missing schema',
    {
      file: 'missing-ref.yaml',
      line: 15,
      pointer: '#/paths/~1v1~1things/get/responses/200/content/application~1json/schema/$ref',
      problem: /#\/components\/schemas\/Thing does not exist/,
    },
  ],
  [
    'a response description of the wrong type',
    {
      file: 'wrong-type.yaml',
      line: 11,
      pointer: '#/paths/~1v1~1things/get/responses/200/description',
      problem: /must be string/,
    },
  ],
]

for (const [name, { file, line, pointer, problem }] of cases) {
  test(`loader rejects ${name} with file, line and pointer`, async () => {
    const path = `${FIXTURES}${file}`
    await assert.rejects(loadSpec(path), (error: unknown) => {
      assert.ok(error instanceof SpecError, `expected SpecError, got ${String(error)}`)
      assert.equal(error.file, path)
      assert.equal(error.line, line)
      assert.equal(error.pointer, pointer)
      assert.match(error.problem, problem)
      assert.ok(error.message.startsWith(`${path}:${line}:`), error.message)
      assert.ok(error.message.includes(pointer), error.message)
      return true
    })
  })
}

test('an operation without x-page-slug fails at its pointer and line', async () => {
  const path = `${FIXTURES}missing-slug.yaml`
  const ctx = createContext(await loadSpec(path))
  assert.throws(
    () => transformTags(ctx),
    (error: unknown) => {
      assert.ok(error instanceof SpecError)
      assert.equal(error.pointer, '#/paths/~1v1~1things/get')
      assert.equal(error.line, 11)
      assert.match(error.problem, /x-page-slug/)
      return true
    },
  )
})

test('a write operation without x-ferry-invalidates fails the server table at its pointer and line', async () => {
  const path = `${FIXTURES}missing-invalidates.yaml`
  const ctx = createContext(await loadSpec(path))
  assert.throws(
    () => transformTags(ctx),
    (error: unknown) => {
      assert.ok(error instanceof SpecError)
      assert.equal(error.pointer, '#/paths/~1v1~1things/post')
      assert.equal(error.line, 11)
      assert.match(error.problem, /x-ferry-invalidates/)
      return true
    },
  )
})

const badSamples: [string, { file: string; line: number; pointer: string; problem: RegExp }][] = [
  [
    'an x-codeSamples lang no checker knows',
    {
      file: 'code-sample-lang.yaml',
      line: 22,
      pointer: '#/paths/~1v1~1things/get/x-codeSamples/1/lang',
      problem: /unknown lang "COBOL": use one of shell, /,
    },
  ],
  [
    'an x-codeSamples entry without source',
    {
      file: 'code-sample-source.yaml',
      line: 22,
      pointer: '#/paths/~1v1~1things/get/x-codeSamples/1',
      problem: /code sample needs `source`/,
    },
  ],
]

for (const [name, { file, line, pointer, problem }] of badSamples) {
  test(`transform rejects ${name} at its pointer and line`, async () => {
    const path = `${FIXTURES}${file}`
    const ctx = createContext(await loadSpec(path))
    assert.throws(
      () => transformTags(ctx),
      (error: unknown) => {
        assert.ok(error instanceof SpecError, `expected SpecError, got ${String(error)}`)
        assert.equal(error.pointer, pointer)
        assert.equal(error.line, line)
        assert.match(error.problem, problem)
        assert.ok(error.message.startsWith(`${path}:${line}:`), error.message)
        return true
      },
    )
  })
}
