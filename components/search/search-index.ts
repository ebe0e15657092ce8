/**
 * Site search over Nextra's build-time index (out/_next/static/chunks/nextra-data-en-US.json):
 * the navbar's search (patches/nextra-theme-docs loads this module on first use) and /search.
 *
 * Ranking, first key first:
 *   1. where the words match: the page title or its search keywords, then a heading, then only
 *      the text;
 *   2. what the page is: guides, then the API reference, then other pages, then blog posts;
 *   3. how much of the matching title, keyword or heading the words cover ("Rollouts" before
 *      "Pause a rollout");
 *   4. how many paragraphs match.
 * A word of the query matches a word of the page it begins ("rollout" matches "rollouts"); every
 * word of the query must match.
 */
import FlexSearch from 'flexsearch'

/**
 * Shape of nextra-data-<locale>.json: route -> title and text per heading ("id#Heading" keys),
 * plus the `keywords` of the page's front matter (written in by postbuild, lib/search-keywords.ts).
 */
export type SearchData = Record<string, { title: string; data: Record<string, string>; keywords?: string[] }>

export type SearchHit = { url: string; title: string; excerpt: string }
export type PageHit = {
  route: string
  pageTitle: string
  section: 'Docs' | 'API' | 'Blog' | 'Pages'
  hits: SearchHit[]
}

type Paragraph = { id: number; page: string; url: string; title: string; content: string }
type Heading = { url: string; title: string; excerpt: string; words: string[] }
type Page = { route: string; title: string; words: string[]; keywords: string[][]; headings: Heading[] }

export function sectionOf(route: string): PageHit['section'] {
  if (route.startsWith('/docs/api')) return 'API'
  if (route.startsWith('/docs')) return 'Docs'
  if (route.startsWith('/blog')) return 'Blog'
  return 'Pages'
}

const SECTION_ORDER: Record<PageHit['section'], number> = { Docs: 0, API: 1, Pages: 2, Blog: 3 }

/** Lower-case words of a text: letters and digits, everything else separates. */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
}

/** Share of a title's words that the query's words begin, if every query word begins one of them; else 0. */
function cover(terms: string[], words: string[]): number {
  if (words.length === 0 || !terms.every((t) => words.some((w) => w.startsWith(t)))) return 0
  return words.filter((w) => terms.some((t) => w.startsWith(t))).length / words.length
}

export function createSearch(data: SearchData) {
  const index = new FlexSearch.Document<Paragraph, false>({
    tokenize: 'forward',
    document: { id: 'id', index: ['content'] },
  })
  const paragraphs: Paragraph[] = []
  const pages: Page[] = []
  for (const [route, entry] of Object.entries(data)) {
    const page: Page = {
      route,
      title: entry.title,
      words: wordsOf(entry.title),
      keywords: (entry.keywords ?? []).map(wordsOf),
      headings: [],
    }
    pages.push(page)
    for (const [key, text] of Object.entries(entry.data)) {
      const [anchor, heading] = key.split('#')
      const url = route + (anchor ? `#${anchor}` : '')
      const title = heading || entry.title
      const lines = text.split('\n')
      if (heading) page.headings.push({ url, title, excerpt: lines[0] ?? '', words: wordsOf(heading) })
      for (const content of lines) {
        if (!content) continue
        const paragraph = { id: paragraphs.length, page: route, url, title, content }
        paragraphs.push(paragraph)
        index.add(paragraph)
      }
    }
  }

  return function search(query: string, limit = Infinity): PageHit[] {
    const terms = wordsOf(query)
    if (terms.length === 0) return []
    const text = new Map<string, Paragraph[]>()
    for (const group of index.search(query, { limit: 2000 })) {
      for (const id of group.result) {
        const paragraph = paragraphs[Number(id)]
        if (!paragraph) continue
        const list = text.get(paragraph.page) ?? []
        list.push(paragraph)
        text.set(paragraph.page, list)
      }
    }
    const ranked = []
    for (const page of pages) {
      const titleCover = Math.max(cover(terms, page.words), ...page.keywords.map((k) => cover(terms, k)))
      const headings = page.headings
        .map((heading) => ({ heading, cover: cover(terms, heading.words) }))
        .filter((h) => h.cover > 0)
        .sort((a, b) => b.cover - a.cover)
      const matched = text.get(page.route) ?? []
      if (titleCover === 0 && headings.length === 0 && matched.length === 0) continue
      const where = titleCover > 0 ? 0 : headings.length > 0 ? 1 : 2
      const hits: SearchHit[] = []
      const add = (hit: SearchHit) => {
        if (hits.length < 3 && !hits.some((h) => h.url === hit.url && h.excerpt === hit.excerpt)) hits.push(hit)
      }
      if (where === 0) add({ url: page.route, title: page.title, excerpt: matched[0]?.content ?? '' })
      for (const { heading } of headings) add({ url: heading.url, title: heading.title, excerpt: heading.excerpt })
      for (const p of matched) add({ url: p.url, title: p.title, excerpt: p.content })
      const section = sectionOf(page.route)
      ranked.push({
        key: [where, SECTION_ORDER[section], -(titleCover || headings[0]?.cover || 0), -matched.length],
        hit: { route: page.route, pageTitle: page.title, section, hits },
      })
    }
    ranked.sort((a, b) => {
      for (let i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return a.key[i]! - b.key[i]!
      return a.hit.route < b.hit.route ? -1 : 1
    })
    return ranked.slice(0, limit).map((r) => r.hit)
  }
}
