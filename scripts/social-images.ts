/**
 * Renders the social card of every page found in pages/ into the card cache, before or while
 * `next build` runs (scripts/build.ts starts it beside the compile). The build's last step
 * (scripts/postbuild.ts) copies each built page's card to out/og/, rendering only those this
 * missed. Nothing is rendered twice across builds: the cache is keyed by the card's content.
 *   tsx scripts/social-images.ts [--pages DIR] [--cache DIR] [--threads N]
 */
import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { DEFAULT_CACHE_DIR, renderMissing } from '../lib/social-images/cache.ts'
import { imageTitle } from '../lib/social-images/page-meta.ts'
import { sectionsOf } from '../lib/social-images/sections.ts'
import { sourcePages } from '../lib/social-images/source-pages.ts'

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: 'pages' },
    cache: { type: 'string', default: DEFAULT_CACHE_DIR },
    threads: { type: 'string', default: String(availableParallelism()) },
  },
})
const threads = Number(values.threads)
if (!Number.isInteger(threads) || threads < 1) {
  console.error(`social-images: --threads must be a whole number ≥ 1, got ${JSON.stringify(values.threads)}`)
  process.exit(2)
}
const started = performance.now()
const pagesDir = resolve(values.pages!)
const pages = sourcePages(pagesDir)
const sections = await sectionsOf(
  pagesDir,
  pages.map((p) => p.route),
)
const report = await renderMissing(
  resolve(values.cache!),
  pages.map((p) => ({ title: imageTitle(p.documentTitle), section: sections.get(p.route)! })),
  threads,
)
console.log(
  `social images: ${report.rendered} rendered, ${report.reused} reused from the cache, ${((performance.now() - started) / 1000).toFixed(1)} s`,
)
