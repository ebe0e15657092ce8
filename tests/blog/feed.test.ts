import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, test } from 'node:test'
// xml-js is the XML library the feed package itself depends on.
import { xml2js, type Element } from 'xml-js'
import { buildFeeds, writeFeeds } from '../../lib/blog/feed'
import { posts } from '../../lib/blog/data'
import { siteConfig } from '../../site.config'

const site = { ...siteConfig, url: 'https://updates.example.com/' }

function children(el: Element | undefined, name: string): Element[] {
  return (el?.elements ?? []).filter((e) => e.type === 'element' && e.name === name)
}
function child(el: Element | undefined, name: string): Element {
  const found = children(el, name)[0]
  assert.ok(found, `expected <${name}> in <${el?.name}>`)
  return found
}
function text(el: Element | undefined): string {
  return (el?.elements ?? [])
    .map((e) => (e.type === 'text' || e.type === 'cdata' ? String(e.text ?? e.cdata) : text(e)))
    .join('')
}

describe('buildFeeds', () => {
  const { rss, atom } = buildFeeds(posts, site)

  test('RSS 2.0 has one item per post, newest first, with absolute links', () => {
    const doc = xml2js(rss) as Element
    const root = child(doc, 'rss')
    assert.equal(root.attributes?.version, '2.0')
    const items = children(child(root, 'channel'), 'item')
    assert.equal(items.length, 8)
    assert.equal(items.length, posts.length)
    for (const [i, item] of items.entries()) {
      const post = posts[i]!
      assert.equal(text(child(item, 'title')), post.title)
      assert.equal(text(child(item, 'link')), `https://updates.example.com${post.route}`)
      assert.equal(text(child(item, 'description')), post.description)
      assert.equal(new Date(text(child(item, 'pubDate'))).toISOString().slice(0, 10), post.date)
      assert.deepEqual(children(item, 'category').map(text).length, post.tags.length)
    }
  })

  test('Atom 1.0 entries have ids, updated, links, authors and categories', () => {
    const feed = child(xml2js(atom) as Element, 'feed')
    assert.equal(feed.attributes?.xmlns, 'http://www.w3.org/2005/Atom')
    assert.equal(text(child(feed, 'updated')), '2026-11-22T00:00:00.000Z')
    const entries = children(feed, 'entry')
    assert.equal(entries.length, posts.length)
    for (const [i, entry] of entries.entries()) {
      const post = posts[i]!
      const url = `https://updates.example.com${post.route}`
      assert.equal(text(child(entry, 'id')), url)
      assert.equal(child(entry, 'link').attributes?.href, url)
      assert.match(text(child(entry, 'updated')), /^\d{4}-\d{2}-\d{2}T/)
      assert.equal(children(entry, 'author').length, post.authors.length)
      assert.deepEqual(
        children(entry, 'category').map((c) => c.attributes?.term),
        post.tags,
      )
    }
  })

  test('feed links point at the absolute feed URLs', () => {
    assert.match(rss, /https:\/\/updates\.example\.com\/blog\/rss\.xml/)
    assert.match(atom, /href="https:\/\/updates\.example\.com\/blog\/atom\.xml"/)
  })

  test('is deterministic (no build-time timestamps)', () => {
    assert.deepEqual(buildFeeds(posts, site), { rss, atom })
  })
})

test('writeFeeds writes blog/rss.xml and blog/atom.xml under the out dir', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'ferry-feeds-'))
  try {
    const written = writeFeeds(out)
    assert.deepEqual(written, [path.join(out, 'blog', 'rss.xml'), path.join(out, 'blog', 'atom.xml')])
    const expected = buildFeeds(posts, siteConfig)
    assert.equal(readFileSync(written[0]!, 'utf8'), expected.rss)
    assert.equal(readFileSync(written[1]!, 'utf8'), expected.atom)
    assert.match(expected.rss, new RegExp(`<link>${siteConfig.url}/blog/first-meet-ferry</link>`))
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
})
