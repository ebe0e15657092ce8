/**
 * `npm run api:diff -- --base <ref>` in a real temporary git repository: the base commit has the
 * contract with a few differences from the working tree, and the printed comment lists each one
 * as the changelog words it, breaking, policy-additive and accepted changes marked. Bad refs and
 * a base without the contract fail with exit code 2 and a message naming them.
 */
import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { parseDocument } from 'yaml'
import { ROOT } from './helpers.ts'

let repo: string

const git = (...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'user.name=Test', '-c', 'user.email=test@ferry.test', '-c', 'commit.gpgsign=false', ...args],
    { cwd: repo, stdio: 'pipe' },
  )

function apiDiff(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), join(ROOT, 'scripts', 'api-diff.ts'), ...args],
    { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString()
  })
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
  })
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })))
}

before(() => {
  repo = mkdtempSync(join(tmpdir(), 'ferry-api-diff-'))
  const contract = readFileSync(join(ROOT, 'openapi/openapi.yaml'), 'utf8')
  git('init', '-q', '-b', 'main')
  writeFileSync(join(repo, 'README.md'), 'no contract yet\n')
  git('add', '.')
  git('commit', '-q', '-m', 'start')
  git('tag', 'no-contract')

  // The base: the health status cannot be `degraded` yet.
  const base = parseDocument(contract)
  base.setIn(['components', 'schemas', 'Health', 'properties', 'status', 'enum'], base.createNode(['ok']))
  mkdirSync(join(repo, 'openapi'))
  writeFileSync(join(repo, 'openapi/openapi.yaml'), base.toString())
  // Two frozen versions: 0.0 had the base's contract, 0.1 the current one.
  writeFileSync(
    join(repo, 'versions.json'),
    JSON.stringify({
      versions: [
        { id: '0.1', label: '0.1', frozen: '2026-11-22', pages: [] },
        { id: '0.0', label: '0.0', frozen: '2026-11-01', pages: [] },
      ],
    }),
  )
  mkdirSync(join(repo, 'openapi/versions'))
  writeFileSync(join(repo, 'openapi/versions/0.0.yaml'), base.toString())
  writeFileSync(join(repo, 'openapi/versions/0.1.yaml'), contract)
  git('add', '.')
  git('commit', '-q', '-m', 'base')

  // The pull request: /v1/whoami moves to /v1/me (accepted), listApps needs a new query parameter,
  // and the health status gains `degraded` (the current contract's enum).
  const head = parseDocument(contract)
  const whoami = head.getIn(['paths', '/v1/whoami'])
  head.deleteIn(['paths', '/v1/whoami'])
  head.setIn(['paths', '/v1/me'], whoami)
  head.addIn(
    ['paths', '/v1/apps', 'get', 'parameters'],
    head.createNode({ name: 'q', in: 'query', required: true, schema: { type: 'string' } }),
  )
  head.addIn(
    ['x-ferry-accepted-breaking-changes'],
    head.createNode({
      since: '0.1',
      location: 'operation',
      what: 'removed',
      reason: 'whoami moved to /v1/me before any client used it',
    }),
  )
  writeFileSync(join(repo, 'openapi/openapi.yaml'), head.toString())
})

after(() => rmSync(repo, { recursive: true, force: true }))

