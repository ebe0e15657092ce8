/**
 * @module Everything `npm run dev` checks on a page as it compiles (lib/dev-checks/loader.ts):
 * front matter, internal links and code blocks, each by the code the build and tests use.
 */
import type { FrontMatterContext } from '../blog/front-matter.ts'
import { isGuidePage } from '../docs-runner/pages.ts'
import { blockProblems } from './blocks.ts'
import { frontMatterProblems } from './front-matter.ts'
import { linkProblems } from './links.ts'
import type { PageProblem } from './problem.ts'

/**
 * Problems in `source`, the page at `file` (relative to `root`, the repository root), by line.
 * Code blocks are checked on the pages the docs tests check (lib/docs-runner/pages.ts).
 */
export function checkPage(root: string, file: string, source: string, blog?: FrontMatterContext): PageProblem[] {
  return [
    ...frontMatterProblems(file, source, blog),
    ...linkProblems(root, file, source),
    ...(isGuidePage(file) ? blockProblems(file, source) : []),
  ].sort((a, b) => a.line - b.line || a.column - b.column)
}
