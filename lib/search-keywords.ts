/**
 * Front matter `keywords` into the search index. Nextra's index (nextra-data-<locale>.json, written
 * by `next build`) holds each page's title and text; a page's keywords are the names it is the
 * place for without having them in its title (the Updaters guide for `latest.yml`), and the
 * site's search ranks a page whose keyword matches like one whose title does
 * (components/search/search-index.ts). Run by postbuild.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readFrontMatter } from './front-matter-yaml.ts'
import { pageFiles, routeOfSource } from './site-check/sources.ts'

/** Route -> keywords of every .md/.mdx page under pagesDir that has them. */
export function keywordsOfPages(pagesDir: string): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const file of pageFiles(pagesDir).filter((f) => /\.mdx?$/.test(f))) {
    const { keywords } = readFrontMatter(readFileSync(file, 'utf8')).data
    if (Array.isArray(keywords) && keywords.length > 0) found.set(routeOfSource(pagesDir, file), keywords.map(String))
  }
  return found
}

/** Adds the keywords to each search index file of the export; returns how many pages got some. */
export function addSearchKeywords(outDir: string, pagesDir: string): number {
  const chunks = join(outDir, '_next', 'static', 'chunks')
  if (!existsSync(chunks)) return 0
  const keywords = keywordsOfPages(pagesDir)
  let added = 0
  for (const name of readdirSync(chunks).filter((n) => /^nextra-data-.*\.json$/.test(n))) {
    const file = join(chunks, name)
    const index = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { keywords?: string[] }>
    for (const [route, entry] of Object.entries(index)) {
      const words = keywords.get(route)
      if (!words) continue
      entry.keywords = words
      added++
    }
    writeFileSync(file, JSON.stringify(index))
  }
  return added
}
