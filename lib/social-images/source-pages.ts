/**
 * @module Every page's route and document title read from pages/ before `next build`, so the
 * cards can be rendered while Next compiles. The title follows Nextra's order (front matter
 * `title`, else the first `# heading`, else the file name); a page whose built title differs is
 * rendered again after the build (lib/social-images/export.ts), never shown stale.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import matter from 'gray-matter'
import { authorStaticPaths, authorStaticProps, tagStaticPaths, tagStaticProps } from '../blog/routes.ts'
import { documentTitle } from './page-meta.ts'

export type SourcePage = { route: string; documentTitle: string }

const PAGE = /\.mdx?$/

/** The dynamic routes of pages/ and the titles their getStaticProps give (lib/blog/routes.ts). */
const DYNAMIC: Record<string, () => { param: string; title: string }[]> = {
  tag: () =>
    tagStaticPaths().paths.map(({ params }) => ({
      param: params.tag,
      title: tagStaticProps(params.tag).props.__nextra_dynamic_opts.title,
    })),
  author: () =>
    authorStaticPaths().paths.map(({ params }) => ({
      param: params.author,
      title: authorStaticProps(params.author).props.__nextra_dynamic_opts.title,
    })),
}

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) files(full, out)
    else if (PAGE.test(name) && !name.startsWith('_')) out.push(full)
  }
  return out
}

function firstHeading(content: string): string | undefined {
  let fenced = false
  for (const line of content.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    const heading = !fenced && /^# (.+)$/.exec(line.trim())
    if (heading)
      return heading[1]!
        .replace(/&nbsp;/g, '\u00a0')
        .replace(/[*_`]/g, '')
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .trim()
  }
  return undefined
}

function titleFromFileName(name: string): string {
  return name.replace(/[-_]/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase())
}

function pageTitle(file: string, name: string): string {
  const { data, content } = matter(readFileSync(file, 'utf8'))
  const title: unknown = data.title
  return typeof title === 'string' ? title : (firstHeading(content) ?? titleFromFileName(name))
}

export function sourcePages(pagesDir: string): SourcePage[] {
  const pages: SourcePage[] = []
  for (const file of files(pagesDir)) {
    const parts = relative(pagesDir, file).replace(PAGE, '').split(sep)
    const name = parts.at(-1)!
    const param = /^\[(\w+)\]$/.exec(name)?.[1]
    if (param) {
      const base = parts.slice(0, -1).join('/')
      for (const page of DYNAMIC[param]?.() ?? []) {
        const route = `/${base}/${page.param}`
        pages.push({ route, documentTitle: documentTitle(route, page.title) })
      }
      continue
    }
    const route = ('/' + parts.join('/')).replace(/\/index$/, '') || '/'
    pages.push({ route, documentTitle: documentTitle(route, pageTitle(file, name)) })
  }
  return pages.sort((a, b) => a.route.localeCompare(b.route))
}
