import { posts } from '../../lib/blog/data'
import { FeedLinks } from './feed-links'
import { PostList } from './post-list'

/** /blog: feed links and every post, newest first. */
export function BlogIndex() {
  return (
    <>
      <FeedLinks />
      <PostList posts={posts} />
    </>
  )
}
