import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { hasTwin, twinPath } from '../../lib/markdown-twins/routes.ts'
import { absoluteUrl } from '../../lib/markdown-twins/site-links.ts'
import { pagesWithoutTwinLink, writeTwins } from '../../lib/markdown-twins/twins.ts'
import type { BuiltSite } from '../../lib/site-check/built-site.ts'
import { checkLinks } from '../../lib/site-check/links.ts'
import { findBrokenMarkdownLinks } from '../../lib/site-check/sources.ts'

test('a twin sits next to its page; an index page takes its folder name', () => {
  assert.equal(twinPath('/docs/intro'), '/docs/intro.md')
  assert.equal(twinPath('/docs/api'), '/docs/api.md')
  assert.equal(twinPath('/docs/getting-started/local-deploy'), '/docs/getting-started/local-deploy.md')
  assert.throws(() => twinPath('/'))
})

test('docs pages and posts have twins; blog list pages, tag pages and other pages do not', () => {
  assert.ok(hasTwin('pages/docs/intro.mdx', {}))
  assert.ok(hasTwin('pages/docs/api/apps/create.mdx', {}))
  assert.ok(hasTwin('pages/blog/first-meet-ferry.mdx', { date: '2026-11-22' }))
  assert.ok(!hasTwin('pages/blog/index.mdx', {}))
  assert.ok(!hasTwin('pages/blog/tags/[tag].mdx', { date: '2026-11-22' }))
  assert.ok(!hasTwin('pages/demo.mdx', {}))
  assert.ok(!hasTwin('pages/index.mdx', {}))
})

test('site links in twins become absolute, and point at the twin when there is one', () => {
  const target = {
    siteUrl: 'https://f.test',
    route: '/docs/getting-started/logging',
    twinRoutes: new Set(['/docs/intro', '/docs/getting-started/logging']),
  }
  assert.equal(absoluteUrl('/docs/intro#why', target), 'https://f.test/docs/intro.md#why')
  assert.equal(absoluteUrl('#levels', target), 'https://f.test/docs/getting-started/logging.md#levels')
  assert.equal(absoluteUrl('../intro', target), 'https://f.test/docs/intro.md')
  assert.equal(absoluteUrl('/openapi.yaml', target), 'https://f.test/openapi.yaml')
  assert.equal(absoluteUrl('https://example.com/x', target), 'https://example.com/x')
  assert.equal(absoluteUrl('mailto:a@b.c', target), 'mailto:a@b.c')
})

const page = (route: string, head: string, body = '') => ({
  route,
  file: `${route}.html`,
  html: `<html><head>${head}</head><body>${body}</body></html>`,
})

test('the link check fails a page whose Markdown alternate link has no twin, and accepts links to twins', () => {
  const site: BuiltSite = {
    outDir: '/nowhere',
    pages: new Map([
      [
        '/docs/intro',
        page(
          '/docs/intro',
          '<link rel="alternate" type="text/markdown" href="/docs/intro.md"/>',
          '<a href="/docs/intro.md">Markdown</a>',
        ),
      ],
      ['/docs/gone', page('/docs/gone', '<link rel="alternate" type="text/markdown" href="/docs/gone.md"/>')],
      ['/blog', page('/blog', '<link rel="alternate" type="application/rss+xml" href="/blog/rss-missing.xml"/>')],
    ]),
    files: new Set(['/docs/intro.html', '/docs/intro.md', '/docs/gone.html', '/blog.html']),
  }
  const report = checkLinks(site)
  assert.deepEqual(report.errors, [
    { page: '/docs/gone', href: '/docs/gone.md', reason: 'no Markdown twin at /docs/gone.md' },
  ])
})

test('a markdown link to a twin URL in a page source is not reported as a broken file link', () => {
  const pages = join(mkdtempSync(join(tmpdir(), 'ferry-twin-links-')), 'pages')
  mkdirSync(join(pages, 'docs/api'), { recursive: true })
  writeFileSync(join(pages, 'docs/intro.mdx'), '# Intro\n')
  writeFileSync(join(pages, 'docs/api/index.mdx'), '# API\n')
  writeFileSync(
    join(pages, 'docs/guide.mdx'),
    '# Guide\n\nSee [intro](/docs/intro.md), [API](/docs/api.md) and [gone](/docs/gone.md).\n',
  )
  const broken = findBrokenMarkdownLinks(pages)
  assert.deepEqual(
    broken.map((w) => w.message),
    ['markdown link to /docs/gone.md does not resolve to a file'],
  )
})

test('writing twins fails, naming route and source, when a twin has no built page', () => {
  const out = mkdtempSync(join(tmpdir(), 'ferry-twins-out-'))
  const twin = {
    section: 'docs' as const,
    route: '/docs/stale',
    path: '/docs/stale.md',
    title: 'Stale',
    description: '',
    file: 'pages/docs/stale.mdx',
    markdown: '# Stale\n',
  }
  assert.throws(
    () => writeTwins(out, [twin], new Set(['/docs/intro'])),
    /markdown twins without a built page: \/docs\/stale \(pages\/docs\/stale\.mdx\)/,
  )
  writeTwins(out, [twin], new Set(['/docs/stale']))
  assert.equal(readFileSync(join(out, 'docs/stale.md'), 'utf8'), '# Stale\n')
})

test('a page whose twin exists but whose head does not link it is reported', () => {
  const twin = (route: string) => ({
    section: 'docs' as const,
    route,
    path: `${route}.md`,
    title: route,
    description: '',
    file: `pages${route}.mdx`,
    markdown: '',
  })
  const site: BuiltSite = {
    outDir: '/nowhere',
    pages: new Map([
      [
        '/docs/linked',
        page(
          '/docs/linked',
          '<link rel="alternate" type="text/markdown" title="Linked (Markdown)" href="/docs/linked.md"/>',
        ),
      ],
      ['/docs/unlinked', page('/docs/unlinked', '<link rel="canonical" href="https://f.test/docs/unlinked"/>')],
    ]),
    files: new Set(),
  }
  assert.deepEqual(pagesWithoutTwinLink(site, [twin('/docs/linked'), twin('/docs/unlinked')]), ['/docs/unlinked'])
})
