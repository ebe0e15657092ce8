/** Docs as tests: blocks that cannot run here are parsed by language, and blocks that show a repository file equal it. */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { guidePages, pageBlocks } from '../../lib/docs-runner/pages.ts'
import { checkSyntax } from '../../lib/docs-runner/syntax.ts'

const root = join(import.meta.dirname, '..', '..')
const blocks = guidePages(root).flatMap((page) => pageBlocks(root, page))

test('every code block of the guides and posts parses as its language', () => {
  const failures = blocks
    .filter((b) => !b.output)
    .flatMap((b) => {
      const problem = checkSyntax(b)
      return problem ? [`${b.page}:${b.line} (${b.lang}): ${problem}`] : []
    })
  assert.deepEqual(failures, [])
})

test('blocks marked file="…" show that repository file exactly', () => {
  const shown = blocks.filter((b) => b.file)
  assert.ok(
    shown.some((b) => b.file === 'Dockerfile') && shown.some((b) => b.file === 'compose.yaml'),
    'docker-development should show the Dockerfile and compose.yaml',
  )
  for (const b of shown) {
    const file = readFileSync(join(root, b.file!), 'utf8').trim()
    assert.equal(b.code.trim(), file, `${b.page}:${b.line}: the block differs from ${b.file}`)
  }
})

test('shell commands in the guides use the port and paths of a default server', () => {
  const runnableUrls = blocks
    .filter((b) => b.runnable && !b.startsServer)
    .flatMap((b) =>
      [...b.code.matchAll(/https?:\/\/(?:127\.0\.0\.1|localhost):(\d+)/g)].map(
        (m) => `${b.page}:${b.line} port ${m[1]}`,
      ),
    )
  assert.deepEqual(
    runnableUrls.filter((u) => !u.endsWith('port 8080')),
    [],
    'runnable blocks call the server on 8080; the runner maps it to its own port',
  )
})
