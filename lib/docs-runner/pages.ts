/** @module The pages whose code blocks are checked: guides, blog posts, the home page and the plain Markdown page (not the frozen versions or the generated API reference). */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { extractBlocks, type CodeBlock } from './extract.ts'

const DIRS = ['pages/docs', 'pages/docs/getting-started', 'pages/docs/migrating', 'pages/blog']
const FILES = ['pages/index.mdx', 'pages/markdown-page.md']

export function guidePages(repoRoot: string): string[] {
  const pages = DIRS.flatMap((dir) =>
    readdirSync(join(repoRoot, dir), { withFileTypes: true })
      .filter((e) => e.isFile() && /\.mdx?$/.test(e.name))
      .map((e) => `${dir}/${e.name}`),
  )
  return [...pages, ...FILES].sort()
}

/** Whether `page` (from the repository root) is one of the pages `guidePages` lists, by its path alone. */
export function isGuidePage(page: string): boolean {
  return (DIRS.includes(dirname(page)) && /\.mdx?$/.test(page)) || FILES.includes(page)
}

export function pageBlocks(repoRoot: string, page: string): CodeBlock[] {
  return extractBlocks(page, readFileSync(join(repoRoot, page), 'utf8'))
}

/** The quickstarts (`pages/docs/quickstart-*.mdx`), whose top shows how long their commands take (lib/quickstart-timings.ts). */
export function quickstartPages(repoRoot: string): string[] {
  return guidePages(repoRoot).filter((page) => /^pages\/docs\/quickstart-[^/]+\.mdx$/.test(page))
}
