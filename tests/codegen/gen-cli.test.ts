import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { promisify } from 'node:util'
import { ROOT } from './helpers.ts'

const run = promisify(execFile)
const TSX = join(ROOT, 'node_modules/.bin/tsx')

async function gen(out: string, ...flags: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(TSX, ['scripts/gen-api.ts', '--out', out, ...flags], { cwd: ROOT })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

test('gen is deterministic and --check names stale, missing and extra files', { timeout: 300_000 }, async () => {
  const out = await mkdtemp(join(tmpdir(), 'ferry-gen-'))
  try {
    assert.equal((await gen(out)).code, 0)
    const page = join(out, 'pages/docs/api/apps/create.mdx')
    const first = await readFile(page, 'utf8')
    const postman = await readFile(join(out, 'public/ferry.postman_collection.json'), 'utf8')

    const second = await gen(out)
    assert.equal(second.code, 0)
    assert.match(second.stdout, /0 written, 0 removed/)
    assert.equal(await readFile(page, 'utf8'), first)
    assert.equal(await readFile(join(out, 'public/ferry.postman_collection.json'), 'utf8'), postman)
    // --check passing on an up-to-date tree is the gen:check stage's own run, on the checkout.

    await writeFile(page, first.replace('# Create an app', '# Edited by hand'))
    await rm(join(out, 'contract/generated/api.ts'))
    await mkdir(join(out, 'pages/docs/api/old'), { recursive: true })
    await writeFile(join(out, 'pages/docs/api/old/page.mdx'), '# left over\n')
    const check = await gen(out, '--check')
    assert.equal(check.code, 1)
    assert.match(check.stderr, /stale: pages\/docs\/api\/apps\/create\.mdx/)
    assert.match(check.stderr, /missing: contract\/generated\/api\.ts/)
    assert.match(check.stderr, /extra: pages\/docs\/api\/old\/page\.mdx/)
    assert.doesNotMatch(check.stderr, /apps\/delete\.mdx/)
  } finally {
    await rm(out, { recursive: true, force: true })
  }
})

test('an invalid spec makes gen fail with file, line and pointer', { timeout: 60_000 }, async () => {
  const out = await mkdtemp(join(tmpdir(), 'ferry-gen-'))
  try {
    const result = await gen(out, '--spec', 'tests/codegen/fixtures/missing-ref.yaml')
    assert.equal(result.code, 1)
    assert.match(
      result.stderr,
      /tests\/codegen\/fixtures\/missing-ref\.yaml:15:\d+ at #\/paths\/~1v1~1things\/get\/responses\/200\/content\/application~1json\/schema\/\$ref/,
    )
  } finally {
    await rm(out, { recursive: true, force: true })
  }
})
