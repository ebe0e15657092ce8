/**
 * `npm run bench:site`: page weight and Lighthouse (mobile) scores of the built site.
 * Serves out/ on 127.0.0.1, loads each page in Chromium, sums the gzip size of the JS, CSS
 * and HTML it loads, then runs Lighthouse, and prints each figure against its target (issue 13's
 * budgets) with PASS or FAIL. A benchmark, not a test: it exits 0 unless `--strict`.
 *   npm run build && npm run bench:site [-- --pages /,/docs/intro] [--no-lighthouse] [--strict]
 *   FERRY_SOURCE_MAPS=1 npm run build && npm run bench:site -- --breakdown   (JS per file and package)
 *   npm run bench:site -- --pages /docs/intro --diagnose   (Lighthouse's LCP element and phases, render-blocking files, long tasks)
 *   npm run bench:site -- --out /tmp/main-out --port 3191   (another build, e.g. main's beside a branch's, back to back)
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { breakdown } from './bench-site/breakdown.ts'
import {
  kb,
  lighthouseScores,
  pageWeight,
  printTargets,
  weightLine,
  type Audits,
  type Figure,
  type Scores,
  type Weight,
} from './bench-site/measure.ts'

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: join(import.meta.dirname, '..', 'out') },
    port: { type: 'string', default: '3190' },
    pages: { type: 'string' },
    'no-lighthouse': { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
    breakdown: { type: 'boolean', default: false },
    diagnose: { type: 'boolean', default: false },
  },
})

const port = Number(values.port)
const origin = `http://127.0.0.1:${port}`
const outDir = values.out

/** The pages the targets name: a docs page, the longest guide, an API operation, the blog, a post, /demo. */
const DEFAULT_PAGES = [
  '/',
  '/docs/intro',
  '/docs/updaters',
  '/docs/api/apps/create',
  '/blog',
  '/blog/electron-auto-update',
  '/demo',
]

/** Each figure of one page against its target. /demo may load more JS once its shell is visible. */
function figures(path: string, w: Weight, s: Scores | undefined): Array<Omit<Figure, 'page'>> {
  const demo = path === '/demo'
  const out: Array<Omit<Figure, 'page'>> = []
  if (!demo) out.push({ name: 'first-load JS', shown: kb(w.js), target: '≤ 130 KB', pass: w.js <= 130 * 1024 })
  else out.push({ name: 'first-load JS', shown: kb(w.js), target: '(none)' })
  if (!s) return out
  const min = demo ? 95 : 98
  out.push({
    name: 'Lighthouse performance',
    shown: String(s.performance),
    target: `≥ ${min}`,
    pass: s.performance >= min,
  })
  for (const [key, label] of [
    ['accessibility', 'Lighthouse accessibility'],
    ['bestPractices', 'Lighthouse best practices'],
    ['seo', 'Lighthouse SEO'],
  ] as const) {
    out.push({ name: label, shown: String(s[key]), target: '= 100', pass: s[key] === 100 })
  }
  out.push({
    name: 'total blocking time',
    shown: `${s.tbtMs} ms`,
    target: '≤ 150 ms',
    pass: s.tbtMs <= 150,
  })
  return out
}

/** What `path` loads on a phone-sized screen. saveData turns off Next's prefetching of linked pages, so only this page's own files count. */
const sitePageWeight = (path: string) =>
  pageWeight(origin + path, {
    viewport: { width: 412, height: 823 },
    prepare: (page) =>
      page.addInitScript(() =>
        Object.defineProperty(navigator, 'connection', {
          value: { saveData: true, effectiveType: '4g' },
          configurable: true,
        }),
      ),
  })

