/**
 * What a report says about where the reader was: the page, the section an element sits in (the
 * nearest heading before it), and the docs version of the page.
 */
import { CURRENT, CURRENT_LABEL, labelOf, parseDocsPath } from '../../lib/docs-versions'
import { siteConfig } from '../../site.config'
import type { PageContext } from '../../lib/feedback/issue-links'

const HEADINGS = 'article h2[id], article h3[id], article h4[id]'

const headingText = (heading: Element) => (heading.textContent ?? '').replace(/#\s*$/, '').trim()

/** The last heading that comes before `element` in the page, or none. */
function sectionOf(element: Element): Element | undefined {
  let found: Element | undefined
  for (const heading of document.querySelectorAll(HEADINGS)) {
    if (heading.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING) found = heading
    else break
  }
  return found
}

function docsVersion(pathname: string): string {
  const location = parseDocsPath(pathname)
  if (!location) return `${CURRENT_LABEL} (${siteConfig.branch})`
  return location.version === CURRENT ? `${CURRENT_LABEL} (${siteConfig.branch})` : labelOf(location.version)
}

/** The page as a whole (`element` omitted), or the section holding `element`. */
export function pageContext(element?: Element): PageContext {
  const title = headingText(document.querySelector('article h1') ?? document.createElement('h1')) || document.title
  const heading = element && sectionOf(element)
  const page = `${window.location.origin}${window.location.pathname}`
  return {
    url: heading ? `${page}#${heading.id}` : page,
    title,
    section: heading ? headingText(heading) : title,
    version: docsVersion(window.location.pathname),
  }
}
