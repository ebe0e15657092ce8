/** @module The blog index: reads pages/blog/*.mdx, validates each post inside a wrapper that names the file, sorts newest first. */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import matter from 'gray-matter'
import { parse as parseYaml } from 'yaml'
import { type BlogPost, sortPosts } from './collections'
import { type FrontMatterContext, FrontMatterFieldError, defaultFrontMatterContext, validateFrontMatter } from './front-matter'
import { readingTime } from './reading-time'

/** Pages in pages/blog/ that are not posts: the list, the archive and the landing pages of tags/ and authors/. */
export const NON_POST_PAGES = ['index', 'archive', 'tags', 'authors'] as const

const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** The component every post renders right under its H1 (date, authors, reading time, tags). */
const POST_HEADER_TAG = '<PostHeader />'

function fail(file: string, field: string, message: string, cause?: unknown): Error {
  return new Error(`front matter invalid: path=${file} field=${field}: ${message}`, { cause })
}

/**
 * Parses and validates one post. `file` is the path shown in errors (relative to the repo root).
 * Any failure is rethrown as `front matter invalid: path=<file> field=<field>: …` with the
 * original error as `cause`.
 */
export function parsePost(file: string, source: string, ctx: FrontMatterContext = defaultFrontMatterContext): BlogPost {
  const slug = path.basename(file).replace(/\.mdx?$/, '')
  if (!SLUG_RE.test(slug)) throw fail(file, '(file name)', `slug "${slug}" must be kebab-case`)

  let parsed: matter.GrayMatterFile<string>
  try {
    // The `yaml` package's core schema keeps `date: 2026-02-30` a string, where gray-matter's default
    // engine (js-yaml) would silently roll it over to a Date of March 2. Passing options also bypasses
    // gray-matter's cache, which would otherwise return stale results across calls.
    parsed = matter(source, { engines: { yaml: (text) => (parseYaml(text) ?? {}) as object } })
  } catch (error) {
    throw fail(file, '(yaml)', (error as Error).message, error)
  }

  let frontMatter
  try {
    frontMatter = validateFrontMatter(parsed.data, ctx)
  } catch (error) {
    const field = error instanceof FrontMatterFieldError ? error.field : '(unknown)'
    throw fail(file, field, (error as Error).message, error)
  }

  const h1 = /^# (.+)$/m.exec(parsed.content)?.[1]?.trim()
  if (h1 !== frontMatter.title) {
    throw fail(file, 'title', `the page's H1 ${JSON.stringify(h1 ?? null)} must equal the title ${JSON.stringify(frontMatter.title)}`)
  }
  if (!parsed.content.includes(`# ${h1}\n\n${POST_HEADER_TAG}`)) {
    throw new Error(`post invalid: path=${file}: put ${POST_HEADER_TAG} on its own line right under the H1`)
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
