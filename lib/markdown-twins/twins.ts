/**
 * @module Every Markdown twin of the site: current docs (sidebar order), frozen docs versions,
 * the API reference (from the codegen model) and blog posts (from lib/blog, newest first).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { loadPosts } from '../blog/posts.ts'
import type { BuiltSite } from '../site-check/built-site.ts'
import { extractMarkdownAlternates } from '../site-check/links.ts'
import { versions } from '../docs-versions.ts'
import { apiReferencePages } from './api-reference.ts'
import { docsPages, readDocsPage } from './docs-pages.ts'
import { mdxToMarkdown, normaliseMarkdown } from './mdx-to-markdown.ts'
import { twinPath } from './routes.ts'

export type TwinSection = 'docs' | 'api' | 'blog' | 'frozen'

export interface Twin {
  section: TwinSection
  /** Route of the HTML page, e.g. `/docs/intro`. */
  route: string
  /** Route of the twin, e.g. `/docs/intro.md`. */
  path: string
  title: string
  description: string
  /** What the page is written from, relative to the repository root. */
  file: string
  markdown: string
}

export interface TwinOptions {
  root: string
  /** Absolute origin; links in twins are made absolute against it. */
  siteUrl: string
  specFile?: string
}

interface Pending extends Omit<Twin, 'markdown' | 'path'> {
  render(twinRoutes: ReadonlySet<string>): string
}

export async function buildTwins({ root, siteUrl, specFile = 'openapi/openapi.yaml' }: TwinOptions): Promise<Twin[]> {
  const pending: Pending[] = []
  const versionIds = new Set(versions.map((v) => v.id))
  const fromMdx =
    (section: TwinSection) =>
    (page: { route: string; file: string; title: string; description: string; source: string }) =>
      pending.push({
        section,
        route: page.route,
        file: page.file,
        title: page.title,
        description: page.description,
        render: (twinRoutes) =>
          mdxToMarkdown(page.source, { file: page.file, title: page.title, siteUrl, route: page.route, twinRoutes }),
      })

  ;(await docsPages(root, 'pages/docs', '/docs', new Set(['api', ...versionIds]))).forEach(fromMdx('docs'))
  for (const version of versions)
    (await docsPages(root, `pages/docs/${version.id}`, `/docs/${version.id}`)).forEach(fromMdx('frozen'))
  for (const page of await apiReferencePages(path.join(root, specFile))) {
    pending.push({
      section: 'api',
      route: page.route,
      file: specFile,
      title: page.title,
      description: page.description,
      render: (twinRoutes) => normaliseMarkdown(page.markdown, { siteUrl, route: page.route, twinRoutes }),
    })
  }
  // The API changelog is generated as plain MDX (lib/codegen/emit/changelog.ts), not from the spec's operations.
  const changelog = 'pages/docs/api/changelog.mdx'
  if (existsSync(path.join(root, changelog))) fromMdx('api')(readDocsPage(root, changelog, '/docs/api/changelog'))
  for (const post of loadPosts('pages/blog', root)) {
    const source = readFileSync(path.join(root, post.file), 'utf8')
    pending.push({
      section: 'blog',
      route: post.route,
      file: post.file,
      title: post.title,
      description: post.description,
      render: (twinRoutes) =>
        mdxToMarkdown(source, { file: post.file, title: post.title, siteUrl, route: post.route, twinRoutes, post }),
    })
  }

  const twinRoutes = new Set(pending.map((p) => p.route))
  if (twinRoutes.size !== pending.length)
    throw new Error(
      `two sources claim one twin route: ${pending
        .map((p) => p.route)
        .filter((r, i, all) => all.indexOf(r) !== i)
        .join(', ')}`,
    )
  return pending.map(({ render, ...twin }) => ({ ...twin, path: twinPath(twin.route), markdown: render(twinRoutes) }))
}

/**
 * Writes each twin next to its page in the export. A twin whose page was not built means the
 * sources and the build disagree (e.g. stale generated pages): that fails, naming the route.
 */
export function writeTwins(outDir: string, twins: readonly Twin[], builtRoutes: ReadonlySet<string>): void {
  const missing = twins.filter((t) => !builtRoutes.has(t.route))
  if (missing.length)
    throw new Error(`markdown twins without a built page: ${missing.map((t) => `${t.route} (${t.file})`).join(', ')}`)
  for (const twin of twins) {
    const file = path.join(outDir, twin.path)
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, twin.markdown)
  }
}

/** Pages whose twin exists but whose <head> does not link it (theme.config.tsx and routes.ts disagree). */
export function pagesWithoutTwinLink(site: BuiltSite, twins: readonly Twin[]): string[] {
  return twins
    .filter((t) => !extractMarkdownAlternates(site.pages.get(t.route)?.html ?? '').includes(t.path))
    .map((t) => t.route)
}
