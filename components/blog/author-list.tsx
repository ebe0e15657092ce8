import Link from 'next/link'
import { findAuthor } from '../../lib/blog/authors'

/** Avatars and names of the given author ids, each linking to the author's page. */
export function AuthorList({ authors, showTitle = false }: { authors: readonly string[]; showTitle?: boolean }) {
  return (
    <ul className="ferry-blog-authors" aria-label="Authors">
      {authors.map((id) => {
        const author = findAuthor(id)
        if (!author) throw new Error(`AuthorList: unknown author "${id}" (lib/blog/authors.ts)`)
        return (
          <li key={id} className="ferry-blog-author">
            <img src={author.image} alt="" width={32} height={32} className="ferry-blog-avatar" />
            <span>
              <Link href={`/blog/authors/${id}`}>{author.name}</Link>
              {showTitle ? (
                <span className="ferry-blog-muted">
                  , {author.title}: {author.about}
                </span>
              ) : null}
            </span>
          </li>
        )
      })}
    </ul>
  )
}
