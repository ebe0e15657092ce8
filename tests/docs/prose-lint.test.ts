/**
 * `npm run lint:prose` (textlint with the repository's .textlintrc.json) names each problem by
 * file:line, and leaves code blocks and inline code alone.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { test } from 'node:test'

const root = join(import.meta.dirname, '..', '..')
const fixture = join(import.meta.dirname, 'fixtures', 'prose', 'bad.mdx')

test('the prose linter fails a bad page and names file:line for each problem, skipping code', () => {
  const run = spawnSync(join(root, 'node_modules', '.bin', 'textlint'), ['--format', 'unix', fixture], {
    cwd: root,
    encoding: 'utf8',
  })
  assert.equal(run.status, 1, `textlint should fail the fixture:\n${run.stdout}${run.stderr}`)
  const problems = run.stdout
    .split('\n')
    .filter((l) => l.startsWith(fixture))
    .map((l) => l.slice(fixture.length + 1).replace(/^(\d+):\d+: /, '$1 '))
  assert.deepEqual(problems, [
    '10 "very" is a weasel word [Error/write-good]',
    "12 Found TODO: 'TODO: describe the rollout.' [Error/no-todo]",
    '14 Incorrect term: “Postgres”, use “PostgreSQL” instead [Error/terminology]',
    '16 Line 16 sentence length(454) exceeds the maximum sentence length of 400.',
  ])
})
