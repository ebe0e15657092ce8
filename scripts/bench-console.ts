/**
 * `npm run bench:console`: what Ferry Console costs its first visit. Starts a real server (as
 * `npm run server`, on a free port, with a fresh data dir) serving console-dist/, gives it a team,
 * an app and a published version, then measures two pages: the sign-in page, and the console's
 * main view (Releases, signed in: the session put where the console keeps it). For each: the gzip
 * size of the JS, CSS and HTML it loads, and Lighthouse's desktop scores. Targets (issue 27):
 * first-load JS ≤ 150 KB, Lighthouse desktop performance ≥ 95. A benchmark: it exits 0 unless `--strict`.
 *   npm run build:console && npm run bench:console [-- --no-lighthouse] [--strict]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { chromium, type Page } from '@playwright/test'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import puppeteer from 'puppeteer-core'
import desktopConfig from 'lighthouse/core/config/desktop-config.js'
import { freePort, startDocsServer } from '../lib/docs-runner/server.ts'
import { CHROMIUM, FLAGS } from './bench-site/chromium.ts'

const root = join(import.meta.dirname, '..')
const SIGNUP_KEY = 'bench-console-signup-key'
const SESSION_KEY = 'ferry.console.session'
const admin = { email: 'bench@example.org', password: 'a-long-bench-password' }

const { values } = parseArgs({
  options: { 'no-lighthouse': { type: 'boolean', default: false }, strict: { type: 'boolean', default: false } },
})

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

async function call(
  origin: string,
  path: string,
  init: { token?: string; body?: unknown; form?: FormData; headers?: Record<string, string> } = {},
) {
  const res = await fetch(origin + path, {
    method: init.body || init.form ? 'POST' : 'GET',
    headers: {
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...init.headers,
    },
    ...(init.body ? { body: JSON.stringify(init.body) } : init.form ? { body: init.form } : {}),
  })
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`)
  return res.status === 204 ? undefined : res.json()
}

/** A team with one app and one published version, so the main view shows what a team sees. Returns the session JSON. */
async function seed(origin: string): Promise<string> {
  await call(origin, '/v1/auth/signup', {
    body: { teamName: 'Bench Team', name: 'Bench', ...admin },
    headers: { 'x-ferry-signup-key': SIGNUP_KEY },
  })
  const session: unknown = await call(origin, '/v1/auth/login', { body: admin })
  const token = typeof session === 'object' && session !== null && 'token' in session ? String(session.token) : ''
  await call(origin, '/v1/channels', { token, body: { name: 'stable', description: '' } })
  await call(origin, '/v1/platforms', { token, body: { name: 'windows', updater: 'ferry' } })
  await call(origin, '/v1/archs', { token, body: { name: 'x64' } })
  await call(origin, '/v1/apps', {
    token,
    body: { slug: 'harbor-notes', name: 'Harbor Notes', description: 'Notes that sync over your own server.' },
  })
  const form = new FormData()
  for (const [k, v] of Object.entries({
    version: '1.0.0',
    channel: 'stable',
    platform: 'windows',
    arch: 'x64',
    published: 'true',
    changelog: 'First release.',
  }))
    form.set(k, v)
  form.set('files', new Blob([new Uint8Array(64 * 1024)]), 'HarborNotes-1.0.0.exe')
  await call(origin, '/v1/apps/harbor-notes/versions', { token, form })
  return JSON.stringify(session)
}

type Weight = { js: number; css: number; html: number; requests: number }

async function ready(page: Page, signedIn: boolean) {
  if (signedIn) await page.getByRole('listitem', { name: /^Version 1\.0\.0/ }).waitFor()
  else await page.getByLabel('Email').waitFor()
}

async function pageWeight(url: string, session: string | undefined): Promise<Weight> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS.slice(1) })
  const page = await browser.newPage({ viewport: { width: 1350, height: 940 } })
  if (session)
    await page.addInitScript(([key, value]) => sessionStorage.setItem(key, value), [SESSION_KEY, session] as const)
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
  await page.goto(url, { waitUntil: 'networkidle' })
  await ready(page, session !== undefined)
  await Promise.all(pending)
  await browser.close()
  return weight
}

