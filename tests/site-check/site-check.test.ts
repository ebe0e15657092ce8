import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { publicRoutes, readBuiltSite, routeOf } from '../../lib/site-check/built-site.ts'
import { checkLinks } from '../../lib/site-check/links.ts'
import { findBrokenMarkdownLinks, findDuplicateRoutes } from '../../lib/site-check/sources.ts'
import { findBrokenTables } from '../../lib/site-check/tables.ts'
import { buildSitemap } from '../../lib/sitemap.ts'

const fixtures = join(import.meta.dirname, 'fixtures')

test('routeOf maps exported files to routes', () => {
  assert.equal(routeOf('index.html'), '/')
  assert.equal(routeOf('docs/intro.html'), '/docs/intro')
  assert.equal(routeOf('docs/api/index.html'), '/docs/api')
})

test('a broken internal link is an error naming the page and the link; a missing anchor is a warning', () => {
  const report = checkLinks(readBuiltSite(join(fixtures, 'out')))
  assert.deepEqual(report.errors.map((e) => `${e.page} -> ${e.href}`).sort(), [
    '/ -> /docs/gone',
    '/docs/intro -> ../missing-relative',
  ])
  assert.deepEqual(
    report.warnings.map((w) => `${w.page} -> ${w.href}`),
    ['/ -> /docs/intro#nowhere'],
  )
  assert.match(report.errors[0]!.reason, /no page or file at \//)
})

test('links in <head> and to external sites are not checked; files count as targets', () => {
  const report = checkLinks(readBuiltSite(join(fixtures, 'out')))
  const hrefs = [...report.errors, ...report.warnings].map((p) => p.href)
  assert.ok(!hrefs.includes('/missing-in-head.css'))
  assert.ok(!hrefs.includes('/feed.xml'))
  assert.ok(!hrefs.some((h) => h.startsWith('https:') || h.startsWith('mailto:')))
})

test('duplicate routes and broken markdown links are reported with the file', () => {
  const pages = join(fixtures, 'pages')
  const dupes = findDuplicateRoutes(pages)
  assert.equal(dupes.length, 1)
  assert.match(dupes[0]!.message, /duplicate route \/docs\/guide/)
  const broken = findBrokenMarkdownLinks(pages)
  assert.equal(broken.length, 1)
  assert.match(broken[0]!.file, /docs\/guide\.mdx:3$/)
  assert.match(broken[0]!.message, /\.\/nope\.mdx/)
})

test('sitemap lists public pages weekly at 0.5 and leaves out /search and /404', () => {
  const xml = buildSitemap(['/', '/docs/intro', '/search', '/404'], 'https://ferry.test')
  assert.match(xml, /<loc>https:\/\/ferry\.test<\/loc><changefreq>weekly<\/changefreq><priority>0\.5<\/priority>/)
  assert.match(xml, /<loc>https:\/\/ferry\.test\/docs\/intro<\/loc>/)
  assert.doesNotMatch(xml, /search|404/)
  assert.deepEqual(publicRoutes(readBuiltSite(join(fixtures, 'out'))), ['/', '/docs/config', '/docs/intro'])
})

test('table rows rendered as a paragraph of pipes are found, with the page and the first row; pipes in prose and code are not', () => {
  assert.deepEqual(findBrokenTables(readBuiltSite(join(fixtures, 'out'))), [
    { page: '/docs/config', line: '| FERRY_HOST | 127.0.0.1 |', rows: 2 },
  ])
})

test('postbuild fails on a broken Markdown table alone', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'ferry-postbuild-')), 'out')
  cpSync(join(fixtures, 'out', 'docs', 'config.html'), join(out, 'docs', 'config.html'))
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/postbuild.ts', '--out', out, '--pages', join(fixtures, 'pages'), '--skip-twins'],
    { encoding: 'utf8' },
  )
  assert.equal(run.status, 1, run.stdout)
  assert.match(run.stderr, /error broken Markdown table on \/docs\/config/)
  assert.match(run.stderr, /0 broken link\(s\), 1 broken Markdown table\(s\)/)
})

test('postbuild fails on a site with a broken link and says where', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'ferry-postbuild-')), 'out')
  cpSync(join(fixtures, 'out'), out, { recursive: true })
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/postbuild.ts', '--out', out, '--pages', join(fixtures, 'pages'), '--skip-twins'],
    { encoding: 'utf8' },
  )
  assert.equal(run.status, 1)
  assert.match(run.stderr, /broken link on \/: \/docs\/gone/)
  assert.match(run.stderr, /warn {2}broken anchor on \/: \/docs\/intro#nowhere/)
  assert.match(run.stderr, /duplicate route/)
  assert.match(
    run.stderr,
    /error broken Markdown table on \/docs\/config: 2 row\(s\) rendered as a paragraph of pipes, from "\| FERRY_HOST \|/,
  )
  assert.ok(existsSync(join(out, 'sitemap.xml')))
  assert.match(readFileSync(join(out, 'robots.txt'), 'utf8'), /Sitemap: /)
})
