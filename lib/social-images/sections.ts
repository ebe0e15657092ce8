/**
 * @module The section line of a page's social card, from the sidebar titles of the folders the
 * page sits in (each folder's title in its parent's `_meta.ts`): `/docs/api/apps/create` →
 * "Documentation › API reference › Apps"; `/blog` (pages/blog/index.mdx) → "Blog". A page outside any
 * folder shows the site's tagline (none on the home page, whose title holds it).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { siteConfig } from '../../site.config.ts'

async function readMeta(folder: string): Promise<Record<string, unknown>> {
  const file = join(folder, '_meta.ts')
  if (!existsSync(file)) return {}
  const loaded: { default?: unknown } = await import(pathToFileURL(file).href)
  return typeof loaded.default === 'object' && loaded.default !== null
    ? Object.fromEntries(Object.entries(loaded.default))
    : {}
}

function titleOf(entry: unknown, fallback: string): string {
  if (typeof entry === 'string') return entry
  if (typeof entry === 'object' && entry !== null && 'title' in entry && typeof entry.title === 'string')
    return entry.title
  return fallback
}

/** The section of each route, `_meta.ts` files read once each. */
export async function sectionsOf(pagesDir: string, routes: Iterable<string>): Promise<Map<string, string>> {
  const metas = new Map<string, Promise<Record<string, unknown>>>()
  function meta(folder: string) {
    let found = metas.get(folder)
    if (!found) metas.set(folder, (found = readMeta(join(pagesDir, folder))))
    return found
  }
  const sections = new Map<string, string>()
  for (const route of routes) {
    const segments = route.split('/').filter(Boolean)
    // An index page (pages/blog/index.mdx at /blog) is in its own folder.
    const folders = existsSync(join(pagesDir, ...segments)) ? segments : segments.slice(0, -1)
    const titles: string[] = []
    for (const [i, name] of folders.entries())
      titles.push(titleOf((await meta(folders.slice(0, i).join('/')))[name], name))
    sections.set(route, titles.length > 0 ? titles.join(' › ') : route === '/' ? '' : siteConfig.tagline)
  }
  return sections
}
