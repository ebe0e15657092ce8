/**
 * @module After `next build`: a social card for every built page, from the title its HTML carries
 * (so the image always shows the title the page has) and its section, copied from the card cache
 * to the export at the address the head names (`og/<route>.png`, lib/social-images/page-meta.ts).
 * Cards rendered while Next compiled (scripts/social-images.ts --warm) are reused; any other is
 * rendered here.
 */
import { copyFileSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { BuiltSite } from '../site-check/built-site.ts'
import type { CardText } from './card.ts'
import { cachedCard, renderMissing, type RenderReport } from './cache.ts'
import { imageTitle, socialImagePath } from './page-meta.ts'
import { sectionsOf } from './sections.ts'

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', lt: '<', gt: '>', apos: "'", nbsp: '\u00a0' }

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name[0] === '#')
      return String.fromCodePoint(
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)),
      )
    return ENTITIES[name] ?? whole
  })
}

/** The `og:title` of a built page, decoded; undefined when the page has none. */
export function ogTitle(html: string): string | undefined {
  const found = /<meta property="og:title" content="([^"]*)"/.exec(html)
  return found ? decodeEntities(found[1]!) : undefined
}

/** The card of each route that has an `og:title`: its image title and section. */
export async function builtCards(site: BuiltSite, pagesDir: string): Promise<Map<string, CardText>> {
  const titles = new Map<string, string>()
  for (const [route, page] of site.pages) {
    const title = ogTitle(page.html)
    if (title !== undefined) titles.set(route, imageTitle(title))
  }
  const sections = await sectionsOf(pagesDir, titles.keys())
  return new Map([...titles].map(([route, title]) => [route, { title, section: sections.get(route)! }]))
}

export async function exportSocialImages(
  site: BuiltSite,
  pagesDir: string,
  cacheDir: string,
): Promise<RenderReport & { pages: number }> {
  const cards = await builtCards(site, pagesDir)
  const report = await renderMissing(cacheDir, cards.values())
  for (const [route, text] of cards) {
    const target = join(site.outDir, socialImagePath(route))
    mkdirSync(dirname(target), { recursive: true })
    copyFileSync(cachedCard(cacheDir, text), target)
  }
  return { ...report, pages: cards.size }
}
