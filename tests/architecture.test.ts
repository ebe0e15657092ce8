/**
 * The architecture's invariants (ARCHITECTURE.md, "Code map"), as `.dependency-cruiser.cjs` states
 * them: no import cycles (type-only imports included), server/'s folders in one order (no upward or
 * two-way folder import), storage self-contained, renderers that never query, node: only at the
 * edges, lib/ apart from server/ and mcp/, mcp/ in through one entry, contract/ self-contained.
 * One test per rule, each failing with every offending import named.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import test from 'node:test'
import { promisify } from 'node:util'

const ROOT = join(import.meta.dirname, '..')
const SCANNED = ['server', 'lib', 'scripts', 'components', 'pages', 'tests', 'e2e', 'contract', 'mcp', 'services']

interface Violation {
  rule: { name: string }
  from: string
  to: string
  cycle?: Array<{ name: string }>
}

interface Cruise {
  violations: Violation[]
  /** The files cruised (node_modules too, not followed). */
  sources: string[]
  /** Each cruised file's imports, resolved. */
  imports: Array<{ from: string; to: string[] }>
}

/** dependency-cruiser with the project's rules over `dirs` of `cwd` (the repository by default). */
async function cruise(dirs = SCANNED, cwd = ROOT): Promise<Cruise> {
  const cli = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs')
  // Exit code 1 only means "violations found": the JSON on stdout says which.
  const run = promisify(execFile)(
    process.execPath,
    [cli, '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json', ...dirs],
    {
      cwd,
      maxBuffer: 256 * 1024 * 1024,
    },
  ).catch((error: { stdout?: string; stderr?: string }) => {
    if (!error.stdout) throw new Error(`dependency-cruiser failed: ${error.stderr ?? String(error)}`)
    return { stdout: error.stdout }
  })
  const report: unknown = JSON.parse((await run).stdout)
  const { summary, modules } = report as {
    summary?: { violations?: Violation[] }
    modules?: Array<{ source: string; dependencies: Array<{ resolved: string }> }>
  }
  assert.ok(Array.isArray(summary?.violations), 'dependency-cruiser printed no summary.violations')
  return {
    violations: summary.violations,
    sources: (modules ?? []).map((m) => m.source),
    imports: (modules ?? []).map((m) => ({ from: m.source, to: m.dependencies.map((d) => d.resolved) })),
  }
}

const describe = (v: Violation) =>
  v.cycle?.length ? `${v.from} → ${v.cycle.map((c) => c.name).join(' → ')}` : `${v.from} → ${v.to}`

const cruised = cruise()
const violations = cruised.then((c) => c.violations)
const require = createRequire(import.meta.url)
const config = require(join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: Array<{ name: string; comment: string }> }
/** A rule may be written as several entries of one name (`folder-order`: one per folder); each name is one test. */
const rules = config.forbidden.filter((r, i, all) => all.findIndex((o) => o.name === r.name) === i)

