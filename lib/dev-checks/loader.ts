/**
 * @module Webpack loader run on each page's MDX source before Nextra's loader, in `npm run dev`
 * only (next.config.mjs; the production build has its own checks): a page with a problem
 * (check-page.ts) fails to compile, so Next's error overlay names `pages/…mdx:LINE:COL` and the
 * problem, and saving the fix clears it. Loaded by Node's own TypeScript support.
 */
import { statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { FrontMatterContext } from '../blog/front-matter.ts'
import { checkPage } from './check-page.ts'
import { formatProblems } from './problem.ts'

interface Options {
  /** The repository root. */
  root: string
}

interface LoaderThis {
  resourcePath: string
  getOptions(): Options
  async(): (error: Error | null, result?: string) => void
  addDependency(file: string): void
  addMissingDependency(file: string): void
}

const BLOG_VOCABULARY = ['lib/blog/authors.ts', 'lib/blog/tags.ts']
let blogContext: { key: string; ctx: FrontMatterContext } | undefined

/**
 * The authors and tags as the files say now: Node caches modules for the dev server's life, so
 * they are imported again (a new URL) when either file has changed.
 */
async function currentBlogContext(root: string): Promise<FrontMatterContext> {
  const files = BLOG_VOCABULARY.map((file) => join(root, file))
  const key = files.map((file) => statSync(file).mtimeMs).join(':')
  if (blogContext?.key !== key) {
    const [authors, tags] = await Promise.all(files.map((file) => import(`${pathToFileURL(file).href}?mtime=${key}`)))
    blogContext = { key, ctx: { authorIds: authors.authorIds, tagIds: tags.tagIds } }
  }
  return blogContext.ctx
}

export default function devChecksLoader(this: LoaderThis, source: string): void {
  const done = this.async()
  const { root } = this.getOptions()
  const file = relative(root, this.resourcePath).split(sep).join('/')
  if (!file.startsWith('pages/')) return done(null, source)
  for (const vocabulary of BLOG_VOCABULARY) this.addDependency(join(root, vocabulary))
  currentBlogContext(root).then(
    (blog) => {
      const problems = checkPage(root, file, source, blog)
      for (const missing of problems.flatMap((p) => p.fixedBy ?? [])) this.addMissingDependency(missing)
      if (problems.length === 0) return done(null, source)
      // The message is the whole story; webpack would otherwise append this loader's stack.
      done(Object.assign(new Error(formatProblems(file, problems)), { hideStack: true }))
    },
    (error: Error) => done(error),
  )
}
