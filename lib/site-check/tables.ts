/**
 * Markdown tables that did not become tables. A table row the parser did not take as part of a
 * table (a blank line inside the table, a missing `|---|` delimiter row) is rendered as text,
 * and the rows show on the page as a paragraph of pipes. Any `<p>` with a line that starts and
 * ends with `|` is one; it names the page and the first such line.
 */
import type { BuiltSite } from './built-site'
import { decodeEntities } from './entities'

export type BrokenTable = { page: string; line: string; rows: number }

const textOf = (html: string) => decodeEntities(html.replace(/<br\s*\/?>/g, '\n').replace(/<[^>]*>/g, ''))

const ROW = /^\s*\|.*\|\s*$/

/** The paragraphs of one page's HTML that hold Markdown table rows, outside scripts and code. */
export function pipeParagraphs(html: string): { line: string; rows: number }[] {
  const body = html.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<pre[\s\S]*?<\/pre>/g, '')
  const found: { line: string; rows: number }[] = []
  for (const m of body.matchAll(/<p(?:\s[^>]*)?>([\s\S]*?)<\/p>/g)) {
    const rows = textOf(m[1]!)
      .split('\n')
      .filter((line) => ROW.test(line))
    if (rows.length > 0) found.push({ line: rows[0]!.trim(), rows: rows.length })
  }
  return found
}

export function findBrokenTables(site: BuiltSite): BrokenTable[] {
  const broken: BrokenTable[] = []
  for (const page of site.pages.values())
    for (const p of pipeParagraphs(page.html)) broken.push({ page: page.route, ...p })
  return broken
}
