import { useRouter } from 'next/router'
import { findPost } from '../../lib/blog/data'
import { AuthorList } from './author-list'
import { PostDateLine } from './post-meta'
import { TagList } from './tag-list'

/**
 * Date, authors, reading time and tags, rendered by every post right under its H1.
 * Reads the post from the committed index (lib/blog/posts.generated.json) by route, so the
 * reading time is the same number the list pages show.
 */
export function PostHeader() {
  const { pathname } = useRouter()
  const slug = pathname.replace(/^\/blog\//, '')
  const post = findPost(slug)
  if (!post) {
    throw new Error(`PostHeader: ${pathname} is not in lib/blog/posts.generated.json; run npm run gen`)
  }
  return (
    <div className="ferry-blog-post-header">
      <PostDateLine post={post} />
      <AuthorList authors={post.authors} showTitle />
      <TagList tags={post.tags} />
    </div>
  )
}