for (const rule of rules) {
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

test('architecture: the rules see the whole tree (every scanned folder, the server in full)', async () => {
  const { sources } = await cruised
  const under = (dir: string) => sources.filter((s) => s.startsWith(`${dir}/`)).length
  assert.deepEqual(
    SCANNED.filter((dir) => under(dir) === 0),
    [],
    'scanned folders of which no file was cruised',
  )
  const serverFiles = (await sourceFiles('server')).length
  assert.ok(under('server') >= serverFiles, `${under('server')} files of server/ cruised, of ${serverFiles}`)
})

/**
 * Folders of server/, at any depth, that import each other (`a ⇄ b`). `folder-order` orders the
 * top-level folders; this also holds for the rooms inside one (storage/drivers and storage/migrations, say).
 */
function twoWayFolders(imports: Cruise['imports']): string[] {
  const pairs = new Set<string>()
  for (const { from, to } of imports)
    for (const target of to)
      if (from.startsWith('server/') && target.startsWith('server/') && dirname(from) !== dirname(target))
        pairs.add(`${dirname(from)} ⇄ ${dirname(target)}`)
  return [...pairs].filter((p) => {
    const [a = '', b = ''] = p.split(' ⇄ ')
    return a < b && pairs.has(`${b} ⇄ ${a}`)
  })
}

test('architecture: no two folders of server/ import each other, at any depth', async () => {
  const control = twoWayFolders([
    { from: 'server/storage/drivers/a.ts', to: ['server/storage/migrations/m.ts'] },
    { from: 'server/storage/migrations/m.ts', to: ['server/storage/drivers/d.ts'] },
  ])
  assert.deepEqual(control, ['server/storage/drivers ⇄ server/storage/migrations'], 'the check sees a two-way pair')
  const { imports } = await cruised
  assert.deepEqual(twoWayFolders(imports), [], 'folders that import each other')
})

/** One import per rule that the rule must flag, in a throwaway tree laid out like the repository. */
const BREAKING: Record<string, Record<string, string>> = {
  'no-cycle': { 'server/loop/a.ts': "import './b.ts'", 'server/loop/b.ts': "import './a.ts'" },
  'storage-self-contained': { 'server/storage/s.ts': "import '../routes/r.ts'" },
  'protocols-render-only': { 'server/protocols/p.ts': "import '../storage/clean.ts'" },
  // A feature importing the edge, and the upward half of a two-way folder pair (webhooks/w.ts → cache/ is the other half).
  'folder-order': { 'server/auth/a.ts': "import '../http/h.ts'", 'server/cache/c.ts': "import '../webhooks/leaf.ts'" },
  'node-only-at-edges': { 'server/updates/n.ts': "import 'node:fs'" },
  'lib-not-server': { 'lib/l.ts': "import '../server/routes/r.ts'" },
  'lib-not-mcp': { 'lib/m.ts': "import '../mcp/x.ts'" },
  'mcp-one-entry': { 'mcp/m.ts': "import '../server/routes/r.ts'" },
  'codegen-below-changelog': { 'lib/codegen/c.ts': "import '../api-changelog/a.ts'" },
  'contract-self-contained': { 'contract/c.ts': "import '../lib/plain.ts'" },
  'scripts-not-tests': { 'scripts/s.ts': "import '../tests/t.ts'" },
}

test('architecture: each rule flags an import that breaks it (a positive control)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ferry-architecture-'))
  try {
    const leaves = [
      'server/routes/r.ts',
      'server/storage/clean.ts',
      'server/http/h.ts',
      'server/webhooks/leaf.ts',
      'server/cache/leaf.ts',
      'lib/api-changelog/a.ts',
    ]
    const files: Record<string, string> = Object.fromEntries(
      [...leaves, 'lib/plain.ts', 'mcp/x.ts', 'tests/t.ts'].map((f) => [f, 'export {}']),
    )
    files['server/webhooks/w.ts'] = "import '../cache/leaf.ts'"
    for (const rule of Object.values(BREAKING)) Object.assign(files, rule)
    for (const [file, text] of Object.entries(files)) {
      await mkdir(join(dir, dirname(file)), { recursive: true })
      await writeFile(join(dir, file), `${text}\nexport {}\n`)
    }
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true } }),
    )
    const { violations: found } = await cruise(['server', 'lib', 'mcp', 'contract', 'scripts', 'tests'], dir)
    assert.deepEqual(
      Object.keys(BREAKING).sort(),
      rules.map((r) => r.name).sort(),
      'every rule of .dependency-cruiser.cjs has its breaking import here',
    )
    for (const [name, breaking] of Object.entries(BREAKING)) {
      const flagged = found.filter((v) => v.rule.name === name).map((v) => v.from)
      // A cycle may be reported at either of its files; folder-order must flag each import it lists.
      const seen =
        name === 'folder-order'
          ? Object.keys(breaking).every((f) => flagged.includes(f))
          : Object.keys(breaking).some((f) => flagged.includes(f))
      assert.ok(
        seen,
        `rule ${name} did not flag ${Object.keys(breaking).join(', ')} (flagged: ${flagged.join(', ') || 'nothing'})`,
      )
    }
    assert.deepEqual(
      found.map((v) => v.from).filter((f) => !Object.values(BREAKING).some((b) => f in b)),
      [],
      'nothing else is flagged',
    )
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

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
    if (file.startsWith('server/storage/')) continue
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
