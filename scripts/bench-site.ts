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
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { breakdown } from './bench-site/breakdown.ts'
import type { Script } from './bench-site/breakdown.ts'
import { CHROMIUM, FLAGS } from './bench-site/chromium.ts'

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

/** `pass` undefined: a figure shown without a target. */
interface Figure {
  name: string
  shown: string
  target: string
  pass?: boolean
}

/** Each figure of one page against its target. /demo may load more JS once its shell is visible. */
function figures(path: string, w: Weight, s: Record<string, number> | undefined): Figure[] {
  const demo = path === '/demo'
  const out: Figure[] = []
  if (!demo) out.push({ name: 'first-load JS', shown: kb(w.js), target: '≤ 130 KB', pass: w.js <= 130 * 1024 })
  else out.push({ name: 'first-load JS', shown: kb(w.js), target: '(none)' })
  if (!s) return out
  const min = demo ? 95 : 98
  out.push({
    name: 'Lighthouse performance',
    shown: String(s.performance),
    target: `≥ ${min}`,
    pass: (s.performance ?? 0) >= min,
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
    pass: (s.tbtMs ?? Infinity) <= 150,
  })
  return out
}

type Weight = { js: number; css: number; html: number; requests: number; scripts: Script[] }

async function pageWeight(path: string): Promise<Weight> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS.slice(1) })
  const page = await browser.newPage({ viewport: { width: 412, height: 823 } })
  // saveData turns off Next's prefetching of linked pages, so only this page's own files count.
  await page.addInitScript(() =>
    Object.defineProperty(navigator, 'connection', {
      value: { saveData: true, effectiveType: '4g' },
      configurable: true,
    }),
  )
  const weight: Weight = { js: 0, css: 0, html: 0, requests: 0, scripts: [] }
  const pending: Promise<void>[] = []
  page.on('response', (response) => {
    pending.push(
      (async () => {
        const type = response.request().resourceType()
        if (!['script', 'stylesheet', 'document'].includes(type) || response.status() !== 200) return
        const body = await response.body().catch(() => null)
        if (!body) return
        const gz = gzipSync(body, { level: 9 }).length
        weight.requests++
        if (type === 'script') {
          weight.js += gz
          weight.scripts.push({ file: new URL(response.url()).pathname, gz })
        } else if (type === 'stylesheet') weight.css += gz
        else weight.html += gz
      })(),
    )
  })
  await page.goto(origin + path, { waitUntil: 'networkidle' })
  await Promise.all(pending)
  await browser.close()
  return weight
}

/** Lighthouse's own account of the LCP: the element, its phases, what blocked the render, the long tasks. */
function printDiagnosis(path: string, audits: Record<string, { details?: unknown; numericValue?: number }>) {
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

async function lighthouseScores(path: string): Promise<Record<string, number>> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS })
  try {
    const result = await lighthouse(origin + path, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    })
    const categories = result?.lhr.categories ?? {}
    const audits = result?.lhr.audits ?? {}
    if (values.diagnose) printDiagnosis(path, audits)
    return {
      performance: Math.round((categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
      bestPractices: Math.round((categories['best-practices']?.score ?? 0) * 100),
      seo: Math.round((categories.seo?.score ?? 0) * 100),
      lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
      tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
      cls: Number((audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
    }
  } finally {
    await chrome.kill()
  }
}

function printBreakdown(w: Weight) {
  for (const script of [...w.scripts].sort((a, b) => b.gz - a.gz))
    console.log(`    ${kb(script.gz).padStart(9)}  ${script.file}`)
  console.log('    by package (gzip share of each file, from its source map):')
  for (const [name, gz] of breakdown(outDir, w.scripts).filter(([, gz]) => gz >= 512))
    console.log(`    ${kb(gz).padStart(9)}  ${name}`)
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

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
    const rows: Array<[string, Figure]> = []
    for (const path of paths) {
      const w = await pageWeight(path)
      let line = `${path.padEnd(40)} JS ${kb(w.js).padStart(9)}  CSS ${kb(w.css).padStart(8)}  HTML ${kb(w.html).padStart(8)}  (${w.requests} files)`
      const s = values['no-lighthouse'] ? undefined : await lighthouseScores(path)
      if (s)
        line += `  | perf ${s.performance} a11y ${s.accessibility} bp ${s.bestPractices} seo ${s.seo}  LCP ${s.lcpMs} ms  TBT ${s.tbtMs} ms  CLS ${s.cls}`
      console.log(line)
      if (values.breakdown) printBreakdown(w)
      for (const figure of figures(path, w, s)) rows.push([path, figure])
    }
    console.log('\nTargets')
    console.log(`${'page'.padEnd(28)} ${'figure'.padEnd(26)} ${'value'.padStart(10)}  ${'target'.padEnd(11)} result`)
    for (const [path, f] of rows)
      console.log(
        `${path.padEnd(28)} ${f.name.padEnd(26)} ${f.shown.padStart(10)}  ${f.target.padEnd(11)} ${f.pass === undefined ? '—' : f.pass ? 'PASS' : 'FAIL'}`,
      )
    const judged = rows.filter(([, f]) => f.pass !== undefined)
    const failed = judged.filter(([, f]) => !f.pass).length
    console.log(
      `\n${judged.length - failed} of ${judged.length} figures meet their target${failed ? `, ${failed} FAIL` : ''}`,
    )
    if (failed && values.strict) process.exitCode = 1
  } finally {
    server.kill()
  }
}

await main()