/** Lighthouse's own account of the LCP: the element, its phases, what blocked the render, the long tasks. */
function printDiagnosis(path: string, audits: Audits) {
  console.log(`${path} — Lighthouse diagnosis`)
  const items = (id: string): Array<Record<string, unknown>> => {
    const details = audits[id]?.details as { items?: Array<Record<string, unknown>> } | undefined
    return details?.items ?? []
  }
  const metrics = items('metrics')[0] ?? {}
  console.log(
    `    observed (unthrottled run): FCP ${metrics.observedFirstContentfulPaint} ms, LCP ${metrics.observedLargestContentfulPaint} ms, DOMContentLoaded ${metrics.observedDomContentLoaded} ms`,
  )
  for (const part of items('largest-contentful-paint-element')) {
    const rows = (part as { items?: Array<Record<string, unknown>> }).items ?? []
    for (const row of rows) {
      const node = row.node as { selector?: string; nodeLabel?: string } | undefined
      if (node) console.log(`    LCP element: ${node.selector} "${String(node.nodeLabel).slice(0, 60)}"`)
      else if (row.phase)
        console.log(
          `    LCP phase (simulated): ${String(row.phase).padEnd(12)} ${Math.round(Number(row.timing))} ms (${row.percent})`,
        )
    }
  }
  const blocking = items('render-blocking-insight')
  console.log(
    `    render-blocking: ${blocking.length ? blocking.map((b) => `${b.url} (${Math.round(Number(b.wastedMs))} ms)`).join(', ') : 'none'}`,
  )
  for (const task of items('long-tasks').slice(0, 6))
    console.log(
      `    long task ${String(Math.round(Number(task.duration))).padStart(4)} ms at ${Math.round(Number(task.startTime))} ms: ${task.url}`,
    )
}

/** Lighthouse's mobile preset on `path`; with `--diagnose`, its account of the LCP too. */
const siteScores = (path: string) =>
  lighthouseScores(origin + path, values.diagnose ? { audits: (audits) => printDiagnosis(path, audits) } : {})

function printBreakdown(w: Weight) {
  for (const script of [...w.scripts].sort((a, b) => b.gz - a.gz))
    console.log(`    ${kb(script.gz).padStart(9)}  ${script.file}`)
  console.log('    by package (gzip share of each file, from its source map):')
  for (const [name, gz] of breakdown(outDir, w.scripts).filter(([, gz]) => gz >= 512))
    console.log(`    ${kb(gz).padStart(9)}  ${name}`)
}

async function main() {
  readFileSync(join(outDir, 'index.html'))
  const server = spawn(
    process.execPath,
    [
      join(import.meta.dirname, '..', 'node_modules/serve/build/main.js'),
      outDir,
      '-l',
      String(port),
      '--no-port-switching',
      '--no-clipboard',
    ],
    { stdio: 'ignore' },
  )
  try {
    for (let i = 0; i < 50; i++) {
      if (
        await fetch(origin).then(
          (r) => r.ok,
          () => false,
        )
      )
        break
      await new Promise((r) => setTimeout(r, 100))
    }
    const paths = values.pages ? values.pages.split(',') : DEFAULT_PAGES
    console.log(
      `bench:site — ${new Date().toISOString()} — gzip -9 sizes of what each page loads; Lighthouse ${values['no-lighthouse'] ? 'skipped' : 'mobile (default throttling)'}`,
    )
    const rows: Figure[] = []
    for (const path of paths) {
      const w = await sitePageWeight(path)
      let line = weightLine(path, w, [40, 9, 8, 8])
      const s = values['no-lighthouse'] ? undefined : await siteScores(path)
      if (s)
        line += `  | perf ${s.performance} a11y ${s.accessibility} bp ${s.bestPractices} seo ${s.seo}  LCP ${s.lcpMs} ms  TBT ${s.tbtMs} ms  CLS ${s.cls}`
      console.log(line)
      if (values.breakdown) printBreakdown(w)
      rows.push(...figures(path, w, s).map((figure) => ({ page: path, ...figure })))
    }
    const failed = printTargets(rows, { page: 28, value: 10, target: 11, header: true })
    if (failed && values.strict) process.exitCode = 1
  } finally {
    server.kill()
  }
}

await main()