test('prints the changes of the working tree against the base, in the changelog model', async () => {
  const { code, stdout, stderr } = await apiDiff(['--base', 'main'])
  assert.equal(code, 0, stderr)
  const lines = stdout.split('\n')
  assert.equal(lines[0], '<!-- ferry-api-diff -->')
  assert.ok(
    lines.includes(
      'Compared with `main`; contract version `1.0.0` → `1.0.0`. Operations: 1 added, 2 changed, 1 removed; **2 operations with breaking changes** (1 accepted).',
    ),
    stdout,
  )
  const section = (heading: string) => stdout.split(`#### ${heading}\n\n`)[1]?.split('\n\n')[0]?.trimEnd() ?? ''
  assert.equal(
    section('Added operations'),
    `- [\`GET /v1/me\`](https://ferry.example.org/docs/api/info/whoami) ${summaryOf('whoami')} (\`whoami\`)`,
  )
  assert.match(
    section('Changed operations'),
    /^- \*\*Breaking:\*\* \[`GET \/v1\/apps`\]\(https:\/\/ferry\.example\.org\/docs\/api\/apps\/[a-z-]+\) .+ \(`listApps`\)\n {2}- \*\*Breaking:\*\* query parameter `q`: added$/m,
  )
  assert.match(
    section('Changed operations'),
    /^ {2}- response 200 member `status`: enum value `degraded` added \(flagged breaking by the diff, additive under Ferry's versioning policy: a new enum value of a response member is additive in \/v1/m,
  )
  assert.equal(section('Removed operations'), '- **Breaking (accepted):** `GET /v1/whoami`')
})

test('--site-url makes the links point at another origin', async () => {
  const { stdout } = await apiDiff(['--base', 'main', '--site-url', 'https://preview.example.net/'])
  assert.match(stdout, /\[`GET \/v1\/me`\]\(https:\/\/preview\.example\.net\/docs\/api\/info\//)
})

test('a base equal to the working tree has no changes', async () => {
  git('stash')
  try {
    const { code, stdout } = await apiDiff(['--base', 'HEAD'])
    assert.equal(code, 0)
    assert.match(stdout, /Operations: 0 added, 0 changed, 0 removed; none breaking\.\n\nNo changes to operations\.\n$/)
  } finally {
    git('stash', 'pop')
  }
})

test('a ref that names no commit, or a commit without the contract, is exit code 2 naming it', async () => {
  const bad = await apiDiff(['--base', 'origin/nope'])
  assert.equal(bad.code, 2)
  assert.match(
    bad.stderr,
    /^api:diff: git ref "origin\/nope" does not name a commit in .+ \(fetch it first; in GitHub Actions check out with fetch-depth: 0\)\n$/,
  )
  assert.equal(bad.stdout, '')
  const early = await apiDiff(['--base', 'no-contract'])
  assert.equal(early.code, 2)
  assert.match(early.stderr, /^api:diff: git ref "no-contract" has no openapi\/openapi\.yaml: /)
  const missing = await apiDiff([])
  assert.equal(missing.code, 2)
  assert.match(missing.stderr, /--base <git ref> is required/)
})

test('--from-version and --to-version compare two frozen versions', async () => {
  const { code, stdout, stderr } = await apiDiff(['--from-version', '0.0', '--to-version', '0.1'])
  assert.equal(code, 0, stderr)
  assert.match(
    stdout,
    /^`version 0\.1` compared with `version 0\.0`; contract version `1\.0\.0` → `1\.0\.0`\. Operations: 0 added, 1 changed, 0 removed; none breaking\.$/m,
  )
  assert.match(
    stdout,
    /^- \[`GET \/v1\/health`\]\(https:\/\/ferry\.example\.org\/docs\/api\/info\/health\) .+\n {2}- response 200 member `status`: enum value `degraded` added \(flagged breaking/m,
  )
})

test('--from-version alone compares the working tree with it; its acceptances are its own', async () => {
  const { code, stdout, stderr } = await apiDiff(['--from-version', '0.0'])
  assert.equal(code, 0, stderr)
  // The removal is accepted against 0.1 only, so against 0.0 it is plainly breaking.
  assert.match(stdout, /^- \*\*Breaking:\*\* `GET \/v1\/whoami`$/m)
  assert.match(stdout, /Compared with `version 0\.0`;/)
})

test('an unknown version or a mix of flags is exit code 2 naming the problem', async () => {
  const unknown = await apiDiff(['--from-version', '9.9'])
  assert.equal(unknown.code, 2)
  assert.match(
    unknown.stderr,
    /^api:diff: --from-version: no frozen version "9\.9" in versions\.json \(it has 0\.1, 0\.0\)\n/,
  )
  const both = await apiDiff(['--base', 'main', '--from-version', '0.0'])
  assert.match(both.stderr, /^api:diff: give --base or --from-version, not both/)
  const toOnly = await apiDiff(['--to-version', '0.1'])
  assert.match(toOnly.stderr, /--base <git ref> is required/)
})

function summaryOf(operationId: string): string {
  const doc = parseDocument(readFileSync(join(ROOT, 'openapi/openapi.yaml'), 'utf8')).toJS() as {
    paths: Record<string, Record<string, { operationId?: string; summary?: string }>>
  }
  for (const item of Object.values(doc.paths))
    for (const op of Object.values(item)) if (op.operationId === operationId) return op.summary ?? ''
  return ''
}
