/**
 * @module The hand-written docs pages in sidebar order, with the title and description the site
 * shows: front matter (read with gray-matter, as Nextra does), else the `_meta.ts` title.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import matter from 'gray-matter'
import { docsFrontMatterProblems } from '../docs-front-matter.ts'

export interface DocsPage {
  route: string
  /** Relative to the repository root, with `/`. */
  file: string
  title: string
  description: string
  source: string
}

type MetaEntry = string | { title?: string; type?: string; display?: string; href?: string }

async function readMeta(dir: string): Promise<Record<string, MetaEntry>> {
  const file = ['_meta.ts', '_meta.js'].map((name) => path.join(dir, name)).find(existsSync)
  if (!file) return {}
  return ((await import(pathToFileURL(file).href)) as { default: Record<string, MetaEntry> }).default
}

const PAGE = /\.mdx?$/

/** One page (`file` relative to the root) served at `route`; its front matter is checked, its title required. */
export function readDocsPage(root: string, file: string, route: string, metaTitle?: string): DocsPage {
  const source = readFileSync(path.join(root, file), 'utf8')
  const data = matter(source).data as { title?: unknown; description?: unknown }
  const problem = docsFrontMatterProblems(data)[0]
  if (problem) throw new Error(`${file}: front matter field=${problem.field}: ${problem.message}`)
  const title = typeof data.title === 'string' ? data.title : metaTitle
  if (!title) throw new Error(`${file}: no title in its front matter or in ${path.posix.dirname(file)}/_meta.ts`)
  return { route, file, title, description: typeof data.description === 'string' ? data.description : '', source }
}

/**
 * Pages under `dir` (served at `route`) in the order of its `_meta.ts`, folders right after the
 * page of the same name; entries missing from `_meta.ts` follow alphabetically, as in Nextra.
 */
export async function docsPages(
  root: string,
  dir: string,
  route: string,
  skip: ReadonlySet<string> = new Set(),
): Promise<DocsPage[]> {
  const absolute = path.join(root, dir)
  const meta = await readMeta(absolute)
  const names = readdirSync(absolute).filter((n) => !n.startsWith('_') && !n.startsWith('.'))
  const keys = [...new Set([...Object.keys(meta), ...names.map((n) => n.replace(PAGE, '')).sort()])].filter(
    (k) => !skip.has(k),
  )
  const pages: DocsPage[] = []
  for (const key of keys) {
    const entry = meta[key]
    if (typeof entry === 'object' && (entry.type === 'separator' || entry.href)) continue
    const metaTitle = typeof entry === 'string' ? entry : entry?.title
    const fileName = names.find((n) => PAGE.test(n) && n.replace(PAGE, '') === key)
    if (fileName) {
      pages.push(
        readDocsPage(root, path.posix.join(dir, fileName), key === 'index' ? route : `${route}/${key}`, metaTitle),
      )
    }
    if (names.includes(key) && statSync(path.join(absolute, key)).isDirectory())
      pages.push(...(await docsPages(root, path.posix.join(dir, key), `${route}/${key}`)))
  }
  return pages
}
