/**
 * `npm run bench:site`: page weight and Lighthouse (mobile) scores of the built site.
 * Serves out/ on 127.0.0.1, loads each page in Chromium, sums the gzip size of the JS, CSS
 * and HTML it loads, then runs Lighthouse. Prints figures; asserts nothing (targets live in notes).
 *   npm run build && npm run bench:site [-- --pages /,/docs/intro] [--no-lighthouse]
 */
import { spawn } from 'node:child_process'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic']
const port = 3190
const origin = `http://127.0.0.1:${port}`
const outDir = join(import.meta.dirname, '..', 'out')

const { values } = parseArgs({ options: { pages: { type: 'string' }, 'no-lighthouse': { type: 'boolean', default: false } } })

function largestDocsPage(): string {
  let best = { path: '/docs/intro', size: 0 }
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name)
      if (statSync(full).isDirectory()) walk(full)
      else if (name.endsWith('.html')) {
        const size = statSync(full).size
        if (size > best.size) best = { path: '/' + relative(outDir, full).replace(/\.html$/, '').replace(/\/index$/, ''), size }
      }
    }
  }
  walk(join(outDir, 'docs'))
  return best.path
}

function firstBlogPost(): string {
  const dir = join(outDir, 'blog')
  const post = readdirSync(dir).find((f) => f.endsWith('.html') && !['index.html', 'archive.html', 'authors.html', 'tags.html'].includes(f))
  return post ? `/blog/${post.replace(/\.html$/, '')}` : '/blog'
}

type Weight = { js: number; css: number; html: number; requests: number }

async function pageWeight(path: string): Promise<Weight> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS.slice(1) })
  const page = await browser.newPage({ viewport: { width: 412, height: 823 } })
  // saveData turns off Next's prefetching of linked pages, so only this page's own files count.
  await page.addInitScript(() => Object.defineProperty(navigator, 'connection', { value: { saveData: true, effectiveType: '4g' }, configurable: true }))
  const weight: Weight = { js: 0, css: 0, html: 0, requests: 0 }
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
        if (type === 'script') weight.js += gz
        else if (type === 'stylesheet') weight.css += gz
        else weight.html += gz
      })(),
    )
  })
  await page.goto(origin + path, { waitUntil: 'networkidle' })
  await Promise.all(pending)
  await browser.close()
  return weight
}

async function lighthouseScores(path: string): Promise<Record<string, number>> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS })
  try {
    const result = await lighthouse(origin + path, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] })
    const categories = result?.lhr.categories ?? {}
    const audits = result?.lhr.audits ?? {}
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

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

async function main() {
  readFileSync(join(outDir, 'index.html'))
  const server = spawn(process.execPath, [join(import.meta.dirname, '..', 'node_modules/serve/build/main.js'), outDir, '-l', String(port), '--no-port-switching', '--no-clipboard'], { stdio: 'ignore' })
  try {
    for (let i = 0; i < 50; i++) {
      if (await fetch(origin).then((r) => r.ok, () => false)) break
      await new Promise((r) => setTimeout(r, 100))
    }
    const paths = values.pages ? values.pages.split(',') : ['/', '/docs/intro', firstBlogPost(), largestDocsPage()]
    console.log(`bench:site — ${new Date().toISOString()} — gzip -9 sizes of what each page loads; Lighthouse ${values['no-lighthouse'] ? 'skipped' : 'mobile (default throttling)'}`)
    for (const path of paths) {
      const w = await pageWeight(path)
      let line = `${path.padEnd(40)} JS ${kb(w.js).padStart(9)}  CSS ${kb(w.css).padStart(8)}  HTML ${kb(w.html).padStart(8)}  (${w.requests} files)`
      if (!values['no-lighthouse']) {
        const s = await lighthouseScores(path)
        line += `  | perf ${s.performance} a11y ${s.accessibility} bp ${s.bestPractices} seo ${s.seo}  LCP ${s.lcpMs} ms  TBT ${s.tbtMs} ms  CLS ${s.cls}`
      }
      console.log(line)
    }
  } finally {
    server.kill()
  }
}

await main()
