import Link from 'next/link'
import { groupByYear } from '../../lib/blog/collections'
import { formatDate } from '../../lib/blog/collections'
import { posts } from '../../lib/blog/data'

/** Every post, grouped by year, newest first; a compact list of date and title. */
export function BlogArchive() {
  return (
    <div className="ferry-blog-archive">
      {groupByYear(posts).map(({ year, posts: inYear }) => (
        <section key={year} aria-labelledby={`year-${year}`}>
          <h2 id={`year-${year}`} className="ferry-blog-section-title">
            {year}
          </h2>
          <ul className="ferry-blog-archive-list">
            {inYear.map((post) => (
              <li key={post.slug}>
                <time dateTime={post.date} className="ferry-blog-muted">
                  {formatDate(post.date)}
                </time>
                <Link href={post.route}>{post.title}</Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  )
}
