/**
 * @module A temporary checkout the guides run in: the repository's sources copied into a fresh
 * directory that is its own git repository, so `git status` there says what a page left behind
 * that this repository's `.gitignore` does not cover.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Laid out like a checkout, so commands the guides run "from the repository root" (`npm run
 * server`, `npm run ferry`, `node -e …`) work as written. Sources are copied, not linked:
 * node.ts only starts when its path is the one it was invoked by.
 */
const COPIES = [
  'package.json',
  '.nvmrc',
  'tsconfig.json',
  '.env.example',
  '.gitignore',
  'server',
  'contract',
  'scripts',
  'lib/ferry-cli',
  'mcp',
]

/** The MCP docs library, packed once per process as `npm pack` packs it, for each checkout's server to serve at /mcp. */
let packedLibrary: string | undefined
function packMcpLibrary(repoRoot: string): string {
  if (packedLibrary) return packedLibrary
  const dir = mkdtempSync(join(tmpdir(), 'ferry-docs-mcp-'))
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'docs-library.json.gz')
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'scripts', 'pack-mcp-library.ts'), 'write', file],
    { cwd: repoRoot, encoding: 'utf8' },
  )
  if (run.status !== 0) throw new Error(`packing the MCP docs library failed: ${run.stderr.trim()}`)
  return (packedLibrary = file)
}

function git(dir: string, args: string[]): string {
  const run = spawnSync(
    'git',
    ['-C', dir, '-c', 'user.name=docs-runner', '-c', 'user.email=docs-runner@localhost', ...args],
    { encoding: 'utf8' },
  )
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} in ${dir} failed: ${run.stderr.trim()}`)
  return run.stdout
}

export class DocsCheckout {
  readonly dir: string

  /** `name` shows in the directory's name (`ferry-docs-<name>-…`), for whoever finds one left over. */
  constructor(repoRoot: string, name: string) {
    this.dir = mkdtempSync(join(tmpdir(), `ferry-docs-${name.replace(/\W+/g, '-')}-`))
    for (const entry of COPIES) cpSync(join(repoRoot, entry), join(this.dir, entry), { recursive: true })
    // As an installed Ferry has it (.gitignore'd): the checkout has no pages/ to make it from.
    cpSync(packMcpLibrary(repoRoot), join(this.dir, 'mcp', 'docs-library.json.gz'))
    mkdirSync(join(this.dir, 'public'))
    git(this.dir, ['init', '-q'])
    git(this.dir, ['add', '-A'])
    git(this.dir, ['commit', '-q', '--no-gpg-sign', '-m', 'checkout'])
    // A link git would list as untracked: node_modules/ in .gitignore matches directories only.
    writeFileSync(join(this.dir, '.git', 'info', 'exclude'), '/node_modules\n')
    symlinkSync(join(repoRoot, 'node_modules'), join(this.dir, 'node_modules'))
  }

  /** What differs from the copied sources and `.gitignore` does not cover, as `git status --short` lists it. */
  leftovers(): string[] {
    return git(this.dir, ['status', '--porcelain', '--untracked-files=normal']).split('\n').filter(Boolean)
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true })
  }
}
