/**
 * @module What a page may import and still be served as static content (lib/static-content).
 * A module listed here renders its whole result on the server: it needs no code in the browser,
 * or its behaviour is delegated from components/content (links, code copy, tabs, try-it), so
 * its markup works the same whether React rendered it or the browser parsed it.
 */

/** Paths from the repository root, without extension. */
export const STATIC_SAFE_MODULES = [
  'components/api/endpoint',
  'components/api/method-badge',
  'components/api/on-this-page',
  'components/api/schema-table',
  'components/api/try-it',
  'components/blog/archive',
  'components/blog/author-pages',
  'components/blog/blog-index',
  'components/blog/post-header',
  'components/blog/tag-pages',
  'components/content/tabs',
  'components/home/update-flow',
] as const

/** Packages whose imports in a page are fine as static content. next/link renders a plain link. */
export const STATIC_SAFE_PACKAGES = ['next/link'] as const

/** Named imports from packages that are plain markup (Nextra's Tabs and FileTree keep state: not listed). */
export const STATIC_SAFE_NAMED: Record<string, readonly string[]> = {
  'nextra/components': ['Callout', 'Steps'],
}

/** Nextra's own imports in a compiled page: its runtime, never the page's content. */
export function isNextraRuntime(source: string): boolean {
  return source === 'nextra/setup-page' || source === 'nextra/mdx' || source.includes('nextra-page-map')
}
