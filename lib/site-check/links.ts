/**
 * Checks every <a href> in the built site, and every page's Markdown-twin <link rel="alternate">.
 * A link to a page or file that does not exist is an error (the build fails); a link to a
 * missing #anchor is a warning. Both name page and link. Twins are files of the export, so a
 * link to `/docs/intro.md` resolves once postbuild has written them.
 */
import type { BuiltSite } from './built-site'
import { decodeEntities } from './entities'

export type LinkProblem = { page: string; href: string; reason: string }
export type LinkReport = { errors: LinkProblem[]; warnings: LinkProblem[]; checked: number }

/** hrefs of anchors, skipping the ones inside <head> and scripts. */
export function extractLinks(html: string): string[] {
  const body = html.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<head>[\s\S]*?<\/head>/, '')
  return [...body.matchAll(/<a\s[^>]*?href="([^"]*)"/g)].map((m) => decodeEntities(m[1]!))
}

/** hrefs of `<link rel="alternate" type="text/markdown">` in <head>: the page's Markdown twin. */
export function extractMarkdownAlternates(html: string): string[] {
  const head = /<head>([\s\S]*?)<\/head>/.exec(html)?.[1] ?? ''
  return [...head.matchAll(/<link\s[^>]*>/g)]
    .map((m) => m[0])
    .filter((tag) => /\srel="alternate"/.test(tag) && /\stype="text\/markdown"/.test(tag))
    .map((tag) => decodeEntities(/\shref="([^"]*)"/.exec(tag)?.[1] ?? ''))
}

export function extractIds(html: string): Set<string> {
  return new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => decodeEntities(m[1]!)))
}

/** A link with a scheme or protocol-relative: not the site's to check. */
export const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i

export function checkLinks(site: BuiltSite): LinkReport {
  const errors: LinkProblem[] = []
  const warnings: LinkProblem[] = []
  const ids = new Map<string, Set<string>>()
  const idsOf = (route: string) => {
    let set = ids.get(route)
    if (!set) ids.set(route, (set = extractIds(site.pages.get(route)?.html ?? '')))
    return set
  }
  let checked = 0
  for (const page of site.pages.values()) {
    for (const href of extractMarkdownAlternates(page.html)) {
      checked++
      const path = decodeURIComponent(new URL(href, `http://site${page.route}`).pathname)
      if (!site.files.has(path)) errors.push({ page: page.route, href, reason: `no Markdown twin at ${path}` })
    }
    for (const href of new Set(extractLinks(page.html))) {
      if (!href || EXTERNAL.test(href)) continue
      checked++
      const url = new URL(href, `http://site${page.route}`)
      const path = decodeURIComponent(url.pathname).replace(/\/$/, '') || '/'
      const anchor = decodeURIComponent(url.hash.slice(1))
      if (site.pages.has(path)) {
        // '#/tag/operation' is a client-side route (swagger-ui deep link), not an element id.
        if (anchor && !anchor.startsWith('/') && !idsOf(path).has(anchor))
          warnings.push({ page: page.route, href, reason: `no element with id "${anchor}" on ${path}` })
      } else if (!site.files.has(path)) {
        errors.push({ page: page.route, href, reason: `no page or file at ${path}` })
      }
    }
  }
  return { errors, warnings, checked }
}
