/** Reads the static export (out/) as a map of routes to their HTML. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

export type BuiltPage = { route: string; file: string; html: string }
export type BuiltSite = { outDir: string; pages: Map<string, BuiltPage>; files: Set<string> }

/** 'index.html' -> '/', 'docs/intro.html' -> '/docs/intro', 'docs/api/index.html' -> '/docs/api'. */
export function routeOf(file: string): string {
  const path =
    '/' +
    file
      .split(sep)
      .join('/')
      .replace(/\.html$/, '')
      .replace(/(^|\/)index$/, '')
  return path === '/' ? '/' : path.replace(/\/$/, '')
}

function walk(dir: string, root: string, out: string[]) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) walk(full, root, out)
    else out.push(relative(root, full))
  }
}

export function readBuiltSite(outDir: string): BuiltSite {
  if (!existsSync(outDir)) throw new Error(`no build output at ${outDir}: run next build first`)
  const all: string[] = []
  walk(outDir, outDir, all)
  const pages = new Map<string, BuiltPage>()
  const files = new Set<string>()
  for (const file of all) {
    files.add('/' + file.split(sep).join('/'))
    if (file.endsWith('.html') && !file.startsWith('_next')) {
      const route = routeOf(file)
      pages.set(route, { route, file, html: readFileSync(join(outDir, file), 'utf8') })
    }
  }
  return { outDir, pages, files }
}

/** Pages a reader can reach (error pages excluded). */
export function publicRoutes(site: BuiltSite): string[] {
  return [...site.pages.keys()].filter((r) => r !== '/404' && r !== '/500').sort()
}
