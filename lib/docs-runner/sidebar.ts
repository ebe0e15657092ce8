/**
 * @module The guides and posts in the order a reader meets them in the sidebar: the docs as
 * `pages/docs/_meta.ts` lists them (a folder right after the page of the same name, entries
 * missing from `_meta.ts` alphabetically after, as in Nextra), then the blog's posts as
 * `pages/blog/_meta.ts` lists them, then any other page the docs tests check.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, posix } from 'node:path'
import { pathToFileURL } from 'node:url'
import { guidePages } from './pages.ts'

const PAGE = /\.mdx?$/

async function metaKeys(dir: string): Promise<string[]> {
  const file = join(dir, '_meta.ts')
  if (!existsSync(file)) return []
  const meta = ((await import(pathToFileURL(file).href)) as { default: Record<string, unknown> }).default
  return Object.keys(meta)
}

/** Files of `wanted` under `dir` (relative to `root`, with `/`), in the sidebar's order. */
async function sidebarFiles(root: string, dir: string, wanted: readonly string[]): Promise<string[]> {
  const names = readdirSync(join(root, dir)).filter((n) => !n.startsWith('_') && !n.startsWith('.'))
  const keys = [...new Set([...(await metaKeys(join(root, dir))), ...names.map((n) => n.replace(PAGE, '')).sort()])]
  const files: string[] = []
  for (const key of keys) {
    const page = names.find((n) => PAGE.test(n) && n.replace(PAGE, '') === key)
    if (page && wanted.includes(posix.join(dir, page))) files.push(posix.join(dir, page))
    const sub = posix.join(dir, key)
    if (names.includes(key) && wanted.some((f) => f.startsWith(`${sub}/`)) && statSync(join(root, sub)).isDirectory())
      files.push(...(await sidebarFiles(root, sub, wanted)))
  }
  return files
}

/** `guidePages(root)` in sidebar order. */
export async function pagesInSidebarOrder(root: string): Promise<string[]> {
  const guides = guidePages(root)
  const ordered = [
    ...(await sidebarFiles(root, 'pages/docs', guides)),
    ...(await sidebarFiles(root, 'pages/blog', guides)),
  ]
  return [...ordered, ...guides.filter((file) => !ordered.includes(file))]
}
