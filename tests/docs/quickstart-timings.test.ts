/**
 * The time a quickstart shows at its top is the one `npm run docs:timings` measured: each
 * quickstart renders <QuickstartTiming page="…" /> there, with no duration typed by hand; the
 * measured file covers every quickstart and each of its runnable blocks; the site's component and
 * the page's Markdown twin both print the file's figures.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { test } from 'node:test'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { QuickstartTiming } from '../../components/content/quickstart-timing.tsx'
import { pageBlocks, quickstartPages } from '../../lib/docs-runner/pages.ts'
import { mdxToMarkdown } from '../../lib/markdown-twins/mdx-to-markdown.ts'
import { quickstartTimings, timingText } from '../../lib/quickstart-timings.ts'

const root = join(import.meta.dirname, '..', '..')
const quickstarts = quickstartPages(root)
const slug = (page: string) => basename(page).replace(/\.mdx?$/, '')
/** A duration written out: `41 s`, `4 seconds`, `2.5 min`, `about a minute`, `under half a second`. */
const DURATION =
  /\b\d+(?:[.,]\d+)?\s*(?:ms|s|secs?|seconds?|mins?|minutes?|h|hours?)\b|\b(?:a|one|two|few|half an?|a few)\s+(?:seconds?|minutes?|hours?|second|minute)\b/i

/** The page between its H1 and its first `##` heading, with its first line number. */
function top(page: string): { text: string; line: number } {
  const lines = readFileSync(join(root, page), 'utf8').split('\n')
  const h1 = lines.findIndex((l) => l.startsWith('# '))
  const h2 = lines.findIndex((l, i) => i > h1 && l.startsWith('## '))
  return { text: lines.slice(h1 + 1, h2 === -1 ? undefined : h2).join('\n'), line: h1 + 2 }
}

test('there are quickstarts to check', () => {
  assert.ok(quickstarts.length >= 2, `found ${quickstarts.join(', ')}`)
})

for (const page of quickstarts) {
  test(`${page} shows at its top the timing npm run docs:timings measured, and no figure typed by hand`, () => {
    const { text, line } = top(page)
    const tag = `<QuickstartTiming page="${slug(page)}" />`
    assert.ok(text.includes(tag), `${page}: the part under the H1 (from line ${line}) must render ${tag}`)
    const typed = text.replace(tag, '').match(DURATION)
    assert.equal(
      typed,
      null,
      `${page}: "${typed?.[0]}" under the H1 is a duration typed by hand; the measured one is ${tag}`,
    )
  })

  test(`${page}: lib/quickstart-timings.json has a figure for each of its runnable blocks`, () => {
    const timing = quickstartTimings[slug(page)]
    assert.ok(timing, `lib/quickstart-timings.json has no entry ${slug(page)}: run npm run docs:timings`)
    const blocks = pageBlocks(root, page).filter((b) => b.runnable)
    assert.deepEqual(
      timing.blocks.map((b) => b.server),
      blocks.map((b) => b.startsServer),
      `${page} has ${blocks.length} runnable blocks, the file times ${timing.blocks.length}: run npm run docs:timings -- ${page}`,
    )
    const sum = (server: boolean) => timing.blocks.filter((b) => b.server === server).reduce((t, b) => t + b.seconds, 0)
    assert.ok(Math.abs(sum(true) - timing.serverStartSeconds) < 0.05 * timing.blocks.length + 0.05)
    assert.ok(Math.abs(sum(false) - timing.commandsSeconds) < 0.05 * timing.blocks.length + 0.05)
    assert.match(timing.measured, /^\d{4}-\d{2}-\d{2}$/)
    assert.match(timing.machine, /, \d+ cores$/)
  })

  test(`${page}: the site and the page's Markdown twin print the file's figures`, () => {
    const timing = quickstartTimings[slug(page)]
    assert.ok(timing)
    const expected = timingText(timing)
    const html = renderToStaticMarkup(createElement(QuickstartTiming, { page: slug(page) }))
    assert.equal(html.replace(/<code[^>]*>([^<]*)<\/code>/g, '`$1`').replace(/&#x27;/g, "'"), expected)
    const twin = mdxToMarkdown(readFileSync(join(root, page), 'utf8'), {
      file: page,
      title: slug(page),
      siteUrl: 'https://ferry.test',
      route: `/docs/${slug(page)}`,
      twinRoutes: new Set(),
    })
    assert.ok(twin.includes(expected), `the Markdown twin of ${page} does not say "${expected}"`)
  })
}

test('lib/quickstart-timings.json times only pages that are quickstarts', () => {
  assert.deepEqual(Object.keys(quickstartTimings).sort(), quickstarts.map(slug).sort())
})
