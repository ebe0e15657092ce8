/** @module The blog index: reads pages/blog/*.mdx, validates each post inside a wrapper that names the file, sorts newest first. */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { YAMLParseError } from 'yaml'
import {
  type FrontMatterText,
  type SourcePosition,
  fieldPosition,
  lineAt,
  readFrontMatter,
} from '../front-matter-yaml.ts'
import { type BlogPost, sortPosts } from './collections.ts'
import {
  type FrontMatterContext,
  FrontMatterFieldError,
  type FrontMatterPath,
  defaultFrontMatterContext,
  validateFrontMatter,
} from './front-matter.ts'
import { readingTime } from './reading-time.ts'

/** Pages in pages/blog/ that are not posts: the list, the archive and the landing pages of tags/ and authors/. */
export const NON_POST_PAGES = ['index', 'archive', 'tags', 'authors'] as const

const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** The component every post renders right under its H1 (date, authors, reading time, tags). */
const POST_HEADER_TAG = '<PostHeader />'

/** A post that cannot be published, with where it went wrong (for the dev overlay's `file:line:column`). */
export class PostError extends Error {
  readonly file: string
  readonly position: SourcePosition | undefined
  /** The front-matter field, `(yaml)`, `(file name)`, or undefined for a problem in the body. */
  readonly field: string | undefined
  /** The message without its `path=… field=…` prefix. */
  readonly detail: string
  constructor(
    message: string,
    at: { file: string; position: SourcePosition | undefined; field: string | undefined; detail: string },
    cause?: unknown,
  ) {
    super(message, { cause })
    this.file = at.file
    this.position = at.position
    this.field = at.field
    this.detail = at.detail
  }
}

function fail(
  file: string,
  position: SourcePosition | undefined,
  field: string,
  detail: string,
  cause?: unknown,
): PostError {
  const message = `front matter invalid: path=${file}${position ? `:${position.line}` : ''} field=${field}: ${detail}`
  return new PostError(message, { file, position, field, detail }, cause)
}

/**
 * Parses and validates one post. `file` is the path shown in errors (relative to the repo root).
 * Any failure is rethrown as `front matter invalid: path=<file>[:<line>] field=<field>: …` with the
 * original error as `cause`; the line is the offending key's or list item's, when it is there.
 */
export function parsePost(file: string, source: string, ctx: FrontMatterContext = defaultFrontMatterContext): BlogPost {
  const slug = path.basename(file).replace(/\.mdx?$/, '')
  if (!SLUG_RE.test(slug)) throw fail(file, undefined, '(file name)', `slug "${slug}" must be kebab-case`)

  let parsed: FrontMatterText
  try {
    parsed = readFrontMatter(source)
  } catch (error) {
    const at =
      error instanceof YAMLParseError && error.linePos
        ? { line: error.linePos[0].line, column: error.linePos[0].col }
        : undefined
    throw fail(file, at, '(yaml)', (error as Error).message, error)
  }
  const lineOf = (path: FrontMatterPath) => fieldPosition(source, parsed, path)

  let frontMatter
  try {
    frontMatter = validateFrontMatter(parsed.data, ctx)
  } catch (error) {
    if (!(error instanceof FrontMatterFieldError))
      throw fail(file, undefined, '(unknown)', (error as Error).message, error)
    throw fail(file, lineOf(error.path), error.field, error.message, error)
  }

  const h1 = /^# (.+)$/m.exec(parsed.content)?.[1]?.trim()
  if (h1 !== frontMatter.title) {
    throw fail(
      file,
      lineOf(['title']),
      'title',
      `the page's H1 ${JSON.stringify(h1 ?? null)} must equal the title ${JSON.stringify(frontMatter.title)}`,
    )
  }
  if (!parsed.content.includes(`# ${h1}\n\n${POST_HEADER_TAG}`)) {
    const h1Line = lineAt(source, /^# .+$/m.exec(source)?.index ?? 0)
    const detail = `put ${POST_HEADER_TAG} on its own line right under the H1`
    throw new PostError(`post invalid: path=${file}:${h1Line}: ${detail}`, {
      file,
      position: { line: h1Line, column: 1 },
      field: undefined,
      detail,
    })
  }

  return {
    slug,
    route: `/blog/${slug}`,
    file,
    ...frontMatter,
    readingTime: readingTime(parsed.content),
  }
}

/** Reads every post in `blogDir` (relative to `root`), newest first. */
export function loadPosts(
  blogDir = 'pages/blog',
  root = process.cwd(),
  ctx: FrontMatterContext = defaultFrontMatterContext,
): BlogPost[] {
  const names = readdirSync(path.join(root, blogDir), { withFileTypes: true })
    .filter((d) => d.isFile() && /\.mdx?$/.test(d.name))
    .map((d) => d.name)
    .filter((name) => !(NON_POST_PAGES as readonly string[]).includes(name.replace(/\.mdx?$/, '')))
    .sort()
  const posts = names.map((name) => {
    const file = path.posix.join(blogDir.split(path.sep).join('/'), name)
    return parsePost(file, readFileSync(path.join(root, blogDir, name), 'utf8'), ctx)
  })
  return sortPosts(posts)
}
