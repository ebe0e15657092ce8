/**
 * The console's "Holds and pins" view on a real Ferry server (`npm run server` on a free port,
 * after `npm run build:console`): an admin holds every device and pins a cohort from the form,
 * sees both listed, deletes the hold; the update check follows. Axe in light and dark, and
 * screenshots at 390 and 1280 px in both themes.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { freePort, startDocsServer, type DocsServer } from '../lib/docs-runner/server'

const root = join(import.meta.dirname, '..')
const SIGNUP_KEY = 'console-rules-signup-key-0123'
const admin = { email: 'admin@rules.example.org', password: 'a-long-enough-password' }

test.describe.configure({ mode: 'serial' })

let server: DocsServer
let dataDir: string
let url: string
let token: string

async function api(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: res.status, text: await res.text() }
}

test.beforeAll(async () => {
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-console.ts'], { cwd: root, stdio: 'ignore' })
  dataDir = mkdtempSync(join(tmpdir(), 'ferry-console-rules-'))
  const port = await freePort()
  server = await startDocsServer(
    root,
    { env: { FERRY_DATA_DIR: dataDir, FERRY_SIGNUP_KEY: SIGNUP_KEY, FERRY_LOG_LEVEL: 'warn' }, silent: true },
    port,
    120_000,
  )
  url = `http://127.0.0.1:${port}`
  const signup = await fetch(`${url}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-ferry-signup-key': SIGNUP_KEY },
    body: JSON.stringify({ teamName: 'Rules Team', name: 'Admin', ...admin }),
  })
  expect(signup.status).toBe(201)
  token = ((await signup.json()) as { token: string }).token
  for (const [path, body] of [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows', updater: 'ferry' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/apps', { slug: 'harbour', name: 'Harbour' }],
  ] as const)
    expect((await api(path, body)).status).toBe(201)
  for (const version of ['1.4.0', '1.4.3', '2.0.0']) {
    const form = new FormData()
    for (const [k, v] of Object.entries({ version, channel: 'stable', platform: 'windows', arch: 'x64' }))
      form.set(k, v)
    form.set('published', 'true')
    form.append('files', new Blob([Buffer.alloc(1024, 1)]), `Harbour-${version}.exe`)
    const res = await fetch(`${url}/v1/apps/harbour/versions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    expect(res.status).toBe(201)
  }
})

test.afterAll(async () => {
  await server?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

const offered = async (cohort?: string) => {
  const res = await fetch(`${url}/v1/apps/harbour/update?version=1.4.0&platform=windows&arch=x64`, {
    headers: cohort ? { 'X-Ferry-Cohort': cohort } : {},
  })
  return res.status === 204 ? null : ((await res.json()) as { version: string }).version
}

async function openView(page: Page) {
  const login = await fetch(`${url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  })
  const session = await login.text()
  await page.addInitScript((s) => sessionStorage.setItem('ferry.console.session', s), session)
  await page.goto(`${url}/console#rules`)
  await expect(page.getByRole('heading', { name: 'Holds and pins of Harbour' })).toBeVisible()
  await expect(page.locator('[role="status"]', { hasText: /^Loading/ })).toHaveCount(0)
}

test('an admin holds every device and pins a cohort from the console; the update check follows', async ({ page }) => {
  await openView(page)
  await expect(page.getByText('No rules.')).toBeVisible()
  const form = page.getByRole('form', { name: 'Hold or pin' })
  await form.getByLabel('Reason').fill('Support asked to wait')
  await form.getByRole('button', { name: 'Hold' }).click()
  await expect(page.getByRole('listitem', { name: /^Hold of every device/ })).toBeVisible()
  expect(await offered()).toBeNull()

  await form.getByLabel('Rule').selectOption('pin')
  await form.getByLabel('Cohort').fill('acme-corp')
  await form.getByLabel(/^Version range/).fill('1.4.x')
  await form.getByRole('button', { name: 'Pin' }).click()
  await expect(page.getByRole('listitem', { name: 'Cohort acme-corp pinned to 1.4.x' })).toBeVisible()

  await page.getByRole('button', { name: /^Delete Hold of every device/ }).click()
  await expect(page.getByRole('listitem', { name: /^Hold of every device/ })).toHaveCount(0)
  expect(await offered()).toBe('2.0.0')
  expect(await offered('acme-corp')).toBe('1.4.3')
  const audit = await api('/v1/audit?action=rule.')
  expect(audit.text).toContain('rule.delete')
})

for (const scheme of ['light', 'dark'] as const) {
  test(`Holds and pins: axe finds no serious or critical violation (${scheme}); screenshots at 390 and 1280 px`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme })
    await page.setViewportSize({ width: 1280, height: 900 })
    await openView(page)
    await expect(page.getByRole('listitem', { name: 'Cohort acme-corp pinned to 1.4.x' })).toBeVisible()
    const violations = (await new AxeBuilder({ page }).analyze()).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
    expect(violations).toEqual([])
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 })
      await page.screenshot({ path: test.info().outputPath(`rules-${scheme}-${width}.png`), fullPage: true })
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
    }
  })
}
