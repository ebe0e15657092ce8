/**
 * @module Full-text search over Markdown pages, section by section: each page is cut at its
 * headings, and a section ranks by how many of the query's words it holds (all of them first),
 * then by where they occur (title, heading, text). No index file: the pages are few enough.
 */

export interface SearchablePage {
  route: string
  title: string
  section: string
  markdown: string
}

export interface SearchHit {
  route: string
  title: string
  section: string
  /** The heading of the matching part of the page, or '' for the part before the first heading. */
  heading: string
  snippet: string
  score: number
}

interface Part {
  page: SearchablePage
  heading: string
  text: string
  lower: string
  headingLower: string
}

const HEADING = /^#{1,4}\s+(.+)$/
const SNIPPET_CHARS = 240

/** The query's words of two or more characters, lower case; `x-ferry-device-id` and `1.2.0` stay one word each. */
export function queryWords(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}_][\p{L}\p{N}_.-]*[\p{L}\p{N}_]/gu) ?? [])]
}

function parts(page: SearchablePage): Part[] {
  const out: Part[] = []
  let heading = ''
  let lines: string[] = []
  let fenced = false
  const flush = () => {
    const text = lines.join('\n').trim()
    if (text || heading)
      out.push({ page, heading, text, lower: text.toLowerCase(), headingLower: heading.toLowerCase() })
  }
  for (const line of page.markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    const match = fenced ? null : HEADING.exec(line)
    if (match) {
      flush()
      heading = (match[1] ?? '').replace(/[`*_]/g, '').trim()
      lines = []
    } else lines.push(line)
  }
  flush()
  return out
}

function count(haystack: string, word: string): number {
  let n = 0
  for (let at = haystack.indexOf(word); at !== -1 && n < 20; at = haystack.indexOf(word, at + word.length)) n++
  return n
}

function snippet(part: Part, words: readonly string[]): string {
  const at = Math.min(...words.map((w) => part.lower.indexOf(w)).filter((i) => i >= 0), part.lower.length)
  const start = Math.max(0, at - 60)
  const text = part.text
    .slice(start, start + SNIPPET_CHARS)
    .replace(/\s+/g, ' ')
    .trim()
  return `${start > 0 ? '…' : ''}${text}${start + SNIPPET_CHARS < part.text.length ? '…' : ''}`
}

export class DocsSearch {
  readonly #parts: Part[]

  constructor(pages: readonly SearchablePage[]) {
    this.#parts = pages.flatMap(parts)
  }

  /** The best `limit` sections for `query`, at most two per page. */
  search(query: string, limit: number): SearchHit[] {
    const words = queryWords(query)
    if (words.length === 0) return []
    const scored: SearchHit[] = []
    for (const part of this.#parts) {
      const titleLower = part.page.title.toLowerCase()
      let matched = 0
      let weight = 0
      for (const word of words) {
        const inTitle = titleLower.includes(word) ? 6 : 0
        const inHeading = part.headingLower.includes(word) ? 4 : 0
        const inText = count(part.lower, word)
        if (inTitle || inHeading || inText) matched++
        weight += inTitle + inHeading + Math.min(inText, 10)
      }
      if (matched === 0) continue
      // Every word matched outranks any number of repeats of some of them.
      const score = matched * 100 + weight
      scored.push({
        route: part.page.route,
        title: part.page.title,
        section: part.page.section,
        heading: part.heading,
        snippet: snippet(part, words),
        score,
      })
    }
    scored.sort((a, b) => b.score - a.score || a.route.localeCompare(b.route))
    const perPage = new Map<string, number>()
    const hits: SearchHit[] = []
    for (const hit of scored) {
      const seen = perPage.get(hit.route) ?? 0
      if (seen >= 2) continue
      perPage.set(hit.route, seen + 1)
      hits.push(hit)
      if (hits.length >= limit) break
    }
    return hits
  }
}
