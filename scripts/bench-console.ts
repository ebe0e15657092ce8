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
import type { Page } from '@playwright/test'
import desktopConfig from 'lighthouse/core/config/desktop-config.js'
import { freePort, startDocsServer } from '../lib/docs-runner/server.ts'
import { kb, lighthouseScores, pageWeight, printTargets, weightLine, type Figure } from './bench-site/measure.ts'

const root = join(import.meta.dirname, '..')
const SIGNUP_KEY = 'bench-console-signup-key'
const SESSION_KEY = 'ferry.console.session'
const admin = { email: 'bench@example.org', password: 'a-long-bench-password' }

const { values } = parseArgs({
  options: { 'no-lighthouse': { type: 'boolean', default: false }, strict: { type: 'boolean', default: false } },
})

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

async function ready(page: Page, signedIn: boolean) {
  if (signedIn) await page.getByRole('listitem', { name: /^Version 1\.0\.0/ }).waitFor()
  else await page.getByLabel('Email').waitFor()
}

/** What the console loads on a desktop screen, with `session` (if any) where the console keeps it. */
const consoleWeight = (url: string, session: string | undefined) =>
  pageWeight(url, {
    viewport: { width: 1350, height: 940 },
    prepare: async (page) => {
      if (session)
        await page.addInitScript(([key, value]) => sessionStorage.setItem(key, value), [SESSION_KEY, session] as const)
    },
    ready: (page) => ready(page, session !== undefined),
  })

/**
 * Lighthouse's desktop preset on `url`. For the signed-in view, the session is put in the tab
 * Lighthouse loads (a puppeteer page, as Lighthouse takes it) before the page's own script runs;
 * storage reset is off so it stays.
 */
const lighthouseDesktop = (url: string, session: string | undefined) =>
  lighthouseScores(url, {
    config: desktopConfig,
    tab: {
      prepare: async (page) => {
        if (session)
          await page.evaluateOnNewDocument((key, value) => sessionStorage.setItem(key, value), SESSION_KEY, session)
      },
      keepStorage: session !== undefined,
    },
  })

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
    const rows: Figure[] = []
    for (const [name, s] of [
      ['/console (sign-in)', undefined],
      ['/console (Releases, signed in)', session],
    ] as const) {
      const w = await consoleWeight(`${origin}/console`, s)
      let line = weightLine(name, w, [32, 8, 7, 7])
      rows.push({ page: name, name: 'first-load JS', shown: kb(w.js), target: '≤ 150 KB', pass: w.js <= 150 * 1024 })
      if (!values['no-lighthouse']) {
        const l = await lighthouseDesktop(`${origin}/console`, s)
        line += `  | perf ${l.performance} a11y ${l.accessibility} bp ${l.bestPractices} seo ${l.seo}  FCP ${l.fcpMs} ms  LCP ${l.lcpMs} ms  TBT ${l.tbtMs} ms  CLS ${l.cls}  ${l.elements} elements`
        const lighthouse = (figure: string, score: number): Figure => ({
          page: name,
          name: `Lighthouse ${figure}`,
          shown: String(score),
          target: '≥ 95',
          pass: score >= 95,
        })
        rows.push(lighthouse('performance', l.performance), lighthouse('accessibility', l.accessibility))
      }
      console.log(line)
    }
    const failed = printTargets(rows, { page: 32, value: 9, target: 9, header: false })
    if (failed && values.strict) process.exitCode = 1
  } finally {
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
