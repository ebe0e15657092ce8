import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { buildHar, renderSamples } from '../../lib/codegen/samples.ts'
import { loadReal } from './helpers.ts'

const { ctx, tags } = await loadReal()
const operations = tags.flatMap((t) => t.operations)
const dir = mkdtempSync(join(tmpdir(), 'ferry-samples-'))

test('every JavaScript sample parses as an ES module', () => {
  for (const op of operations) {
    const code = renderSamples(buildHar(op, ctx.serverUrl)).find((s) => s.label === 'JavaScript')!.code
    const file = join(dir, `${op.operationId}.mjs`)
    writeFileSync(file, code)
    const run = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' })
    assert.equal(run.status, 0, `${op.operationId}: ${run.stderr}`)
  }
})

test('every Python sample compiles', () => {
  for (const op of operations) {
    const code = renderSamples(buildHar(op, ctx.serverUrl)).find((s) => s.label === 'Python')!.code
    const file = join(dir, `${op.operationId}.py`)
    writeFileSync(file, code)
    const run = spawnSync('python3', ['-m', 'py_compile', file], { encoding: 'utf8' })
    assert.equal(run.status, 0, `${op.operationId}: ${run.stderr}`)
  }
})
