/**
 * `npm run docs:timings [-- page…]` runs each quickstart's runnable blocks (all of
 * pages/docs/quickstart-*.mdx without arguments), each in a fresh checkout against a fresh
 * server as the docs tests do, times every block, and writes the figures to
 * lib/quickstart-timings.json, which the top of each quickstart shows (<QuickstartTiming />).
 * A block that fails stops the run with its page and line, and nothing is written.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism, type } from 'node:os'
import { basename, join, relative, resolve } from 'node:path'
import { pageBlocks, quickstartPages } from '../lib/docs-runner/pages.ts'
import { PageRun } from '../lib/docs-runner/run-page.ts'
import type { QuickstartTiming } from '../lib/quickstart-timings.ts'

const root = resolve(import.meta.dirname, '..')
const file = join(root, 'lib', 'quickstart-timings.json')
const all = quickstartPages(root)
const pages = process.argv.slice(2).map((arg) => relative(root, resolve(arg)).split('\\').join('/'))
for (const page of pages) {
  if (!all.includes(page)) {
    console.error(`docs:timings: ${page} is not a quickstart (pages/docs/quickstart-*.mdx: ${all.join(', ')})`)
    process.exit(2)
  }
}

const tenths = (ms: number) => Math.round(ms / 100) / 10
const machine = `${type()}, ${availableParallelism()} cores`
const timings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, QuickstartTiming>

for (const page of pages.length ? pages : all) {
  const blocks = pageBlocks(root, page).filter((b) => b.runnable)
  const run = new PageRun(root, page)
  const measured: Array<{ line: number; ms: number; server: boolean }> = []
  try {
    for (const block of blocks) {
      const start = performance.now()
      const failure = await run.runBlock(block)
      if (failure) {
        console.error(`docs:timings: ${failure}`)
        process.exit(1)
      }
      measured.push({ line: block.line, ms: performance.now() - start, server: block.startsServer })
    }
  } finally {
    await run.stop()
  }
  const sum = (server: boolean) => tenths(measured.filter((b) => b.server === server).reduce((t, b) => t + b.ms, 0))
  timings[basename(page).replace(/\.mdx?$/, '')] = {
    measured: new Date().toISOString().slice(0, 10),
    machine,
    node: process.version,
    serverStartSeconds: sum(true),
    commandsSeconds: sum(false),
    blocks: measured.map(({ line, ms, server }) => ({ line, seconds: tenths(ms), server })),
  }
  console.log(
    `${page}: server started in ${sum(true)} s, ${measured.filter((b) => !b.server).length} blocks of commands ran in ${sum(false)} s`,
  )
}

const known = new Set(all.map((page) => basename(page).replace(/\.mdx?$/, '')))
const sorted = Object.fromEntries(
  Object.entries(timings)
    .filter(([page]) => known.has(page))
    .sort(([a], [b]) => a.localeCompare(b)),
)
writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`)
console.log(`wrote ${relative(root, file)}`)
