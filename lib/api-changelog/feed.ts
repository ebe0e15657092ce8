/** @module The API changelog's Atom feed, one entry per release: a pure builder and a writer for the static export. */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { Feed } from 'feed'
import { dayStart, type FeedSite } from '../blog/feed.ts'
import type { OperationChanges, ReleaseNotes } from './releases.ts'

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

function summary(release: ReleaseNotes): string {
  if (release.baseline !== undefined)
    return `The first frozen contract, version ${release.versions.to}: ${release.baseline} operations.`
  const count = (status: OperationChanges['status']) => release.operations.filter((o) => o.status === status).length
  const { from, to } = release.versions
  const version = from === undefined || from === to ? `Contract version ${to}` : `Contract ${from} → ${to}`
  return `${version}: ${count('added')} operations added, ${count('changed')} changed, ${count('removed')} removed; ${release.breaking === 0 ? 'none breaking' : `${release.breaking} with breaking changes`}.`
}

function content(release: ReleaseNotes, origin: string): string {
  const items = release.operations.map((op) => {
    const name = escapeHtml(`${op.method} ${op.path}`)
    const title = op.page
      ? `<a href="${escapeHtml(origin + op.page.route)}"><code>${name}</code></a>`
      : `<code>${name}</code>`
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
    feed.addItem({
      title: release.id === 'unreleased' ? 'Unreleased API changes' : `API ${release.title}`,
      id: link,
      link,
      date,
      published: date,
      description: summary(release),
      content: content(release, origin),
    })
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

/** Where an operation's own feed is: `<changelog page>/<operationId>.xml`, e.g. `/docs/api/changelog/createApp.xml`. */
export const operationFeedPath = (page: string, operationId: string): string => `${page}/${operationId}.xml`

/** An operation of the current contract, with its reference page. */
export interface FeedOperation {
  operationId: string
  summary: string
  route: string
  method: string
  path: string
}

function lineHtml(line: OperationChanges['lines'][number]): string {
  const members = line.members.length ? ` ${line.members.map((m) => `<code>${escapeHtml(m)}</code>`).join(', ')}` : ''
  const mark = line.breaking
    ? line.accepted
      ? ' (<strong>breaking</strong>, accepted)'
      : ' (<strong>breaking</strong>)'
    : line.policy
      ? ' (additive under the versioning policy)'
      : ''
  return `<li>${escapeHtml(line.location)}${members}: ${escapeHtml(line.what)}${mark}</li>`
}

/**
 * Atom 1.0 for one operation: an entry for each release that added or changed it (method and
 * path as the current contract has them), newest first, with that release's lines for it.
 * An operation no release changed has a feed without entries, ready to subscribe to.
 */
export function buildOperationFeed(input: ChangelogFeedInput, operation: FeedOperation, site: FeedSite): string {
  const origin = site.url.replace(/\/+$/, '')
  const feedUrl = `${origin}${operationFeedPath(input.page, operation.operationId)}`
  const key = `${operation.method.toUpperCase()} ${operation.path}`
  const entries = input.releases.flatMap((release) => {
    const op = release.operations.find((o) => `${o.method} ${o.path}` === key)
    return op ? [{ release, op, date: dayStart(release.date ?? input.unreleasedDate) }] : []
  })
  const newest = input.releases
    .map((r) => dayStart(r.date ?? input.unreleasedDate))
    .reduce((max, d) => (d > max ? d : max), new Date(0))
  const feed = new Feed({
    id: feedUrl,
    title: `${site.name} API changelog: ${operation.method.toUpperCase()} ${operation.path} (${operation.operationId})`,
    description: `Changes to ${operation.operationId} (${operation.summary}) in each release of the Ferry API contract.`,
    link: `${origin}${operation.route}`,
    language: site.locale,
    updated: entries[0]?.date ?? newest,
    generator: 'Ferry scripts/postbuild.ts (API changelog feed per operation)',
    favicon: `${origin}/favicon.svg`,
    copyright: `© ${site.name} contributors`,
    feedLinks: { atom: feedUrl },
  })
  for (const { release, op, date } of entries) {
    const link = `${origin}${input.page}#${input.anchors.get(release.id) ?? release.id}`
    const when = release.id === 'unreleased' ? 'not yet released' : release.title
    const description = `${operation.operationId} ${op.status}${op.breaking ? ', with breaking changes' : ''} (${when}).`
    feed.addItem({
      title: `${operation.operationId} ${op.status}: ${release.id === 'unreleased' ? 'Unreleased' : release.title}`,
      id: `${feedUrl}#${release.id}`,
      link,
      date,
      published: date,
      description,
      content: `<p>${escapeHtml(description)}</p>${op.lines.length ? `<ul>${op.lines.map(lineHtml).join('')}</ul>` : ''}`,
    })
  }
  return feed.atom1()
}

/** Writes one feed per operation of the current contract; returns the files written. */
export function writeOperationFeeds(
  outDir: string,
  input: ChangelogFeedInput,
  operations: readonly FeedOperation[],
  site: FeedSite,
): string[] {
  return operations.map((operation) => {
    const file = path.join(outDir, operationFeedPath(input.page, operation.operationId))
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, buildOperationFeed(input, operation, site))
    return file
  })
}
