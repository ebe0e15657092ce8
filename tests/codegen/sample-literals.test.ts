import assert from 'node:assert/strict'
import { test } from 'node:test'
import { csharpString, javaString, phpString, rubyString, rustString } from '../../lib/codegen/samples/literals.ts'

test('string literals escape what each language would read otherwise', () => {
  const text = 'a "b" \\ #{c} $d\n\u0001'
  assert.equal(javaString(text), '"a \\"b\\" \\\\ #{c} $d\\n\\001"')
  assert.equal(csharpString(text), '"a \\"b\\" \\\\ #{c} $d\\n\\u0001"')
  assert.equal(rubyString(text), '"a \\"b\\" \\\\ \\#{c} $d\\n\\u{1}"')
  assert.equal(phpString(text), '"a \\"b\\" \\\\ #{c} \\$d\\n\\u{1}"')
  assert.equal(rustString(text), '"a \\"b\\" \\\\ #{c} $d\\n\\u{1}"')
})

test('PHP literals stay single-quoted without control characters', () => {
  assert.equal(phpString("it's $5 \\o/"), "'it\\'s $5 \\\\o/'")
})
