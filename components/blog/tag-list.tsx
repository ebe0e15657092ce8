import Link from 'next/link'
import { findTag } from '../../lib/blog/tags'

/** Links to the tag pages of the given tag ids. */
export function TagList({ tags, label = 'Tags' }: { tags: readonly string[]; label?: string }) {
  return (
    <ul className="ferry-blog-tags" aria-label={label}>
      {tags.map((id) => (
        <li key={id}>
          <Link href={`/blog/tags/${id}`} className="ferry-blog-tag">
            {findTag(id)?.label ?? id}
          </Link>
        </li>
      ))}
    </ul>
  )
}
