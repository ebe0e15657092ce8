/**
 * Source-level warnings the static export cannot see: two files claiming one route, and
 * markdown links to .md/.mdx files that do not exist. Each names the file.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import matter from 'gray-matter'
import { hasTwin } from '../markdown-twins/routes.ts'

export type SourceWarning = { file: string; message: string }

/** Page sources under `dir`: .md, .mdx, .ts(x), .js(x), without `_` files. */
export function pageFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) pageFiles(full, out)
    else if (/\.(mdx?|tsx?|jsx?)$/.test(name) && !name.startsWith('_')) out.push(full)
  }
  return out
}

export function routeOfSource(pagesDir: string, file: string): string {
  const route =
    '/' +
    relative(pagesDir, file)
      .replace(/\.(mdx?|tsx?|jsx?)$/, '')
      .replace(/(^|\/)index$/, '')
  return route === '/' ? '/' : route.replace(/\/$/, '')
}

/** Every route the pages directory serves, dynamic segments as written (`/blog/tags/[tag]`). */
export function sourceRoutes(pagesDir: string): string[] {
  return pageFiles(pagesDir).map((file) => routeOfSource(pagesDir, file))
}

/** Whether `path` is one of `routes`, a `[param]` segment matching any one segment and `[...param]` the rest. */
export function matchesRoute(routes: readonly string[], path: string): boolean {
  const parts = path.split('/')
  return routes.some((route) => {
    const pattern = route.split('/')
    for (const [i, segment] of pattern.entries()) {
      if (/^\[\[?\.\.\.\w+\]?\]$/.test(segment)) return parts.length > i
      if (parts[i] === undefined || (segment !== parts[i] && !/^\[\w+\]$/.test(segment))) return false
    }
    return parts.length === pattern.length
  })
}

export function findDuplicateRoutes(pagesDir: string): SourceWarning[] {
  const seen = new Map<string, string>()
  const warnings: SourceWarning[] = []
  for (const file of pageFiles(pagesDir).sort()) {
    const route = routeOfSource(pagesDir, file)
    const first = seen.get(route)
    if (first) warnings.push({ file, message: `duplicate route ${route}: also served by ${first}` })
    else seen.set(route, file)
  }
  return warnings
}

/** `/docs/intro.md` is the Markdown twin of pages/docs/intro.mdx (written by postbuild), not a missing file. */
function isTwinLink(pagesDir: string, target: string): boolean {
  if (!target.startsWith('/') || !target.endsWith('.md')) return false
  const route = target.slice(0, -'.md'.length)
  return [`${route}.mdx`, `${route}.md`, `${route}/index.mdx`, `${route}/index.md`].some((page) => {
    const file = join(pagesDir, page)
    return existsSync(file) && hasTwin(`${basename(pagesDir)}${page}`, matter(readFileSync(file, 'utf8')).data)
  })
}

export function findBrokenMarkdownLinks(pagesDir: string): SourceWarning[] {
  const warnings: SourceWarning[] = []
  for (const file of pageFiles(pagesDir).filter((f) => /\.mdx?$/.test(f))) {
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/\]\((\.{0,2}\/?[^)\s#]+\.mdx?)(#[^)\s]*)?\)/g)) {
      const target = m[1]!
      if (/^[a-z]+:/i.test(target) || isTwinLink(pagesDir, target)) continue
      const resolved = target.startsWith('/') ? join(pagesDir, target) : resolve(dirname(file), target)
      if (!existsSync(resolved)) {
        const line = text.slice(0, m.index).split('\n').length
        warnings.push({ file: `${file}:${line}`, message: `markdown link to ${target} does not resolve to a file` })
      }
    }
  }
  return warnings
}
