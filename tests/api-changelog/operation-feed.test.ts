/** The per-operation Atom feeds of the API changelog, from the real contract and its frozen releases. */
import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { xml2js, type Element } from 'xml-js'
import {
  buildOperationFeed,
  operationFeedPath,
  writeOperationFeeds,
  type FeedOperation,
} from '../../lib/api-changelog/feed.ts'
import { loadChangelog } from '../../lib/api-changelog/index.ts'
import { releaseAnchors } from '../../lib/api-changelog/page.ts'
import { loadReal } from '../codegen/helpers.ts'
import { ROOT } from './helpers.ts'

const site = { url: 'https://ferry.example.org/', name: 'Ferry', description: 'd', locale: 'en' }
const releases = await loadChangelog(ROOT)
const input = {
  releases,
  page: '/docs/api/changelog',
  feed: '/docs/api/changelog.xml',
  anchors: releaseAnchors(releases),
  unreleasedDate: '2027-02-03',
}
const operations: FeedOperation[] = (await loadReal()).tags.flatMap((t) => t.operations)
const operation = (id: string) => operations.find((o) => o.operationId === id) ?? assert.fail(`no operation ${id}`)

const children = (el: Element, name: string) => (el.elements ?? []).filter((e) => e.name === name)
const text = (el: Element | undefined) => el?.elements?.[0]?.text ?? el?.elements?.[0]?.cdata
const feedOf = (xml: string) => children(xml2js(xml) as Element, 'feed')[0]!

test('an operation added since the frozen release has one entry, linking the changelog section', () => {
  const feed = feedOf(buildOperationFeed(input, operation('pauseVersion'), site))
  assert.equal(text(children(feed, 'id')[0]), 'https://ferry.example.org/docs/api/changelog/pauseVersion.xml')
  assert.equal(
    text(children(feed, 'title')[0]),
    'Ferry API changelog: POST /v1/apps/{app}/versions/{version}/pause (pauseVersion)',
  )
  assert.equal(
    children(feed, 'link').find((l) => l.attributes?.rel === 'alternate')?.attributes?.href,
    'https://ferry.example.org/docs/api/apps/pause-version',
  )
  const entries = children(feed, 'entry')
  assert.deepEqual(
    entries.map((e) => text(children(e, 'title')[0])),
    ['pauseVersion added: Unreleased'],
  )
  assert.equal(
    children(entries[0]!, 'link')[0]?.attributes?.href,
    'https://ferry.example.org/docs/api/changelog#unreleased',
  )
  assert.equal(text(children(entries[0]!, 'updated')[0]), '2027-02-03T00:00:00.000Z')
})

test('a changed operation lists its own changes, not those of another method on its path; one without changes has no entries', () => {
  const escape = (t: string) =>
    t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
  const unreleased = releases[0]!.operations
  // Two operations on one path, both changed: the feed of each has only its own lines.
  const pair = unreleased.filter(
    (o) =>
      o.status === 'changed' &&
      o.page &&
      unreleased.some(
        (p) => p !== o && p.path === o.path && p.status === 'changed' && p.lines.length !== o.lines.length,
      ),
  )
  assert.ok(pair.length >= 2, 'no path with two changed operations in the unreleased changes')
  for (const changed of pair) {
    const feed = feedOf(buildOperationFeed(input, operation(changed.page!.operationId), site))
    const content = String(text(children(children(feed, 'entry')[0]!, 'content')[0]))
    assert.equal(content.match(/<li>/g)?.length, changed.lines.length, `${changed.page!.operationId}: ${content}`)
    for (const line of changed.lines)
      assert.ok(content.includes(escape(line.what)), `${line.what} missing from ${content}`)
  }
  // The first frozen release is the baseline: it changes nothing.
  const baselineOnly = { ...input, releases: releases.filter((r) => r.baseline !== undefined) }
  assert.equal(baselineOnly.releases.length, 1)
  const empty = feedOf(buildOperationFeed(baselineOnly, operation('createApp'), site))
  assert.deepEqual(children(empty, 'entry'), [])
  assert.equal(text(children(empty, 'updated')[0]), '2026-11-22T00:00:00.000Z')
})

test('writes one feed per operation next to the changelog page', () => {
  const out = mkdtempSync(join(tmpdir(), 'ferry-operation-feeds-'))
  try {
    const files = writeOperationFeeds(out, input, operations, site)
    assert.equal(files.length, operations.length)
    assert.deepEqual(
      readdirSync(join(out, 'docs/api/changelog')).sort(),
      operations.map((o) => `${o.operationId}.xml`).sort(),
    )
    assert.equal(operationFeedPath('/docs/api/changelog', 'createApp'), '/docs/api/changelog/createApp.xml')
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
})
