/**
 * @module Front matter of the page being edited: a post is validated as lib/blog does for the
 * build (`parsePost`: fields, H1, PostHeader); a docs page as lib/docs-front-matter.ts says.
 */
import { basename } from 'node:path'
import { YAMLParseError } from 'yaml'
import type { FrontMatterContext } from '../blog/front-matter.ts'
import { NON_POST_PAGES, PostError, parsePost } from '../blog/posts.ts'
import { docsFrontMatterProblems } from '../docs-front-matter.ts'
import { fieldPosition, readFrontMatter } from '../front-matter-yaml.ts'
import type { PageProblem } from './problem.ts'

const POST = /^pages\/blog\/[^/[\]]+\.mdx?$/

export function isPost(file: string): boolean {
  return POST.test(file) && !(NON_POST_PAGES as readonly string[]).includes(basename(file).replace(/\.mdx?$/, ''))
}

function postProblems(file: string, source: string, ctx: FrontMatterContext | undefined): PageProblem[] {
  try {
    parsePost(file, source, ctx)
    return []
  } catch (error) {
    if (!(error instanceof PostError)) throw error
    const where =
      error.field === undefined
        ? ''
        : error.field === '(yaml)'
          ? 'front matter is not valid YAML: '
          : `front matter field "${error.field}" `
    return [
      { line: error.position?.line ?? 1, column: error.position?.column ?? 1, message: `${where}${error.detail}` },
    ]
  }
}

function docsProblems(source: string): PageProblem[] {
  let fm
  try {
    fm = readFrontMatter(source)
  } catch (error) {
    if (!(error instanceof YAMLParseError)) throw error
    const [at] = error.linePos ?? []
    return [{ line: at?.line ?? 1, column: at?.col ?? 1, message: `front matter is not valid YAML: ${error.message}` }]
  }
  return docsFrontMatterProblems(fm.data).map(({ field, message }) => {
    const at = field === '(root)' ? undefined : fieldPosition(source, fm, [field])
    return { line: at?.line ?? 1, column: at?.column ?? 1, message: `front matter field "${field}" ${message}` }
  })
}

/** `file` is relative to the repository root. Pages that are neither posts nor docs have nothing checked here. */
export function frontMatterProblems(file: string, source: string, ctx?: FrontMatterContext): PageProblem[] {
  if (isPost(file)) return postProblems(file, source, ctx)
  if (file.startsWith('pages/docs/')) return docsProblems(source)
  return []
}
