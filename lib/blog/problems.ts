/** @module Whole-blog content checks that no single post can fail: every tag and every author must have a post. */
import type { BlogPost } from './collections'
import { countAuthors, countTags } from './collections'

/** Problems as sentences naming the tag or author and the file that defines it; empty when the blog is consistent. */
export function blogProblems(
  posts: readonly BlogPost[],
  tagIds: readonly string[],
  authorIds: readonly string[],
): string[] {
  const problems: string[] = []
  for (const { id, count } of countTags(posts, tagIds)) {
    if (count === 0) problems.push(`tag "${id}" (lib/blog/tags.ts) has no posts; tag a post with it or remove it`)
  }
  for (const { id, count } of countAuthors(posts, authorIds)) {
    if (count === 0)
      problems.push(`author "${id}" (lib/blog/authors.ts) has no posts; credit a post or remove the author`)
  }
  return problems
}
