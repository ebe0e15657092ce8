import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { loadSpec } from '../../lib/codegen/load.ts'
import { SPEC } from './helpers.ts'

type Json = Record<string, unknown>

interface ExampleCase {
  pointer: string
  schema: unknown
  value: unknown
}

/** Every example in a dereferenced spec, paired with the schema it must satisfy. */
function collectExamples(doc: Json): ExampleCase[] {
  const cases: ExampleCase[] = []
  const seen = new Set<unknown>()
  const walk = (node: unknown, pointer: string) => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return
    seen.add(node)
    const obj = node as Json
    // Media types and parameters: `example` or `examples.*.value` against `schema`.
    if (obj.schema && typeof obj.schema === 'object' && !pointer.includes('/properties/')) {
      if (obj.example !== undefined)
        cases.push({ pointer: `${pointer}/example`, schema: obj.schema, value: obj.example })
      for (const [name, ex] of Object.entries((obj.examples ?? {}) as Json))
        cases.push({ pointer: `${pointer}/examples/${name}`, schema: obj.schema, value: (ex as Json).value })
    }
    // Schemas: JSON Schema `examples` array against the schema itself.
    if (Array.isArray(obj.examples) && (obj.type || obj.properties || obj.allOf)) {
      obj.examples.forEach((value, i) => cases.push({ pointer: `${pointer}/examples/${i}`, schema: obj, value }))
    }
    for (const [key, value] of Object.entries(obj))
      walk(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`)
  }
  walk(doc, '#')
  return cases
}

function makeAjv() {
  const ajv = new Ajv2020({ strict: true, allErrors: true })
  addFormats.default(ajv)
  // OpenAPI formats that JSON Schema does not define; they only describe the wire format.
  for (const format of ['int32', 'int64', 'password', 'binary']) ajv.addFormat(format, true)
  return ajv
}

test('every example in the spec validates against its schema', async () => {
  const spec = await loadSpec(SPEC)
  const cases = collectExamples(spec.dereferenced)
  assert.ok(cases.length > 60, `expected many examples, found ${cases.length}`)
  const ajv = makeAjv()
  const failures = cases.flatMap(({ pointer, schema, value }) => {
    const validate = ajv.compile(structuredClone(schema) as Json)
    return validate(value) ? [] : [`${pointer}: ${ajv.errorsText(validate.errors)}`]
  })
  assert.deepEqual(failures, [])
})

test('the example check catches an example that breaks its schema', async () => {
  const spec = await loadSpec(SPEC)
  const doc = structuredClone(spec.dereferenced)
  const media = ((((doc.paths as Json)['/v1/apps'] as Json).post as Json).requestBody as Json).content as Json
  ;((media['application/json'] as Json).example as Json).slug = 'Not A Slug!'
  const ajv = makeAjv()
  const bad = collectExamples(doc).filter(({ schema, value }) => !ajv.compile(structuredClone(schema) as Json)(value))
  assert.deepEqual(
    bad.map((c) => c.pointer),
    ['#/paths/~1v1~1apps/post/requestBody/content/application~1json/example'],
  )
})
