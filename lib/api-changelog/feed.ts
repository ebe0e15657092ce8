/** @module The API changelog's Atom feed, one entry per release: a pure builder and a writer for the static export. */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { Feed } from 'feed'
import { dayStart, type FeedSite } from '../blog/feed.ts'
import type { OperationChanges, ReleaseNotes } from './releases.ts'

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

function summary(release: ReleaseNotes): string {
  if (release.baseline !== undefined) return `The first frozen contract, version ${release.versions.to}: ${release.baseline} operations.`
  const count = (status: OperationChanges['status']) => release.operations.filter((o) => o.status === status).length
  const { from, to } = release.versions
  const version = from === undefined || from === to ? `Contract version ${to}` : `Contract ${from} → ${to}`
  return `${version}: ${count('added')} operations added, ${count('changed')} changed, ${count('removed')} removed; ${release.breaking === 0 ? 'none breaking' : `${release.breaking} with breaking changes`}.`
}

function content(release: ReleaseNotes, origin: string): string {
  const items = release.operations.map((op) => {
    const name = escapeHtml(`${op.method} ${op.path}`)
    const title = op.page ? `<a href="${escapeHtml(origin + op.page.route)}"><code>${name}</code></a>` : `<code>${name}</code>`
    return `<li>${title}: ${op.status}${op.breaking ? ' (<strong>breaking</strong>)' : ''}</li>`
  })
  return `<p>${escapeHtml(summary(release))}</p>${items.length ? `<ul>${items.join('')}</ul>` : ''}`
}

export interface ChangelogFeedInput {
  releases: readonly ReleaseNotes[]
  /** Route of the changelog page and of the feed, e.g. `/docs/api/changelog`. */
  page: string
  feed: string
  /** Heading anchor of each release on the page, by release id. */
  anchors: ReadonlyMap<string, string>
  /** YYYY-MM-DD for the unreleased entry (the contract's last change); frozen releases carry their own day. */
  unreleasedDate: string
}

/**
 * Atom 1.0, all links absolute. Deterministic: each entry is dated by its release's frozen day
 * (versions.json), the unreleased one by the day given, the feed by the newest entry.
 */
export function buildChangelogFeed(input: ChangelogFeedInput, site: FeedSite): string {
  const origin = site.url.replace(/\/+$/, '')
  const pageUrl = `${origin}${input.page}`
  const dated = input.releases.map((release) => ({ release, date: dayStart(release.date ?? input.unreleasedDate) }))
  const feed = new Feed({
    id: pageUrl,
    title: `${site.name} API changelog`,
    description: 'What changed in the Ferry API contract in each release, breaking changes marked.',
    link: pageUrl,
    language: site.locale,
    updated: dated.reduce((max, d) => (d.date > max ? d.date : max), new Date(0)),
    generator: 'Ferry scripts/postbuild.ts (API changelog feed)',
    favicon: `${origin}/favicon.svg`,
    copyright: `© ${site.name} contributors`,
    feedLinks: { atom: `${origin}${input.feed}` },
  })
  for (const { release, date } of dated) {
    const link = `${pageUrl}#${input.anchors.get(release.id) ?? release.id}`
    feed.addItem({ title: release.id === 'unreleased' ? 'Unreleased API changes' : `API ${release.title}`, id: link, link, date, published: date, description: summary(release), content: content(release, origin) })
  }
  return feed.atom1()
}

/** Writes the feed to `<outDir><feed>`; returns the file written. */
export function writeChangelogFeed(outDir: string, input: ChangelogFeedInput, site: FeedSite): string {
  const file = path.join(outDir, input.feed)
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, buildChangelogFeed(input, site))
  return file
}
