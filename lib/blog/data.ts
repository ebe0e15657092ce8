/** @module Typed access to the committed post index written by scripts/gen-blog.ts; what pages, components and feeds read. */
import type { BlogPost } from './collections'
import index from './posts.generated.json' with { type: 'json' }

export const posts: readonly BlogPost[] = index.posts

export function findPost(slug: string): BlogPost | undefined {
  return posts.find((p) => p.slug === slug)
}
