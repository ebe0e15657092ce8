import assert from 'node:assert/strict'
import { test } from 'node:test'
import { xml2js, type Element } from 'xml-js'
import { buildChangelogFeed } from '../../lib/api-changelog/feed.ts'
import { loadChangelog } from '../../lib/api-changelog/index.ts'
import { releaseAnchors } from '../../lib/api-changelog/page.ts'
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

const children = (el: Element, name: string) => (el.elements ?? []).filter((e) => e.name === name)
const text = (el: Element | undefined) => el?.elements?.[0]?.text ?? el?.elements?.[0]?.cdata

test('the feed is Atom XML with one entry per release, dated by its freeze day, linking its section', () => {
  const xml = buildChangelogFeed(input, site)
  const doc = xml2js(xml) as Element
  const feed = children(doc, 'feed')[0]!
  assert.equal(feed.attributes?.xmlns, 'http://www.w3.org/2005/Atom')
  const entries = children(feed, 'entry')
  assert.equal(entries.length, releases.length)
  assert.deepEqual(
    entries.map((e) => text(children(e, 'title')[0])),
    ['Unreleased API changes', 'API Version 0.1'],
  )
  assert.deepEqual(
    entries.map((e) => text(children(e, 'updated')[0])),
    ['2027-02-03T00:00:00.000Z', '2026-11-22T00:00:00.000Z'],
  )
  assert.deepEqual(
    entries.map((e) => children(e, 'link')[0]?.attributes?.href),
    [
      'https://ferry.example.org/docs/api/changelog#unreleased',
      'https://ferry.example.org/docs/api/changelog#version-01',
    ],
  )
  assert.match(
    String(text(children(entries[0]!, 'content')[0])),
    /<a href="https:\/\/ferry\.example\.org\/docs\/api\/apps\/pause-version"><code>POST \/v1\/apps\/\{app\}\/versions\/\{version\}\/pause<\/code><\/a>: added/,
  )
  assert.equal(buildChangelogFeed(input, site), xml, 'deterministic')
})
