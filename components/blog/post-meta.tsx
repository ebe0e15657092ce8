import { type BlogPost, formatDate, formatReadingTime } from '../../lib/blog/collections'

/** "November 22, 2026 · 3 min read": the same line on list pages and under a post's H1. */
export function PostDateLine({ post }: { post: Pick<BlogPost, 'date' | 'readingTime'> }) {
  return (
    <p className="ferry-blog-dateline">
      <time dateTime={post.date}>{formatDate(post.date)}</time>
      <span aria-hidden="true"> · </span>
      <span className="sr-only">, </span>
      <span>{formatReadingTime(post.readingTime)}</span>
    </p>
  )
}
