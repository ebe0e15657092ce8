/** @module The blog index: reads pages/blog/*.mdx, validates each post inside a wrapper that names the file, sorts newest first. */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import matter from 'gray-matter'
import { LineCounter, YAMLParseError, isMap, isNode, isScalar, parse as parseYaml, parseDocument } from 'yaml'
import { type BlogPost, sortPosts } from './collections'
import { type FrontMatterContext, FrontMatterFieldError, type FrontMatterPath, defaultFrontMatterContext, validateFrontMatter } from './front-matter'
import { readingTime } from './reading-time'

/** Pages in pages/blog/ that are not posts: the list, the archive and the landing pages of tags/ and authors/. */
export const NON_POST_PAGES = ['index', 'archive', 'tags', 'authors'] as const

const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** The component every post renders right under its H1 (date, authors, reading time, tags). */
const POST_HEADER_TAG = '<PostHeader />'

function fail(file: string, line: number | undefined, field: string, message: string, cause?: unknown): Error {
  return new Error(`front matter invalid: path=${file}${line ? `:${line}` : ''} field=${field}: ${message}`, { cause })
}

const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length

/**
 * The line in `source` of the front-matter key at `path` (or of the list item it names), whose
 * YAML text `yaml` starts at `start` in `source`; undefined when the key is not there.
 */
function lineOfField(source: string, yaml: string, start: number, path: FrontMatterPath): number | undefined {
  const lineCounter = new LineCounter()
  const doc = parseDocument(yaml, { lineCounter })
  if (!isMap(doc.contents)) return undefined
  const [field, ...items] = path
  const pair = doc.contents.items.find((p) => isScalar(p.key) && p.key.value === field)
  const node = items.length ? doc.getIn(path, true) : pair?.key
  const offset = isNode(node) ? node.range?.[0] : undefined
  return offset === undefined ? undefined : lineAt(source, start) + lineCounter.linePos(offset).line - 1
}

/**
 * Parses and validates one post. `file` is the path shown in errors (relative to the repo root).
 * Any failure is rethrown as `front matter invalid: path=<file>[:<line>] field=<field>: …` with the
 * original error as `cause`; the line is the offending key's or list item's, when it is there.
 */
export function parsePost(file: string, source: string, ctx: FrontMatterContext = defaultFrontMatterContext): BlogPost {
  const slug = path.basename(file).replace(/\.mdx?$/, '')
  if (!SLUG_RE.test(slug)) throw fail(file, undefined, '(file name)', `slug "${slug}" must be kebab-case`)

  let parsed: matter.GrayMatterFile<string>
  try {
    // The `yaml` package's core schema keeps `date: 2026-02-30` a string, where gray-matter's default
    // engine (js-yaml) would silently roll it over to a Date of March 2. Passing options also bypasses
    // gray-matter's cache, which would otherwise return stale results across calls.
    parsed = matter(source, { engines: { yaml: (text) => (parseYaml(text) ?? {}) as object } })
  } catch (error) {
    // The YAML text starts right after the opening `---`, so its line numbers are the file's.
    const line = error instanceof YAMLParseError && error.linePos ? error.linePos[0].line : undefined
    throw fail(file, line, '(yaml)', (error as Error).message, error)
  }
  const yamlStart = source.indexOf(parsed.matter)
  const lineOf = (path: FrontMatterPath) => lineOfField(source, parsed.matter, yamlStart, path)

  let frontMatter
  try {
    frontMatter = validateFrontMatter(parsed.data, ctx)
  } catch (error) {
    if (!(error instanceof FrontMatterFieldError)) throw fail(file, undefined, '(unknown)', (error as Error).message, error)
    throw fail(file, lineOf(error.path), error.field, error.message, error)
  }

  const h1 = /^# (.+)$/m.exec(parsed.content)?.[1]?.trim()
  if (h1 !== frontMatter.title) {
    throw fail(file, lineOf(['title']), 'title', `the page's H1 ${JSON.stringify(h1 ?? null)} must equal the title ${JSON.stringify(frontMatter.title)}`)
  }
  if (!parsed.content.includes(`# ${h1}\n\n${POST_HEADER_TAG}`)) {
    const h1Line = lineAt(source, /^# .+$/m.exec(source)?.index ?? 0)
    throw new Error(`post invalid: path=${file}:${h1Line}: put ${POST_HEADER_TAG} on its own line right under the H1`)
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
