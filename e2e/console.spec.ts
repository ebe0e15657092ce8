/**
 * Ferry Console (/console) on a real Ferry server, started as `npm run server` starts it on a free
 * port, after `npm run build:console`. The console is the /demo dashboard's components over HTTP.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { freePort, startDocsServer, type DocsServer } from '../lib/docs-runner/server'

const root = join(import.meta.dirname, '..')
const SIGNUP_KEY = 'console-signup-key-0123'
const admin = { email: 'admin@example.org', password: 'a-long-enough-password' }
const restricted = { email: 'grace@example.org', password: 'grace-long-password' }

test.describe.configure({ mode: 'serial' })

let server: DocsServer
let dataDir: string
let url: string
let port: number
const serverEnv = () => ({ FERRY_DATA_DIR: dataDir, FERRY_SIGNUP_KEY: SIGNUP_KEY, FERRY_LOG_LEVEL: 'warn' })

async function api(path: string, init: { method?: string; token?: string; body?: unknown } = {}) {
  const res = await fetch(`${url}${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  })
  return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined }
}

test.beforeAll(async () => {
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-console.ts'], { cwd: root, stdio: 'ignore' })
  dataDir = mkdtempSync(join(tmpdir(), 'ferry-console-'))
  port = await freePort()
  server = await startDocsServer(root, { env: serverEnv(), silent: true }, port)
  url = `http://127.0.0.1:${port}`
  const signup = await fetch(`${url}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-ferry-signup-key': SIGNUP_KEY },
    body: JSON.stringify({ teamName: 'Console Team', name: 'Admin', ...admin }),
  })
  expect(signup.status).toBe(201)
})

test.afterAll(async () => {
  await server?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

/** The notice a finished change shows. */
const done = (page: Page) => page.locator('.ferry-dash-done')

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto(`${url}/console`)
  await page.getByLabel('Email').fill(who.email)
  await page.getByLabel('Password').fill(who.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible()
}

test('the console is served by Ferry with a strict CSP, and keeps the session out of localStorage and cookies', async ({ page }) => {
  const res = await page.goto(`${url}/console`)
  const csp = res?.headers()['content-security-policy'] ?? ''
  expect(csp).toContain("script-src 'self'")
  expect(csp).toContain("style-src 'self'")
  expect(csp).toContain("frame-ancestors 'none'")
  expect(csp).not.toContain('unsafe-inline')
  await signIn(page, admin)
  expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([])
  expect(await page.context().cookies()).toEqual([])
  expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual(['ferry.console.session'])
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
  expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual([])
})

