/** Visible links to the feeds written by lib/blog/feed.ts after the build. */
export function FeedLinks() {
  return (
    <p className="ferry-blog-feeds">
      Subscribe:{' '}
      <a href="/blog/rss.xml" type="application/rss+xml">
        RSS feed
      </a>
      <span aria-hidden="true"> · </span>
      <span className="sr-only">, </span>
      <a href="/blog/atom.xml" type="application/atom+xml">
        Atom feed
      </a>
    </p>
  )
}
