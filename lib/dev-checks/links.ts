/**
 * @module Markdown links of the page being edited that point at a route no page serves. The
 * routes come from the pages directory (lib/site-check/sources.ts); links to files (`/openapi.yaml`,
 * `/docs/intro.md`), anchors and other sites are left to the build's link check.
 */
import { join } from 'node:path'
import type { Definition, Link, Root, RootContent } from 'mdast'
import type {} from 'mdast-util-mdx'
import remarkFrontmatter from 'remark-frontmatter'
import remarkGfm from 'remark-gfm'
import remarkMdx from 'remark-mdx'
import remarkParse from 'remark-parse'
import { unified } from 'unified'
import { EXTERNAL } from '../site-check/links.ts'
import { matchesRoute, routeOfSource, sourceRoutes } from '../site-check/sources.ts'
import type { PageProblem } from './problem.ts'

const PAGE_EXTENSIONS = ['.mdx', '.md', '.tsx', '.ts', '.jsx', '.js']

/** The page's syntax tree, or undefined when it does not parse (Nextra's own loader reports that). */
function parse(file: string, source: string): Root | undefined {
  const parser = file.endsWith('.mdx') ? unified().use(remarkParse).use(remarkMdx) : unified().use(remarkParse)
  try {
    return parser.use(remarkGfm).use(remarkFrontmatter).parse(source)
  } catch {
    return undefined
  }
}

function linksOf(nodes: readonly (Root | RootContent)[], out: (Link | Definition)[] = []): (Link | Definition)[] {
  for (const node of nodes) {
    if (node.type === 'link' || node.type === 'definition') out.push(node)
    if ('children' in node) linksOf(node.children, out)
  }
  return out
}

/** `root` is the repository root, `file` the page's path from it. */
export function linkProblems(root: string, file: string, source: string): PageProblem[] {
  const tree = parse(file, source)
  if (!tree) return []
  const pagesDir = join(root, 'pages')
  const route = routeOfSource(pagesDir, join(root, file))
  let routes: string[] | undefined
  const problems: PageProblem[] = []
  for (const node of linksOf([tree])) {
    const href = node.url
    if (!node.position || !href || href.startsWith('#') || EXTERNAL.test(href)) continue
    const path = decodeURIComponent(new URL(href, `http://site${route}`).pathname).replace(/\/$/, '') || '/'
    if (/\.[a-z0-9]+$/i.test(path)) continue
    routes ??= sourceRoutes(pagesDir)
    if (matchesRoute(routes, path)) continue
    const { line, column } = node.position.start
    const fixedBy = PAGE_EXTENSIONS.flatMap((ext) => [
      join(pagesDir, `${path}${ext}`),
      join(pagesDir, path, `index${ext}`),
    ])
    problems.push({
      line,
      column,
      message: `broken link ${href}: no page or file at ${path} (no pages${path}.mdx)`,
      fixedBy,
    })
  }
  return problems
}