test('an admin creates the catalogue and an app, uploads a version, ramps, pauses, resumes and pulls it', async ({ page }) => {
  await signIn(page, admin)
  await expect(page.getByText('No app yet: create one.')).toBeVisible()
  const catalogue = page.getByRole('form', { name: 'Add to the catalogue' })
  for (const [kind, name] of [['Channel', 'stable'], ['Platform', 'windows'], ['Architecture', 'x64']] as const) {
    await catalogue.getByLabel('Kind').selectOption({ label: kind })
    await catalogue.getByLabel('Name').fill(name)
    await catalogue.getByRole('button', { name: 'Add' }).click()
    await expect(done(page)).toContainText(`Added ${kind.toLowerCase()} ${name}.`)
  }
  const create = page.getByRole('form', { name: 'Create an app' })
  await create.getByLabel('Slug').fill('tidewater')
  await create.getByLabel('Name').fill('Tidewater')
  await create.getByRole('button', { name: 'Create app' }).click()
  await expect(done(page)).toContainText('Created app tidewater.')

  const upload = page.getByRole('form', { name: 'Upload a version of Tidewater' })
  await upload.getByLabel('Version').fill('1.0.0')
  await upload.getByLabel(/^Files/).setInputFiles({ name: 'Tidewater-1.0.0.exe', mimeType: 'application/octet-stream', buffer: Buffer.alloc(256 * 1024, 7) })
  await upload.getByLabel('Publish now').check()
  await upload.getByRole('button', { name: 'Upload version' }).click()
  await expect(done(page)).toContainText('Uploaded 1.0.0 (stable, windows/x64) to tidewater.')
  // A slow link (Chromium's own throttling) so the upload is seen on its way, then cancelled.
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 256 * 1024 })
  await upload.getByLabel('Version').fill('2.0.0')
  await upload.getByLabel(/^Files/).setInputFiles({ name: 'Tidewater-2.0.0.exe', mimeType: 'application/octet-stream', buffer: Buffer.alloc(8 * 1024 * 1024, 9) })
  await upload.getByRole('button', { name: 'Upload version' }).click()
  await expect(upload.getByRole('status')).toHaveText(/^\d+ KB of 8\.0 MB sent, about \d+ s left$|^\d\.\d MB of 8\.0 MB sent, about \d+ s left$/)
  await expect(upload.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible()
  await upload.getByRole('button', { name: 'Cancel upload' }).click()
  await expect(page.getByRole('alert')).toContainText('The upload was cancelled.')
  await expect(upload.getByRole('progressbar')).toHaveCount(0)
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
  await expect(page.getByRole('listitem', { name: /^Version 2\.0\.0/ })).toHaveCount(0)

  const version = page.getByRole('listitem', { name: /^Version 1\.0\.0/ })
  await version.getByRole('button', { name: /^Start ramp/ }).click()
  await expect(done(page)).toContainText(/Started a ramp for .*1\.0\.0/)
  await version.getByRole('button', { name: /^Pause/ }).click()
  await expect(done(page)).toContainText(/^Paused .*1\.0\.0/)
  await version.getByRole('button', { name: /^Resume/ }).click()
  await expect(done(page)).toContainText(/^Resumed .*1\.0\.0/)
  await version.getByRole('button', { name: /^Pull/ }).click()
  await expect(done(page)).toContainText(/^Pulled .*1\.0\.0/)
  const login = await api('/v1/auth/login', { body: admin })
  const token = String(login.body?.token)
  const versions = await api('/v1/apps/tidewater/versions', { token })
  expect(JSON.stringify(versions.body)).toContain('"pulled"')

  // The ramp editor: steps with shares and durations, then a pause with its reason.
  const rollout = page.getByRole('region', { name: 'Rollout' })
  await rollout.getByRole('button', { name: 'Resume' }).click()
  await expect(done(page)).toContainText(/^Resumed .*1\.0\.0/)
  await rollout.getByLabel('Step 1: share %').fill('10')
  await rollout.getByRole('button', { name: 'Add a step' }).click()
  await rollout.getByLabel('Step 3: share %').fill('60')
  await rollout.getByLabel('Step 3: minutes after the previous step').fill('120')
  await rollout.getByRole('button', { name: 'Save ramp' }).click()
  await expect(done(page)).toContainText('Set the ramp of 1.0.0 (stable, windows/x64): 10 % → 25 % → 60 % → 100 %.')
  await expect(version.getByRole('list', { name: 'Rollout of 1.0.0' })).toContainText('Ramp 10 % → 25 % → 60 % → 100 %: step 1 of 4 (10 %), next step')
  await rollout.getByLabel('Reason (shown with the version)').fill('crash on start in 1.0.0')
  await rollout.getByRole('button', { name: 'Pause with reason' }).click()
  await expect(version.getByRole('list', { name: 'Rollout of 1.0.0' })).toContainText(': crash on start in 1.0.0')
})

test('a token is shown once and revoked', async ({ page }) => {
  await signIn(page, admin)
  const tokens = page.getByRole('region', { name: 'API tokens' })
  await tokens.getByLabel('Name').fill('ci-release')
  await tokens.getByRole('button', { name: 'Create token' }).click()
  await expect(done(page)).toContainText(/Created token ci-release/)
  await tokens.getByRole('button', { name: /Revoke/ }).first().click()
  await expect(done(page)).toContainText('Revoked token ci-release.')
})

test('the audit log view lists who did what, newest first', async ({ page }) => {
  await signIn(page, admin)
  await expect(page.getByText('Loading apps…')).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible()
  const entries = page.getByRole('table', { name: /Audit log entries/ })
  await expect(entries).toContainText('app.create')
  await expect(entries).toContainText('tidewater')
  await expect(entries).toContainText(admin.email)
})

