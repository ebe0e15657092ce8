/**
 * After `next build`: adds the pages' front matter keywords to the search index (lib/search-keywords.ts),
 * writes the files derived from the built site (blog feeds, the API changelog's feeds, sitemap,
 * robots.txt, a Markdown twin of every docs page and post, llms.txt, llms-full.txt, each page's social card
 * under og/), then checks it. A page that cannot become clean Markdown, a broken internal link or a
 * Markdown table rendered as a paragraph of pipes fails the build; broken anchors, duplicate routes
 * and broken markdown links are warnings. Every message names its page/file.
 *   tsx scripts/postbuild.ts [--out DIR] [--pages DIR] [--skip-twins] [--social-cache DIR]
 * `--skip-twins` is for checking a site that is not this repository's (the site-check fixtures).
 */
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { siteConfig } from '../site.config.ts'
import { publicRoutes, readBuiltSite } from '../lib/site-check/built-site.ts'
import { checkLinks } from '../lib/site-check/links.ts'
import { findBrokenTables } from '../lib/site-check/tables.ts'
import { addSearchKeywords } from '../lib/search-keywords.ts'
import { findBrokenMarkdownLinks, findDuplicateRoutes } from '../lib/site-check/sources.ts'
import { buildRobots, buildSitemap } from '../lib/sitemap.ts'
import { writeFeeds } from '../lib/blog/feed.ts'
import { writeChangelogFeed, writeOperationFeeds } from '../lib/api-changelog/feed.ts'
import { lastContractChange, loadChangelog } from '../lib/api-changelog/index.ts'
import { CHANGELOG_FEED, CHANGELOG_PAGE, releaseAnchors } from '../lib/api-changelog/page.ts'
import { DEFAULT_OPTIONS, createContext } from '../lib/codegen/context.ts'
import { loadSpec } from '../lib/codegen/load.ts'
import { transformTags } from '../lib/codegen/transform/operation.ts'
import { buildTwins, pagesWithoutTwinLink, writeTwins } from '../lib/markdown-twins/twins.ts'
import { MarkdownTwinError } from '../lib/markdown-twins/twin-error.ts'
import { writeLlmsFiles } from '../lib/llms/write-llms.ts'
import { DEFAULT_CACHE_DIR } from '../lib/social-images/cache.ts'
import { exportSocialImages } from '../lib/social-images/export.ts'

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'out' },
    pages: { type: 'string', default: 'pages' },
    'skip-twins': { type: 'boolean', default: false },
    'social-cache': { type: 'string', default: DEFAULT_CACHE_DIR },
  },
})
const outDir = resolve(values.out!)
const pagesDir = resolve(values.pages!)

let site = readBuiltSite(outDir)
if (site.pages.has('/blog')) writeFeeds(outDir)
const changelogPage = `${DEFAULT_OPTIONS.docsBase}/${CHANGELOG_PAGE}`
if (site.pages.has(changelogPage)) {
  const root = resolve(pagesDir, '..')
  const releases = await loadChangelog(root)
  const unreleasedDate = lastContractChange(root, releases.find((r) => r.date)?.date ?? '1970-01-01')
  const feedInput = {
    releases,
    page: changelogPage,
    feed: `${DEFAULT_OPTIONS.docsBase}/${CHANGELOG_FEED}`,
    anchors: releaseAnchors(releases),
    unreleasedDate,
  }
  writeChangelogFeed(outDir, feedInput, siteConfig)
  const operations = transformTags(createContext(await loadSpec(join(root, siteConfig.apiSource)))).flatMap(
    (tag) => tag.operations,
  )
  writeOperationFeeds(outDir, feedInput, operations, siteConfig)
}
const keyworded = addSearchKeywords(outDir, pagesDir)
writeFileSync(join(outDir, 'sitemap.xml'), buildSitemap(publicRoutes(site), siteConfig.url))
writeFileSync(join(outDir, 'robots.txt'), buildRobots(siteConfig.url))
let twinSummary = 'Markdown twins skipped'
let unlinkedTwins: string[] = []
if (!values['skip-twins']) {
  const twins = await buildTwins({ root: resolve(pagesDir, '..'), siteUrl: siteConfig.url }).catch((error: unknown) => {
    if (!(error instanceof MarkdownTwinError)) throw error
    console.error(`error markdown twin: ${error.message}`)
    process.exit(1)
  })
  writeTwins(outDir, twins, new Set(site.pages.keys()))
  unlinkedTwins = pagesWithoutTwinLink(site, twins)
  const sizes = writeLlmsFiles(outDir, twins, siteConfig)
  twinSummary = `${twins.length} Markdown twins, llms.txt (${sizes.llms} B), llms-full.txt (${sizes.full} B)`
}
const social = await exportSocialImages(site, pagesDir, resolve(values['social-cache']!))
const socialSummary = `${social.pages} social images (${social.rendered} rendered now, ${social.reused} from the cache)`
site = readBuiltSite(outDir)

const warnings = [
  ...findDuplicateRoutes(pagesDir).map((w) => `duplicate route: ${w.file}: ${w.message}`),
  ...findBrokenMarkdownLinks(pagesDir).map((w) => `broken markdown link: ${w.file}: ${w.message}`),
]
const report = checkLinks(site)
const brokenTables = findBrokenTables(site)
warnings.push(...report.warnings.map((w) => `broken anchor on ${w.page}: ${w.href} (${w.reason})`))
for (const w of warnings) console.warn(`warn  ${w}`)

if (report.errors.length > 0 || unlinkedTwins.length > 0 || brokenTables.length > 0) {
  for (const e of report.errors) console.error(`error broken link on ${e.page}: ${e.href} (${e.reason})`)
  for (const t of brokenTables)
    console.error(
      `error broken Markdown table on ${t.page}: ${t.rows} row(s) rendered as a paragraph of pipes, from "${t.line.slice(0, 80)}" (a blank line inside the table, or no |---| row under its header?)`,
    )
  for (const route of unlinkedTwins)
    console.error(
      `error no Markdown alternate link on ${route}: its twin exists; theme.config.tsx head and lib/markdown-twins/routes.ts disagree`,
    )
  console.error(
    `postbuild: ${report.errors.length} broken link(s), ${brokenTables.length} broken Markdown table(s), ${unlinkedTwins.length} page(s) not linking their twin in ${outDir}; the build fails.`,
  )
  process.exit(1)
}
console.log(
  `postbuild: ${site.pages.size} pages, ${report.checked} internal links checked, ${warnings.length} warning(s); feeds, sitemap.xml, robots.txt written; search keywords of ${keyworded} page(s); ${twinSummary}; ${socialSummary}.`,
)
