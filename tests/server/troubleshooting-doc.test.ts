// backend-matrix: sqlite-only — reads the troubleshooting page; no server
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { PROBLEM_KINDS } from '../../server/core/problem.ts'
import { PROBLEM_BASE } from '../../server/http/problem-response.ts'

const page = readFileSync(join(import.meta.dirname, '../../pages/docs/troubleshooting.mdx'), 'utf8')

test('the troubleshooting guide explains every problem the server emits, under the anchor its type URI names', () => {
  assert.equal(PROBLEM_BASE, 'https://ferry.example.org/docs/troubleshooting#')
  const documented = new Map(
    [...page.matchAll(/^### (\d{3}) (.+?) \[#([a-z-]+)\]$/gm)].map((m) => [
      m[3]!,
      { status: Number(m[1]), title: m[2]! },
    ]),
  )
  for (const [kind, [status, title]] of Object.entries(PROBLEM_KINDS)) {
    assert.deepEqual(documented.get(kind), { status, title }, `troubleshooting.mdx: section for ${kind}`)
  }
  assert.deepEqual(
    [...documented.keys()].sort(),
    Object.keys(PROBLEM_KINDS).sort(),
    'the page documents problems the server never emits',
  )
})