test('an expired session asks to sign in again in a dialog, keeping what was typed', async ({ page }) => {
  await signIn(page, admin)
  const create = page.getByRole('form', { name: 'Create an app' })
  await create.getByLabel('Slug').fill('kept-slug')
  await create.getByLabel('Name').fill('Kept')
  // A new signing key (the server restarted without its old jwt-secret): the console's session no longer verifies.
  await server.stop()
  rmSync(join(dataDir, 'jwt-secret'))
  server = await startDocsServer(root, { env: serverEnv(), silent: true }, port)
  await create.getByRole('button', { name: 'Create app' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText('Your session has expired')
  await dialog.getByLabel('Password').fill(admin.password)
  await dialog.getByRole('button', { name: 'Sign in' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(create.getByLabel('Slug')).toHaveValue('kept-slug')
  await create.getByRole('button', { name: 'Create app' }).click()
  await expect(done(page)).toContainText('Created app kept-slug.')
})

test('a restricted user sees only the apps they may use', async ({ page }) => {
  const token = String((await api('/v1/auth/login', { body: admin })).body?.token)
  expect((await api('/v1/apps', { token, body: { slug: 'other-app', name: 'Other App' } })).status).toBe(201)
  const created = await api('/v1/team/users', { token, body: { ...restricted, name: 'Grace', permissions: { apps: { upload: { enabled: true, allowed: ['tidewater'] } } } } })
  expect(created.status).toBe(201)
  await signIn(page, restricted)
  const list = page.locator('.ferry-app-list')
  await expect(list.locator('code')).toHaveText(['tidewater'])
  // What the API would refuse is left out: no app creation, catalogue, team, or version changes.
  await expect(page.getByRole('form', { name: 'Upload a version of Tidewater' })).toBeVisible()
  await expect(page.getByRole('form', { name: 'Create an app' })).toHaveCount(0)
  await expect(page.getByRole('form', { name: 'Add to the catalogue' })).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Team users' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Pull/ })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Delete app/ })).toHaveCount(0)
})

test("an admin reads the permission matrix and changes a user's grants", async ({ page }) => {
  await signIn(page, admin)
  const team = page.getByRole('region', { name: 'Team users' })
  const grace = team.getByRole('row', { name: new RegExp(restricted.email) })
  await expect(grace.getByRole('cell').nth(3)).toHaveText('tidewater')
  await grace.getByRole('button', { name: /Edit grants/ }).click()
  const form = page.getByRole('form', { name: `Grants of ${restricted.email}` })
  await form.getByLabel(/^Only these apps \(upload/).fill('tidewater, other-app')
  await form.getByRole('button', { name: 'Save grants' }).click()
  await expect(done(page)).toContainText(`Changed the grants of ${restricted.email}.`)
  await expect(grace.getByRole('cell').nth(3)).toHaveText('tidewater, other-app')
  await page.getByRole('button', { name: 'Sign out' }).click()
  await signIn(page, restricted)
  await expect(page.locator('.ferry-app-list code')).toHaveText(['other-app', 'tidewater'])
})

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation (${scheme}); nothing overflows at 360 px`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme })
    await page.goto(`${url}/console`)
    const signInPage = await new AxeBuilder({ page }).analyze()
    expect(signInPage.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    await signIn(page, admin)
    await page.getByRole('button', { name: /^Tidewater/ }).click()
    await expect(page.getByRole('listitem', { name: /^Version 1\.0\.0/ })).toBeVisible()
    const console = await new AxeBuilder({ page }).analyze()
    expect(console.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    // The screenshots on pages/docs/console.mdx.
    await page.screenshot({ path: join(root, 'public', 'docs', 'console', `console-${scheme}.png`) })
    await page.setViewportSize({ width: 360, height: 800 })
    // The outermost elements wider than the screen (a scrolled table's insides do not count).
    const overflowing = await page.evaluate(() => [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > 361 && !el.parentElement?.closest('.ferry-console-scroll') && (el.parentElement?.getBoundingClientRect().right ?? 0) <= 361)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`))
    expect(overflowing).toEqual([])
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  })
}

test('every control is reachable with the keyboard', async ({ page }) => {
  await page.goto(`${url}/console`)
  await expect(page.getByLabel('Email')).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Email')).toBeFocused()
  await page.keyboard.type(admin.email)
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Password')).toBeFocused()
  await page.keyboard.type(admin.password)
  await page.keyboard.press('Enter')
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible()
  // Once everything has loaded, tabbing from the top reaches the last panel's button.
  await expect(page.getByRole('region', { name: 'Team users' }).getByRole('table')).toBeVisible()
  const createToken = page.getByRole('button', { name: 'Create token' })
  await expect(createToken).toBeVisible()
  for (let i = 0; i < 300 && !(await createToken.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab')
  await expect(createToken).toBeFocused()
})
