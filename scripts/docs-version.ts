/**
 * `npm run docs:version <id>` freezes the current guides as docs version <id>:
 * copies pages/docs (not the generated API reference, not older versions) to
 * pages/docs/<id>/, points their internal links at the copy, and records the version
 * and its pages in versions.json with the day it was frozen. Only guides are copied, so unversioned
 * pages cost nothing. The API contract is copied too, to openapi/versions/<id>.yaml: the API
 * changelog (lib/api-changelog) compares the current contract with it.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { snapshotFile } from '../lib/api-changelog/history.ts'
import type { DocsVersion } from '../lib/docs-versions.ts'

const root = resolve(import.meta.dirname, '..')
const docsDir = join(root, 'pages/docs')
const versionsPath = join(root, 'versions.json')
const specPath = join(root, 'openapi/openapi.yaml')

/** Points markdown and JSX links at current docs to the same page in version <id>; the API reference stays shared. */
export function rewriteDocsLinks(source: string, id: string): string {
  return source.replace(/(\]\(|href=["'])\/docs(?=[/)"'#]|$)(?!\/api(?:[/)"'#]|$))/gm, `$1/docs/${id}`)
}

export function rewriteRelativeImports(source: string, fromFile: string, toFile: string): string {
  return source.replace(/(from\s+|import\s+)(['"])(\.{1,2}\/[^'"]+)\2/g, (_m, kw: string, q: string, spec: string) => {
    const absolute = resolve(dirname(fromFile), spec)
    let rel = relative(dirname(toFile), absolute)
    if (!rel.startsWith('.')) rel = `./${rel}`
    return `${kw}${q}${rel}${q}`
  })
}

export function markUnsearchable(source: string, id: string): string {
  const fm = /^---\n([\s\S]*?)\n---\n/.exec(source)
  const extra = `searchable: false\ndocsVersion: "${id}"`
  if (!fm) return `---\n${extra}\n---\n\n${source}`
  return source.replace(fm[0], `---\n${fm[1]}\n${extra}\n---\n`)
}

function listPages(dir: string, skip: Set<string>, prefix = ''): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) {
      if (!prefix && skip.has(name)) continue
      out.push(...listPages(full, skip, `${prefix}${name}/`))
    } else if (/\.mdx?$/.test(name) || name === '_meta.ts') {
      out.push(`${prefix}${name}`)
    }
  }
  return out
}

async function metaWithoutUnversioned(file: string, skip: Set<string>): Promise<string> {
  const meta = (await import(pathToFileURL(file).href)).default as Record<string, unknown>
  const kept = Object.fromEntries(
    Object.entries(meta).filter(([key, value]) => {
      if (skip.has(key)) return false
      const type = (value as { type?: string } | null)?.type
      return type !== 'separator' && type !== 'page'
    }),
  )
  // The API reference is not versioned; the frozen sidebar links to the live one.
  if ('api' in meta) kept['api'] = { title: 'API reference', href: '/docs/api' }
  return `export default ${JSON.stringify(kept, null, 2)}\n`
}

async function main() {
  const id = process.argv[2]
  if (!id || !/^\d+(\.\d+){0,2}$/.test(id)) {
    console.error('usage: npm run docs:version <id>   (e.g. 1.0; digits and dots only)')
    process.exit(2)
  }
  const file = JSON.parse(readFileSync(versionsPath, 'utf8')) as { versions: DocsVersion[] }
  if (
    file.versions.some((v) => v.id === id) ||
    existsSync(join(docsDir, id)) ||
    existsSync(join(root, snapshotFile(id)))
  ) {
    console.error(
      `docs:version: version ${id} already exists (versions.json, pages/docs/${id}/ or ${snapshotFile(id)})`,
    )
    process.exit(1)
  }
  const skip = new Set(['api', ...file.versions.map((v) => v.id)])
  const files = listPages(docsDir, skip)
  for (const rel of files) {
    const from = join(docsDir, rel)
    const to = join(docsDir, id, rel)
    mkdirSync(dirname(to), { recursive: true })
    if (rel === '_meta.ts') {
      writeFileSync(to, await metaWithoutUnversioned(from, skip))
      continue
    }
    let text = readFileSync(from, 'utf8')
    if (rel.endsWith('.ts')) {
      writeFileSync(to, text)
      continue
    }
    text = markUnsearchable(rewriteRelativeImports(rewriteDocsLinks(text, id), from, to), id)
    writeFileSync(to, text)
  }
  const pages = files
    .filter((f) => /\.mdx?$/.test(f))
    .map((f) =>
      f
        .replace(/\.mdx?$/, '')
        .replace(/\/index$/, '')
        .replace(/^index$/, ''),
    )
    .sort((a, b) => (a === 'intro' ? -1 : b === 'intro' ? 1 : a.localeCompare(b)))
  mkdirSync(dirname(join(root, snapshotFile(id))), { recursive: true })
  copyFileSync(specPath, join(root, snapshotFile(id)))
  // Stored rather than read from git later, so the changelog and its feed are the same in any checkout.
  const frozen = new Date().toISOString().slice(0, 10)
  file.versions.unshift({ id, label: id, frozen, pages })
  writeFileSync(versionsPath, `${JSON.stringify(file, null, 2)}\n`)
  console.log(
    `docs:version: froze ${pages.length} pages as ${id} in pages/docs/${id}/, the contract in ${snapshotFile(id)}, and versions.json; run \`npm run gen\` for the API changelog`,
  )
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) await main()
