/** @module Pure views over the post index: sorting, year groups, tag and author counts. No fs, safe in the browser. */
import type { BlogFrontMatter } from './front-matter'
import type { ReadingTime } from './reading-time'

export interface BlogPost extends BlogFrontMatter {
  slug: string
  /** Site route, e.g. `/blog/private-apps`. */
  route: string
  /** Source file relative to the repository root. */
  file: string
  readingTime: ReadingTime
}

/** Newest first; posts of the same day by title, so the order never depends on the file system. */
export function sortPosts<T extends Pick<BlogPost, 'date' | 'title'>>(posts: readonly T[]): T[] {
  return [...posts].sort((a, b) =>
    a.date === b.date ? a.title.localeCompare(b.title, 'en') : a.date < b.date ? 1 : -1,
  )
}

export interface YearGroup<T> {
  year: string
  posts: T[]
}

/** Groups posts by the year of their date, newest year first, keeping the newest-first order inside each year. */
export function groupByYear<T extends Pick<BlogPost, 'date' | 'title'>>(posts: readonly T[]): YearGroup<T>[] {
  const groups: YearGroup<T>[] = []
  for (const post of sortPosts(posts)) {
    const year = post.date.slice(0, 4)
    const last = groups[groups.length - 1]
    if (last && last.year === year) last.posts.push(post)
    else groups.push({ year, posts: [post] })
  }
  return groups
}

/** Number of posts per id, in the order of `ids`; ids without posts count 0. */
function countBy(posts: readonly BlogPost[], ids: readonly string[], pick: (p: BlogPost) => readonly string[]) {
  return ids.map((id) => ({ id, count: posts.filter((p) => pick(p).includes(id)).length }))
}

export function countTags(posts: readonly BlogPost[], tagIds: readonly string[]) {
  return countBy(posts, tagIds, (p) => p.tags)
}

export function countAuthors(posts: readonly BlogPost[], authorIds: readonly string[]) {
  return countBy(posts, authorIds, (p) => p.authors)
}

export function postsWithTag(posts: readonly BlogPost[], tag: string): BlogPost[] {
  return sortPosts(posts.filter((p) => p.tags.includes(tag)))
}

export function postsByAuthor(posts: readonly BlogPost[], author: string): BlogPost[] {
  return sortPosts(posts.filter((p) => p.authors.includes(author)))
}

/** `2026-11-22` → `November 22, 2026`, in UTC so server and browser agree (no hydration mismatch). */
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

export function formatDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number)
  return `${MONTHS[(month ?? 1) - 1]} ${day}, ${year}`
}

/** "3 min read". Lives here, not in reading-time.ts, so pages don't bundle the reading-time package. */
export function formatReadingTime(rt: ReadingTime): string {
  return `${rt.minutes} min read`
}
