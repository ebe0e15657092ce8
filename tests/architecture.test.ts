/**
 * The architecture's invariants (ARCHITECTURE.md, "Code map"), as `.dependency-cruiser.cjs` states
 * them: no import cycles (type-only imports included), storage self-contained, renderers that never
 * query, http/ on top, node: only at the edges, lib/ apart from server/. One test per rule, each
 * failing with every offending import named.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readdir, readFile, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import test from 'node:test'
import { promisify } from 'node:util'

const ROOT = join(import.meta.dirname, '..')
const SCANNED = [
  'server',
  'lib',
  'scripts',
  'components',
  'pages',
  'tests',
  'e2e',
  'json-pointer',
  'artifact-files',
  'contract-check',
  'mcp',
  'services',
]

interface Violation {
  rule: { name: string }
  from: string
  to: string
  cycle?: Array<{ name: string }>
}

async function cruise(): Promise<Violation[]> {
  const cli = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs')
  // Exit code 1 only means "violations found": the JSON on stdout says which.
  const run = promisify(execFile)(
    process.execPath,
    [cli, '--config', '.dependency-cruiser.cjs', '--output-type', 'json', ...SCANNED],
    {
      cwd: ROOT,
      maxBuffer: 256 * 1024 * 1024,
    },
  ).catch((error: { stdout?: string; stderr?: string }) => {
    if (!error.stdout) throw new Error(`dependency-cruiser failed: ${error.stderr ?? String(error)}`)
    return { stdout: error.stdout }
  })
  const report: unknown = JSON.parse((await run).stdout)
  const violations = (report as { summary?: { violations?: Violation[] } }).summary?.violations
  assert.ok(Array.isArray(violations), 'dependency-cruiser printed no summary.violations')
  return violations
}

const describe = (v: Violation) =>
  v.cycle?.length ? `${v.from} → ${v.cycle.map((c) => c.name).join(' → ')}` : `${v.from} → ${v.to}`

const violations = cruise()
const require = createRequire(import.meta.url)
const config = require(join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: Array<{ name: string; comment: string }> }

for (const rule of config.forbidden) {
  const known = async () => (await violations).filter((v) => v.rule.name === rule.name)
  test(`architecture: ${rule.comment}`, async () => {
    const found = await known()
    assert.deepEqual(
      found.map(describe),
      [],
      `${found.length} import(s) break rule ${rule.name} (.dependency-cruiser.cjs)`,
    )
  })
}

test('architecture: the code map of ARCHITECTURE.md names each folder of server/, and only folders that exist', async () => {
  const map = await readFile(join(ROOT, 'ARCHITECTURE.md'), 'utf8')
  const mapped = [...map.matchAll(/^### (.+)$/gm)].flatMap((m) =>
    [...(m[1] ?? '').matchAll(/`([\w./-]+)\/`/g)].map((n) => n[1] ?? ''),
  )
  const folders = (await readdir(join(ROOT, 'server'), { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => `server/${e.name}`)
  assert.deepEqual(
    folders.filter((f) => !mapped.includes(f)),
    [],
    'folders of server/ without a section in the code map',
  )
  const missing = []
  for (const folder of mapped)
    if (!(await stat(join(ROOT, folder)).catch(() => null))?.isDirectory()) missing.push(folder)
  assert.deepEqual(missing, [], 'code map sections naming folders that do not exist')
})

/**
 * Files outside server/storage/ that still run queries themselves, being moved into storage
 * modules area by area (issue 25). The list only shrinks: a new file with a query fails, and so
 * does a listed file that no longer has one (take it off the list).
 */
const QUERIES_NOT_YET_IN_STORAGE: string[] = []

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const entry of await readdir(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) out.push(...(await sourceFiles(path)))
    else if (entry.name.endsWith('.ts')) out.push(path)
  }
  return out
}

test('architecture: SQL lives in server/storage/ (query builders are called there, and in the shrinking list of files not yet moved)', async () => {
  const querying: string[] = []
  for (const file of await sourceFiles('server')) {
    if (file.startsWith('server/storage/') || file.startsWith('server/generated/')) continue
    if (
      /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(/.test(
        await readFile(join(ROOT, file), 'utf8'),
      )
    )
      querying.push(file)
  }
  assert.deepEqual(
    querying.filter((f) => !QUERIES_NOT_YET_IN_STORAGE.includes(f)),
    [],
    'files that query outside server/storage/: move the SQL into a storage module',
  )
  assert.deepEqual(
    QUERIES_NOT_YET_IN_STORAGE.filter((f) => !querying.includes(f)),
    [],
    'listed files that no longer query: take them off QUERIES_NOT_YET_IN_STORAGE',
  )
})
