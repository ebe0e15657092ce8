/** @module RSS 2.0 and Atom 1.0 feeds of the blog: a pure builder and a thin writer for the static export. */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { Feed } from 'feed'
import { siteConfig } from '../../site.config'
import { findAuthor } from './authors'
import { type BlogPost, sortPosts } from './collections'
import { posts as indexedPosts } from './data'
import { findTag } from './tags'

export interface FeedSite {
  /** Absolute origin without a trailing slash, e.g. `https://ferry.example.org`. */
  url: string
  name: string
  description: string
  locale: string
}

export interface Feeds {
  rss: string
  atom: string
}

/** Midnight UTC of a YYYY-MM-DD day: feed dates that do not depend on the build machine. */
export const dayStart = (date: string) => new Date(`${date}T00:00:00Z`)

/**
 * Builds both feeds from the post index. All links are absolute, built from `site.url`.
 * Output is deterministic: the feed's `updated` is the newest post's date, not the build time.
 */
export function buildFeeds(posts: readonly BlogPost[], site: FeedSite): Feeds {
  const origin = site.url.replace(/\/+$/, '')
  const blogUrl = `${origin}/blog`
  const sorted = sortPosts(posts)
  const feed = new Feed({
    id: `${blogUrl}/`,
    title: `${site.name} blog`,
    description: site.description,
    link: `${blogUrl}/`,
    language: site.locale,
    updated: sorted[0] ? dayStart(sorted[0].date) : new Date(0),
    generator: 'Ferry scripts/postbuild.ts (feed)',
    favicon: `${origin}/favicon.svg`,
    copyright: `© ${site.name} contributors`,
    feedLinks: { rss: `${blogUrl}/rss.xml`, atom: `${blogUrl}/atom.xml` },
  })
  for (const post of sorted) {
    const link = `${origin}${post.route}`
    feed.addItem({
      title: post.title,
      id: link,
      link,
      date: dayStart(post.date),
      published: dayStart(post.date),
      description: post.description,
      author: post.authors.map((id) => ({
        name: findAuthor(id)?.name ?? id,
        link: `${blogUrl}/authors/${id}`,
      })),
      category: post.tags.map((id) => ({
        name: findTag(id)?.label ?? id,
        term: id,
        domain: `${blogUrl}/tags/${id}`,
      })),
    })
  }
  return { rss: feed.rss2(), atom: feed.atom1() }
}

/**
 * Writes `<outDir>/blog/rss.xml` and `<outDir>/blog/atom.xml` from the committed post index
 * (lib/blog/posts.generated.json) and site.config.ts. Call after `next build`.
 * @returns the written file paths.
 */
export function writeFeeds(outDir: string): string[] {
  const { rss, atom } = buildFeeds(indexedPosts, siteConfig)
  const dir = path.join(outDir, 'blog')
  mkdirSync(dir, { recursive: true })
  const written = [
    [path.join(dir, 'rss.xml'), rss],
    [path.join(dir, 'atom.xml'), atom],
  ] as const
  for (const [file, text] of written) writeFileSync(file, text)
  return written.map(([file]) => file)
}
