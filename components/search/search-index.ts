/**
 * Full-page search over Nextra's build-time index (out/_next/static/chunks/nextra-data-en.json),
 * the same data the navbar search uses, so docs and blog posts are both covered.
 */
import FlexSearch from 'flexsearch'

/** Shape of nextra-data-<locale>.json: route -> title and text per heading ("id#Heading" keys). */
export type SearchData = Record<string, { title: string; data: Record<string, string> }>

export type SearchHit = { url: string; title: string; excerpt: string }
export type PageHit = {
  route: string
  pageTitle: string
  section: 'Docs' | 'API' | 'Blog' | 'Pages'
  hits: SearchHit[]
}

type EnrichedGroup = { field: string; result: { id: string; doc: Section | null }[] }
type Section = { id: string; url: string; title: string; page: string; content: string }

export function sectionOf(route: string): PageHit['section'] {
  if (route.startsWith('/docs/api')) return 'API'
  if (route.startsWith('/docs')) return 'Docs'
  if (route.startsWith('/blog')) return 'Blog'
  return 'Pages'
}

export function createSearch(data: SearchData) {
  const index = new FlexSearch.Document<Section, ['url', 'title', 'page', 'content']>({
    tokenize: 'forward',
    document: { id: 'id', index: ['title', 'content'], tag: 'page', store: ['url', 'title', 'page', 'content'] },
  })
  const titles = new Map<string, string>()
  for (const [route, page] of Object.entries(data)) {
    titles.set(route, page.title)
    for (const [key, text] of Object.entries(page.data)) {
      const [anchor, heading] = key.split('#')
      const url = route + (anchor ? `#${anchor}` : '')
      const title = heading || page.title
      text.split('\n').forEach((paragraph, i) => {
        index.add({ id: `${url}~${i}`, url, title, page: route, content: paragraph })
      })
      if (!text) index.add({ id: `${url}~t`, url, title, page: route, content: '' })
    }
  }

  return function search(query: string, limit = 50): PageHit[] {
    const q = query.trim()
    if (!q) return []
    const byPage = new Map<string, PageHit>()
    const seen = new Set<string>()
    const groups = index.search(q, { limit, enrich: true }) as unknown as EnrichedGroup[]
    for (const field of groups) {
      for (const { doc } of field.result) {
        if (!doc || seen.has(doc.url + doc.content)) continue
        seen.add(doc.url + doc.content)
        let page = byPage.get(doc.page)
        if (!page) {
          page = {
            route: doc.page,
            pageTitle: titles.get(doc.page) ?? doc.page,
            section: sectionOf(doc.page),
            hits: [],
          }
          byPage.set(doc.page, page)
        }
        if (page.hits.length < 3 && !page.hits.some((h) => h.url === doc.url && h.excerpt === doc.content)) {
          page.hits.push({ url: doc.url, title: doc.title, excerpt: doc.content })
        }
      }
    }
    return [...byPage.values()]
  }
}
