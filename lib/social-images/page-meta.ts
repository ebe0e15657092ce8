/**
 * @module A page's document title and the address of its social image. No fs: theme.config.tsx
 * imports this to print the head, and the build (lib/social-images/export.ts) reads the same rules
 * back from the built HTML, so the image a page names is the one written for it.
 */
import { siteConfig } from '../../site.config'

/** Social cards are 1200×630, the size Open Graph and X's `summary_large_image` expect. */
export const SOCIAL_IMAGE_WIDTH = 1200
export const SOCIAL_IMAGE_HEIGHT = 630

/** The folder of the export the images are written to. */
export const SOCIAL_IMAGE_DIR = 'og'

const TITLE_SUFFIX = ` – ${siteConfig.name}`

/** The `<title>` and `og:title` of the page at `route` whose own title is `title`. */
export function documentTitle(route: string, title: string): string {
  return route === '/' ? `${siteConfig.name}: ${siteConfig.tagline}` : `${title}${TITLE_SUFFIX}`
}

/** The title a page's image shows, from its document title: the product mark on the image says "Ferry". */
export function imageTitle(documentTitle: string): string {
  return documentTitle.endsWith(TITLE_SUFFIX) ? documentTitle.slice(0, -TITLE_SUFFIX.length) : documentTitle
}

/** `/` → `/og/index.png`, `/docs/intro` → `/og/docs/intro.png`. */
export function socialImagePath(route: string): string {
  return `/${SOCIAL_IMAGE_DIR}${route === '/' ? '/index' : route.replace(/\/$/, '')}.png`
}

/** The absolute URL crawlers fetch, on the site's configured origin (as canonical URLs and the sitemap). */
export function socialImageUrl(route: string): string {
  return `${siteConfig.url}${socialImagePath(route)}`
}
