/**
 * @module Which pages have a Markdown twin and where it lives. No fs: theme.config.tsx imports
 * this to print `<link rel="alternate" type="text/markdown">`, and the build writes exactly the
 * twins these rules name (the link check fails the build when the two disagree).
 *
 * A page at `/docs/getting-started/local-deploy` has its twin at `/docs/getting-started/local-deploy.md`;
 * an index page takes its folder's name: `/docs/api` (pages/docs/api/index.mdx) → `/docs/api.md`,
 * next to `docs/api.html` in the export.
 */

/** `/docs/intro` → `/docs/intro.md`. */
export function twinPath(route: string): string {
  if (route === '/' || !route.startsWith('/')) throw new Error(`no Markdown twin for route ${JSON.stringify(route)}`)
  return `${route.replace(/\/$/, '')}.md`
}

/**
 * Whether the page built from `filePath` (relative to the repository root, as Nextra reports it)
 * has a twin: every docs page, and every blog post. Posts are told from the blog's list pages
 * by their `date`, a field lib/blog/front-matter.ts requires of every post and no list page has.
 */
export function hasTwin(filePath: string, frontMatter: Record<string, unknown>): boolean {
  if (/^pages\/docs\/.+\.mdx?$/.test(filePath)) return true
  return /^pages\/blog\/[^/[\]]+\.mdx?$/.test(filePath) && frontMatter.date !== undefined
}
