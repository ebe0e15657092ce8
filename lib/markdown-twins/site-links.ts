/**
 * @module Makes a twin's links work outside the site: site-relative URLs become absolute, and a
 * link to a page that has a twin points at the twin, so a reader of Markdown stays in Markdown.
 */
import { twinPath } from './routes.ts'

export interface LinkTarget {
  /** Absolute origin, e.g. `https://ferry.example.org`. */
  siteUrl: string
  /** Route of the page the link is on, for relative links. */
  route: string
  /** Routes that have a twin. */
  twinRoutes: ReadonlySet<string>
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i

export function absoluteUrl(url: string, { siteUrl, route, twinRoutes }: LinkTarget): string {
  if (EXTERNAL.test(url)) return url
  const origin = siteUrl.replace(/\/+$/, '')
  if (url.startsWith('#')) return `${origin}${twinRoutes.has(route) ? twinPath(route) : route}${url}`
  const resolved = new URL(url, `${origin}${route}`)
  // A source-file link (`./logging.mdx`) means the page; Nextra serves it without the extension.
  const path = decodeURIComponent(resolved.pathname)
    .replace(/\.mdx$/, '')
    .replace(/(.)\/$/, '$1')
  const target = twinRoutes.has(path) ? twinPath(path) : path
  return `${origin}${encodeURI(target)}${resolved.search}${resolved.hash}`
}