/**
 * Lighthouse's desktop preset on `url`. For the signed-in view, the session is put in the tab
 * Lighthouse loads (a puppeteer page, as Lighthouse takes it) before the page's own script runs;
 * storage reset is off so it stays.
 */
async function lighthouseDesktop(url: string, session: string | undefined): Promise<Record<string, number>> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS })
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` })
  try {
    const page = await browser.newPage()
    if (session)
      await page.evaluateOnNewDocument((key, value) => sessionStorage.setItem(key, value), SESSION_KEY, session)
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        disableStorageReset: session !== undefined,
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      },
      desktopConfig,
      page,
    )
    const categories = result?.lhr.categories ?? {}
    const audits = result?.lhr.audits ?? {}
    return {
      performance: Math.round((categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
      bestPractices: Math.round((categories['best-practices']?.score ?? 0) * 100),
      seo: Math.round((categories.seo?.score ?? 0) * 100),
      fcpMs: Math.round(audits['first-contentful-paint']?.numericValue ?? 0),
      lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
      tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
      cls: Number((audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
      // How many elements the page had: the signed-in view has several times the sign-in page's.
      elements: Math.round(audits['dom-size']?.numericValue ?? 0),
    }
  } finally {
    await browser.disconnect()
    chrome.kill()
  }
}

async function main() {
  const js = readFileSync(join(root, 'console-dist', 'console.js'))
  const dataDir = mkdtempSync(join(tmpdir(), 'ferry-bench-console-'))
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const server = await startDocsServer(
    root,
    { env: { FERRY_DATA_DIR: dataDir, FERRY_SIGNUP_KEY: SIGNUP_KEY, FERRY_LOG_LEVEL: 'warn' }, silent: true },
    port,
  )
  try {
    const session = await seed(origin)
    console.log(
      `bench:console — ${new Date().toISOString()} — console.js ${kb(js.length)} (${kb(gzipSync(js, { level: 9 }).length)} gzip -9); Lighthouse ${values['no-lighthouse'] ? 'skipped' : 'desktop preset'}`,
    )
    const rows: Array<[string, string, string, string, boolean]> = []
    for (const [name, s] of [
      ['/console (sign-in)', undefined],
      ['/console (Releases, signed in)', session],
    ] as const) {
      const w = await pageWeight(`${origin}/console`, s)
      let line = `${name.padEnd(32)} JS ${kb(w.js).padStart(8)}  CSS ${kb(w.css).padStart(7)}  HTML ${kb(w.html).padStart(7)}  (${w.requests} files)`
      rows.push([name, 'first-load JS', kb(w.js), '≤ 150 KB', w.js <= 150 * 1024])
      if (!values['no-lighthouse']) {
        const l = await lighthouseDesktop(`${origin}/console`, s)
        line += `  | perf ${l.performance} a11y ${l.accessibility} bp ${l.bestPractices} seo ${l.seo}  FCP ${l.fcpMs} ms  LCP ${l.lcpMs} ms  TBT ${l.tbtMs} ms  CLS ${l.cls}  ${l.elements} elements`
        rows.push([name, 'Lighthouse performance', String(l.performance), '≥ 95', (l.performance ?? 0) >= 95])
        rows.push([name, 'Lighthouse accessibility', String(l.accessibility), '≥ 95', (l.accessibility ?? 0) >= 95])
      }
      console.log(line)
    }
    console.log('\nTargets')
    for (const [page, figure, shown, target, pass] of rows)
      console.log(
        `${page.padEnd(32)} ${figure.padEnd(26)} ${shown.padStart(9)}  ${target.padEnd(9)} ${pass ? 'PASS' : 'FAIL'}`,
      )
    const failed = rows.filter((r) => !r[4]).length
    console.log(
      `\n${rows.length - failed} of ${rows.length} figures meet their target${failed ? `, ${failed} FAIL` : ''}`,
    )
    if (failed && values.strict) process.exitCode = 1
  } finally {
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
