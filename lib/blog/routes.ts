/** @module getStaticPaths/getStaticProps for the dynamic tag and author pages; the MDX wrappers only re-export these. */
import { authors, findAuthor } from './authors'
import { findTag, tags } from './tags'

interface PageProps<T> {
  props: {
    ssg: T
    /** Read by Nextra's page setup: gives the dynamic page its title and description (theme.config head). */
    __nextra_dynamic_opts: { title: string; frontMatter: { title: string; description: string } }
  }
}

function pageProps<T>(ssg: T, title: string, description: string): PageProps<T> {
  return { props: { ssg, __nextra_dynamic_opts: { title, frontMatter: { title, description } } } }
}

export function tagPageTitle(label: string): string {
  return `Posts tagged “${label}”`
}

/** One page per tag of lib/blog/tags.ts; `fallback: false` makes any other tag a 404. */
export function tagStaticPaths() {
  return { paths: tags.map((t) => ({ params: { tag: t.id } })), fallback: false as const }
}

export function tagStaticProps(tag: string | string[] | undefined): PageProps<{ tag: string }> {
  const found = typeof tag === 'string' ? findTag(tag) : undefined
  if (!found) throw new Error(`blog tag page: unknown tag ${JSON.stringify(tag)} (lib/blog/tags.ts)`)
  return pageProps({ tag: found.id }, tagPageTitle(found.label), found.description)
}

/** One page per author of lib/blog/authors.ts. */
export function authorStaticPaths() {
  return { paths: authors.map((a) => ({ params: { author: a.id } })), fallback: false as const }
}

export function authorStaticProps(author: string | string[] | undefined): PageProps<{ author: string }> {
  const found = typeof author === 'string' ? findAuthor(author) : undefined
  if (!found) throw new Error(`blog author page: unknown author ${JSON.stringify(author)} (lib/blog/authors.ts)`)
  return pageProps(
    { author: found.id },
    `Posts by ${found.name}`,
    `Posts on the Ferry blog by ${found.name} (${found.title}).`,
  )
}
