import Link from 'next/link'
import { useData } from 'nextra/hooks'
import { authorIds, findAuthor } from '../../lib/blog/authors'
import { countAuthors, postsByAuthor } from '../../lib/blog/collections'
import { posts } from '../../lib/blog/data'
import { PostList } from './post-list'

/** /blog/authors: every author with avatar, title and post count. */
export function AuthorIndex() {
  return (
    <ul className="ferry-blog-index-list">
      {countAuthors(posts, authorIds).map(({ id, count }) => {
        const author = findAuthor(id)
        if (!author) return null
        return (
          <li key={id} className="ferry-blog-author-row">
            <img src={author.image} alt="" width={48} height={48} className="ferry-blog-avatar" />
            <span>
              <Link href={`/blog/authors/${id}`}>{author.name}</Link>{' '}
              <span className="ferry-blog-count">
                {count} {count === 1 ? 'post' : 'posts'}
              </span>
              <span className="ferry-blog-muted ferry-blog-block">{author.title}</span>
              <span className="ferry-blog-block ferry-blog-about">{author.about}</span>
            </span>
          </li>
        )
      })}
    </ul>
  )
}

/** /blog/authors/[author]: the author's posts. The id comes from getStaticProps (lib/blog/routes.ts). */
export function AuthorPosts() {
  const { author } = useData() as { author: string }
  const found = findAuthor(author)
  const written = postsByAuthor(posts, author)
  return (
    <>
      <div className="ferry-blog-author-row">
        {found ? <img src={found.image} alt="" width={48} height={48} className="ferry-blog-avatar" /> : null}
        <p className="ferry-blog-lead">
          {found?.title}. {found?.about} {written.length} {written.length === 1 ? 'post' : 'posts'}.{' '}
          <Link href="/blog/authors">All authors</Link>
        </p>
      </div>
      <PostList posts={written} />
    </>
  )
}

/** The H1 text of an author page. */
export function AuthorTitle() {
  const { author } = useData() as { author: string }
  return <>Posts by {findAuthor(author)?.name ?? author}</>
}
