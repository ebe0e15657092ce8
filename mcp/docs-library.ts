/**
 * @module The site's pages as Markdown for the MCP tools: the same twins the build writes next to
 * each page (lib/markdown-twins), made from the sources in pages/ and openapi/, so a fresh checkout
 * needs no build. They are made once, on the first search or read.
 */
import { DocsSearch, type SearchHit } from './docs-search.ts'
import type { LibraryPage } from './library-shape.ts'

export type SearchScope = LibraryPage['section'] | 'current'

export interface DocsLibrary {
  search(query: string, options: { limit: number; scope: SearchScope }): Promise<SearchHit[]>
  /** The twin of a page, found by route, twin path or URL of the site; throws naming close routes. */
  read(page: string): Promise<LibraryPage>
}

/** `https://…/docs/intro.md#x`, `docs/intro`, `/docs/intro/` → `/docs/intro`. */
export function normaliseRoute(page: string): string {
  let route = page.trim()
  if (/^https?:\/\//.test(route)) route = new URL(route).pathname
  route = route
    .replace(/[#?].*$/, '')
    .replace(/\.md$/, '')
    .replace(/\/+$/, '')
  return route.startsWith('/') ? route : `/${route}`
}

export class PageNotFound extends Error {}

export function docsLibrary(pages: () => Promise<LibraryPage[]>): DocsLibrary {
  let loading:
    | Promise<{ twins: LibraryPage[]; byRoute: Map<string, LibraryPage>; search: Map<SearchScope, DocsSearch> }>
    | undefined
  const load = () => {
    loading ??= pages().then((twins) => ({
      twins,
      byRoute: new Map(twins.map((t) => [t.route, t])),
      search: new Map<SearchScope, DocsSearch>(),
    }))
    return loading
  }
  return {
    async search(query, { limit, scope }) {
      const { twins, search } = await load()
      let index = search.get(scope)
      if (!index) {
        index = new DocsSearch(
          twins.filter((t) => (scope === 'current' ? t.section !== 'frozen' : t.section === scope)),
        )
        search.set(scope, index)
      }
      return index.search(query, limit)
    },
    async read(page) {
      const { twins, byRoute } = await load()
      const route = normaliseRoute(page)
      const twin = byRoute.get(route)
      if (twin) return twin
      const last = route.split('/').pop() ?? ''
      const near = twins
        .filter((t) => last && t.route.includes(last))
        .slice(0, 5)
        .map((t) => t.route)
      throw new PageNotFound(
        `no page at ${route}${near.length ? `; did you mean ${near.join(', ')}?` : ''} (search_docs finds pages by topic)`,
      )
    },
  }
}
