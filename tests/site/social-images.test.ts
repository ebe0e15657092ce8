import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { cachedCard, renderMissing } from '../../lib/social-images/cache.ts'
import { readPng } from '../../lib/social-images/png.ts'
import { sectionsOf } from '../../lib/social-images/sections.ts'
import { sourcePages } from '../../lib/social-images/source-pages.ts'

const pagesDir = join(import.meta.dirname, '..', '..', 'pages')
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

test('a card is a 1200×630 PNG carrying its title; a new title is a new image, an unchanged card is not drawn again', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'ferry-social-'))
  const intro = { title: 'Introduction', section: 'Documentation' }
  assert.deepEqual(await renderMissing(cache, [intro], 1), { rendered: 1, reused: 0 })
  const png = readPng(readFileSync(cachedCard(cache, intro)), 'intro card')
  assert.deepEqual([png.width, png.height, png.text.get('Title')], [1200, 630, 'Introduction'])

  const renamed = { ...intro, title: 'Introduction to Ferry' }
  const moved = { ...intro, section: 'Documentation › Getting started' }
  assert.deepEqual(await renderMissing(cache, [intro, renamed, moved, renamed], 2), { rendered: 2, reused: 1 })
  assert.equal(readdirSync(cache).length, 3, 'one file per distinct card, no partial files left')
  const hashes = new Set([intro, renamed, moved].map((card) => sha(cachedCard(cache, card))))
  assert.equal(hashes.size, 3, 'a changed title or section draws a different image')
  assert.equal(readPng(readFileSync(cachedCard(cache, renamed)), 'renamed').text.get('Title'), 'Introduction to Ferry')
})

test('the pages read before the build: every page file, dynamic tag and author pages, their document titles', () => {
  const titles = new Map(sourcePages(pagesDir).map((p) => [p.route, p.documentTitle]))
  assert.equal(titles.get('/'), 'Ferry: A self-hosted update server for desktop apps')
  assert.equal(titles.get('/docs/intro'), 'Introduction – Ferry')
  assert.equal(titles.get('/docs/api'), 'API reference – Ferry')
  assert.equal(titles.get('/blog/tags/development'), 'Posts tagged “Development” – Ferry')
  assert.equal(titles.get('/404'), 'Page not found – Ferry')
  assert.ok(![...titles.keys()].some((route) => route.includes('[')), 'no literal [param] route')
})

test('a card’s section is the sidebar titles of the folders its page sits in', async () => {
  const routes = ['/docs/api/apps/create', '/docs/getting-started/logging', '/docs/intro', '/blog', '/demo', '/']
  const sections = await sectionsOf(pagesDir, routes)
  assert.deepEqual(
    routes.map((r) => sections.get(r)),
    [
      'Documentation › API reference › Apps',
      'Documentation › Getting started',
      'Documentation',
      'Blog',
      'A self-hosted update server for desktop apps',
      '',
    ],
  )
})
