import Link from 'next/link'
import { useData } from 'nextra/hooks'
import { countTags, postsWithTag } from '../../lib/blog/collections'
import { posts } from '../../lib/blog/data'
import { findTag, tagIds } from '../../lib/blog/tags'
import { PostList } from './post-list'

/** /blog/tags: every tag with its description and post count. */
export function TagIndex() {
  return (
    <ul className="ferry-blog-index-list">
      {countTags(posts, tagIds).map(({ id, count }) => {
        const tag = findTag(id)
        return (
          <li key={id}>
            <Link href={`/blog/tags/${id}`}>{tag?.label ?? id}</Link>{' '}
            <span className="ferry-blog-count">
              {count} {count === 1 ? 'post' : 'posts'}
            </span>
            <p className="ferry-blog-muted">{tag?.description}</p>
          </li>
        )
      })}
    </ul>
  )
}

/** /blog/tags/[tag]: the tag's description and its posts. The tag id comes from getStaticProps (lib/blog/routes.ts). */
export function TagPosts() {
  const { tag } = useData() as { tag: string }
  const found = findTag(tag)
  const tagged = postsWithTag(posts, tag)
  return (
    <>
      <p className="ferry-blog-lead">
        {found?.description} {tagged.length} {tagged.length === 1 ? 'post' : 'posts'}.{' '}
        <Link href="/blog/tags">All tags</Link>
      </p>
      <PostList posts={tagged} />
    </>
  )
}

/** The H1 text of a tag page. */
export function TagTitle() {
  const { tag } = useData() as { tag: string }
  return <>Posts tagged “{findTag(tag)?.label ?? tag}”</>
}
