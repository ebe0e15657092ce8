/**
 * @module What both page benchmarks measure (bench:site, bench:console): the gzip size of the JS,
 * CSS and HTML a page loads in Chromium, Lighthouse's scores, and the table of figures against
 * their targets.
 */
import { gzipSync } from 'node:zlib'
import { chromium, type Page } from '@playwright/test'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse, { type Config } from 'lighthouse'
import puppeteer, { type Page as TabPage } from 'puppeteer-core'
import type { Script } from './breakdown.ts'
import { CHROMIUM, FLAGS } from './chromium.ts'

export const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

export type Weight = { js: number; css: number; html: number; requests: number; scripts: Script[] }

export interface WeightRun {
  viewport: { width: number; height: number }
  /** Runs on the page before it loads (init scripts). */
  prepare?: (page: Page) => Promise<unknown>
  /** Waits, once the network is idle, for what shows the page is ready. */
  ready?: (page: Page) => Promise<void>
}

/** Loads `url` in Chromium and sums the gzip -9 size of each script, stylesheet and document answered 200. */
export async function pageWeight(url: string, run: WeightRun): Promise<Weight> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS.slice(1) })
  const page = await browser.newPage({ viewport: run.viewport })
  await run.prepare?.(page)
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
  await page.goto(url, { waitUntil: 'networkidle' })
  await run.ready?.(page)
  await Promise.all(pending)
  await browser.close()
  return weight
}

/** One line of a page's weight, in columns `widths` wide (name, JS, CSS, HTML). */
export function weightLine(name: string, w: Weight, widths: readonly [number, number, number, number]): string {
  const [nameWidth, jsWidth, cssWidth, htmlWidth] = widths
  return `${name.padEnd(nameWidth)} JS ${kb(w.js).padStart(jsWidth)}  CSS ${kb(w.css).padStart(cssWidth)}  HTML ${kb(w.html).padStart(htmlWidth)}  (${w.requests} files)`
}

export type Audits = Record<string, { details?: unknown; numericValue?: number }>

export interface LighthouseRun {
  /** Lighthouse's config; its default is the mobile preset. */
  config?: Config
  /**
   * Drives the tab Lighthouse loads through puppeteer: `prepare` runs in it before the page's own
   * script; `keepStorage` turns storage reset off, so what `prepare` stored stays.
   */
  tab?: { prepare: (page: TabPage) => Promise<void>; keepStorage: boolean }
  /** Sees every audit of the run (a diagnosis). */
  audits?: (audits: Audits) => void
}

export type Scores = Record<
  'performance' | 'accessibility' | 'bestPractices' | 'seo' | 'fcpMs' | 'lcpMs' | 'tbtMs' | 'cls' | 'elements',
  number
>

/** Lighthouse's scores of `url` (performance, accessibility, best practices, SEO) and its paint, blocking and layout figures. */
export async function lighthouseScores(url: string, run: LighthouseRun = {}): Promise<Scores> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS })
  const browser = run.tab ? await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` }) : undefined
  try {
    const page = await browser?.newPage()
    if (page) await run.tab?.prepare(page)
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        ...(run.tab ? { disableStorageReset: run.tab.keepStorage } : {}),
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      },
      run.config,
      page,
    )
    const categories = result?.lhr.categories ?? {}
    const audits = result?.lhr.audits ?? {}
    run.audits?.(audits)
    return {
      performance: Math.round((categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
      bestPractices: Math.round((categories['best-practices']?.score ?? 0) * 100),
      seo: Math.round((categories.seo?.score ?? 0) * 100),
      fcpMs: Math.round(audits['first-contentful-paint']?.numericValue ?? 0),
      lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
      tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
      cls: Number((audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
      // How many elements the page had: the console's signed-in view has several times its sign-in page's.
      elements: Math.round(audits['dom-size']?.numericValue ?? 0),
    }
  } finally {
    await browser?.disconnect()
    chrome.kill()
  }
}

/** A figure of one page against its target; `pass` undefined: shown without a target. */
export interface Figure {
  page: string
  name: string
  shown: string
  target: string
  pass?: boolean
}

/** Column widths of the targets table, and whether it has a header line. */
export interface TargetsLayout {
  page: number
  value: number
  target: number
  header: boolean
}

/** Prints the figures against their targets, then how many meet them; returns how many fail. */
export function printTargets(figures: readonly Figure[], layout: TargetsLayout): number {
  console.log('\nTargets')
  if (layout.header)
    console.log(
      `${'page'.padEnd(layout.page)} ${'figure'.padEnd(26)} ${'value'.padStart(layout.value)}  ${'target'.padEnd(layout.target)} result`,
    )
  for (const f of figures)
    console.log(
      `${f.page.padEnd(layout.page)} ${f.name.padEnd(26)} ${f.shown.padStart(layout.value)}  ${f.target.padEnd(layout.target)} ${f.pass === undefined ? '—' : f.pass ? 'PASS' : 'FAIL'}`,
    )
  const judged = figures.filter((f) => f.pass !== undefined)
  const failed = judged.filter((f) => !f.pass).length
  console.log(
    `\n${judged.length - failed} of ${judged.length} figures meet their target${failed ? `, ${failed} FAIL` : ''}`,
  )
  return failed
}
