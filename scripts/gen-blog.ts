/**
 * @module Generates the blog index from post front matter: lib/blog/posts.generated.json and pages/blog/_meta.ts.
 * `--check` writes nothing and fails, naming the file, when a committed output is stale.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { authorIds } from '../lib/blog/authors'
import { buildBlogMeta, buildPostIndex } from '../lib/blog/meta'
import { loadPosts } from '../lib/blog/posts'
import { blogProblems } from '../lib/blog/problems'
import { tagIds } from '../lib/blog/tags'

export const OUTPUTS = { index: 'lib/blog/posts.generated.json', meta: 'pages/blog/_meta.ts' } as const

/** Builds every output as `[relative path, text]`; throws on the first invalid post or whole-blog problem. */
export function generateBlog(root: string): [string, string][] {
  const posts = loadPosts('pages/blog', root)
  const problems = blogProblems(posts, tagIds, authorIds)
  if (problems.length) throw new Error(`blog content invalid:\n  - ${problems.join('\n  - ')}`)
  return [
    [OUTPUTS.index, buildPostIndex(posts)],
    [OUTPUTS.meta, buildBlogMeta(posts)],
  ]
}

/** Files whose committed text differs from what the generator would write. */
export function staleOutputs(root: string): string[] {
  return generateBlog(root)
    .filter(([file, text]) => {
      const full = path.join(root, file)
      return !existsSync(full) || readFileSync(full, 'utf8') !== text
    })
    .map(([file]) => file)
}

function main(argv: string[]) {
  const root = process.cwd()
  if (argv.includes('--check')) {
    const stale = staleOutputs(root)
    if (stale.length) {
      console.error(`gen-blog --check: stale generated file(s): ${stale.join(', ')}. Run: npx tsx scripts/gen-blog.ts`)
      process.exit(1)
    }
    console.log('gen-blog --check: blog index and _meta are up to date')
    return
  }
  for (const [file, text] of generateBlog(root)) {
    writeFileSync(path.join(root, file), text)
    console.log(`gen-blog: wrote ${file}`)
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('gen-blog.ts')) {
  try {
    main(process.argv.slice(2))
  } catch (error) {
    console.error(`gen-blog: ${(error as Error).message}`)
    process.exit(1)
  }
}
