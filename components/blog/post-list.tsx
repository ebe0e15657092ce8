import Link from 'next/link'
import type { BlogPost } from '../../lib/blog/collections'
import { sortPosts } from '../../lib/blog/collections'
import { AuthorList } from './author-list'
import { PostDateLine } from './post-meta'
import { TagList } from './tag-list'

/** Post summaries, newest first: title link, date, reading time, authors, tags and description. */
export function PostList({ posts, headingLevel = 2 }: { posts: readonly BlogPost[]; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  return (
    <ul className="ferry-blog-list">
      {sortPosts(posts).map((post) => (
        <li key={post.slug}>
          <article className="ferry-blog-card" aria-labelledby={`post-${post.slug}`}>
            <Heading id={`post-${post.slug}`} className="ferry-blog-card-title">
              <Link href={post.route}>{post.title}</Link>
            </Heading>
            <PostDateLine post={post} />
            <AuthorList authors={post.authors} />
            <p className="ferry-blog-description">{post.description}</p>
            <TagList tags={post.tags} label={`Tags of ${post.title}`} />
            <p className="ferry-blog-read-more">
              {/* The accessible name starts with the visible words, so voice control's "click Read the post" finds it. */}
              <Link href={post.route}>
                Read the post<span className="sr-only"> “{post.title}”</span>
                <span aria-hidden="true"> →</span>
              </Link>
            </p>
          </article>
        </li>
      ))}
    </ul>
  )
}
