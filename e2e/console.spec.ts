/**
 * Ferry Console (/console) on a real Ferry server, started as `npm run server` starts it on a free
 * port, after `npm run build:console`. The console is the /demo dashboard's components over HTTP.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { freePort, startDocsServer, type DocsServer } from '../lib/docs-runner/server'
import { startPostgres, type TestPostgres } from '../services/postgres-server'
import { startS3, type S3TestServer } from '../services/s3-server'

const root = join(import.meta.dirname, '..')
const SIGNUP_KEY = 'console-signup-key-0123'
const admin = { email: 'admin@example.org', password: 'a-long-enough-password' }
const restricted = { email: 'grace@example.org', password: 'grace-long-password' }

test.describe.configure({ mode: 'serial' })

let server: DocsServer
let dataDir: string
let url: string
let port: number
/** Set in the `console-pg-s3` project: the server keeps its data in PostgreSQL and its artifacts in S3 (radosgw). */
let backend: Record<string, string> = {}
let database: TestPostgres | undefined
let s3: S3TestServer | undefined
const serverEnv = () => ({
  FERRY_DATA_DIR: dataDir,
  FERRY_SIGNUP_KEY: SIGNUP_KEY,
  FERRY_LOG_LEVEL: 'warn',
  FERRY_WEBHOOK_ALLOW_PRIVATE: 'true',
  ...backend,
})

/** PostgreSQL and an S3 bucket, as an operator would configure them (FERRY_DATABASE_URL, FERRY_BLOB_URL, FERRY_S3_*). */
async function scaleOutBackend(): Promise<Record<string, string>> {
  ;[database, s3] = await Promise.all([startPostgres(), startS3()])
  const blobs = s3.location('console')
  return {
    FERRY_DATABASE_URL: await database.createDatabase(),
    FERRY_JWT_SECRET: 'console-e2e-jwt-secret-0123456789abcdef',
    FERRY_BLOB_URL: `s3://${blobs.bucket}/${blobs.prefix}`,
    FERRY_S3_FORCE_PATH_STYLE: blobs.forcePathStyle ? 'on' : 'off',
    ...(blobs.endpoint ? { FERRY_S3_ENDPOINT: blobs.endpoint } : {}),
    ...(blobs.region ? { FERRY_S3_REGION: blobs.region } : {}),
    ...(blobs.credentials
      ? {
          FERRY_S3_ACCESS_KEY_ID: blobs.credentials.accessKeyId,
          FERRY_S3_SECRET_ACCESS_KEY: blobs.credentials.secretAccessKey,
        }
      : {}),
  }
}

async function api(path: string, init: { method?: string; token?: string; body?: unknown } = {}) {
  const res = await fetch(`${url}${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: {
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  })
  return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined }
}

test.beforeAll(async () => {
  const scaleOut = test.info().project.name === 'console-pg-s3'
  if (scaleOut) {
    test.info().setTimeout(180_000)
    backend = await scaleOutBackend()
  }
  // The second project serves what the first (or `npm run build`) built, when it is there.
  if (!scaleOut || !existsSync(join(root, 'console-dist', 'console.js')))
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-console.ts'], { cwd: root, stdio: 'ignore' })
  dataDir = mkdtempSync(join(tmpdir(), 'ferry-console-'))
  port = await freePort()
  // On PostgreSQL + S3 the server first migrates the database and checks the bucket; on a busy CI machine either may take a while.
  server = await startDocsServer(root, { env: serverEnv(), silent: true }, port, 120_000)
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
  await Promise.all([database?.stop(), s3?.stop()])
  rmSync(dataDir, { recursive: true, force: true })
})

/** The notice a finished change shows. */
const done = (page: Page) => page.locator('.ferry-dash-done')

const VIEWS = [
  'Releases',
  'Drafts',
  'Rollouts',
  'Adoption',
  'Explain',
  'App settings',
  'Webhooks',
  'Tokens',
  'Team',
  'Audit log',
] as const

/** Opens one of the console's views from its navigation. */
async function view(page: Page, name: (typeof VIEWS)[number]) {
  const link = page.getByRole('navigation', { name: 'Console views' }).getByRole('link', { name, exact: true })
  await link.click()
  await expect(link).toHaveAttribute('aria-current', 'page')
}

const serious = (violations: Array<{ id: string; impact?: string | null; nodes: Array<{ target: unknown[] }> }>) =>
  violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)

/** Where each view lives when its fragment is not its lower-case title. */
const HASH: Partial<Record<(typeof VIEWS)[number], string>> = { 'Audit log': 'audit', 'App settings': 'settings' }

/** Opens a release row's "More" menu and picks an action from it. */
async function menuAction(row: Locator, name: RegExp) {
  await row.getByRole('button', { name: /^More/ }).click()
  await row
    .getByRole('list', { name: /^Actions for/ })
    .getByRole('button', { name })
    .click()
}

/** Confirms the open destructive dialog by typing the version; the action stays disabled until it matches. */
async function confirmTyped(page: Page, typed: string) {
  const dialog = page.getByRole('dialog')
  const act = dialog.getByRole('button', { name: /^(Pull|Delete|Unpublish) version$/ })
  await expect(act).toBeDisabled()
  await dialog.getByLabel(/^Type .* to confirm$/).fill(typed)
  await act.click()
  await expect(dialog).toHaveCount(0)
}

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto(`${url}/console`)
  await page.getByLabel('Email').fill(who.email)
  await page.getByLabel('Password').fill(who.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(account(page)).toBeVisible()
}

/** The top bar's account button (who is signed in). */
const account = (page: Page) => page.getByRole('button', { name: /^Account: / })

/** Signs out from the account menu. */
async function signOut(page: Page) {
  await account(page).click()
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
}

/** The top bar's app switcher. */
const switcher = (page: Page) => page.getByRole('button', { name: /^App: / })

/** The slugs the app switcher offers, in its order. */
async function switcherApps(page: Page) {
  await switcher(page).click()
  const slugs = await page
    .getByRole('listbox', { name: 'Search apps' })
    .getByRole('option')
    .locator('code')
    .allTextContents()
  await page.keyboard.press('Escape')
  return slugs
}

/** Picks the app named `name` in the app switcher, by searching for it. */
async function chooseApp(page: Page, name: string) {
  await switcher(page).click()
  const search = page.getByRole('combobox', { name: 'Search apps' })
  await search.fill(name)
  // The apps may still be loading: Enter chooses once the app is listed and selected.
  await expect(page.getByRole('option', { name: new RegExp(`^${name}`), selected: true })).toBeVisible()
  await search.press('Enter')
  await expect(switcher(page)).toHaveText(`App: ${name}`)
}

test('the console is served by Ferry with a strict CSP, and keeps the session out of localStorage and cookies', async ({
  page,
}) => {
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
  await signOut(page)
  expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual([])
})

test(
  'an admin creates the catalogue and an app, uploads a version, ramps, pauses, resumes and pulls it',
  { tag: '@core' },
  async ({ page }) => {
    await signIn(page, admin)
    // Releases is about versions: an empty team is sent to App settings to make its first app.
    await expect(page.getByText('No app yet', { exact: true })).toBeVisible()
    await expect(page.getByRole('form', { name: 'Create an app' })).toHaveCount(0)
    await page.getByRole('link', { name: 'Create an app' }).click()
    await expect(h1(page)).toHaveText('App settings')
    const catalogue = page.getByRole('form', { name: 'Add to the catalogue' })
    for (const [kind, name] of [
      ['Channel', 'stable'],
      ['Platform', 'windows'],
      ['Architecture', 'x64'],
    ] as const) {
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
    await expect(switcher(page)).toHaveText('App: Tidewater')
    await view(page, 'Releases')

    const upload = page.getByRole('form', { name: 'Upload a version of Tidewater' })
    await upload.getByLabel('Version').fill('1.0.0')
    await upload.getByLabel(/^Files/).setInputFiles({
      name: 'Tidewater-1.0.0.exe',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(256 * 1024, 7),
    })
    await upload.getByLabel('Publish now').check()
    await upload.getByRole('button', { name: 'Upload version' }).click()
    await expect(done(page)).toContainText('Uploaded 1.0.0 (stable, windows/x64) to tidewater.')
    // A slow link (Chromium's own throttling) so the upload is seen on its way, then cancelled.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 256 * 1024,
    })
    await upload.getByLabel('Version').fill('2.0.0')
    await upload.getByLabel(/^Files/).setInputFiles({
      name: 'Tidewater-2.0.0.exe',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(8 * 1024 * 1024, 9),
    })
    await upload.getByRole('button', { name: 'Upload version' }).click()
    await expect(upload.getByRole('status')).toHaveText(
      /^\d+ KB of 8\.0 MB sent, about \d+ s left$|^\d\.\d MB of 8\.0 MB sent, about \d+ s left$/,
    )
    await expect(upload.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible()
    await upload.getByRole('button', { name: 'Cancel upload' }).click()
    await expect(page.getByRole('alert')).toContainText('The upload was cancelled.')
    await expect(upload.getByRole('progressbar')).toHaveCount(0)
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    })
    await expect(page.getByRole('listitem', { name: /^Version 2\.0\.0/ })).toHaveCount(0)

    const version = page.getByRole('listitem', { name: /^Version 1\.0\.0/ })
    await menuAction(version, /^Start ramp/)
    await expect(done(page)).toContainText(/Started a ramp for .*1\.0\.0/)
    await version.getByRole('button', { name: /^Pause/ }).click()
    await expect(done(page)).toContainText(/^Paused .*1\.0\.0/)
    await expect(version.locator('.ferry-pill')).toHaveText('paused')
    // The pause is taken back from its notice, as the server sees it.
    await done(page).getByRole('button', { name: 'Undo' }).click()
    await expect(done(page)).toContainText(/^Resumed .*1\.0\.0/)
    await expect(done(page).getByRole('button', { name: 'Undo' })).toHaveCount(0)
    await expect(version.locator('.ferry-pill')).toHaveText(/^ramping/)
    const undone = await api('/v1/apps/tidewater/versions', {
      token: String((await api('/v1/auth/login', { body: admin })).body?.token),
    })
    expect(JSON.stringify(undone.body)).not.toContain('"paused":{')
    await version.getByRole('button', { name: /^Pause/ }).click()
    await expect(done(page)).toContainText(/^Paused .*1\.0\.0/)
    await version.getByRole('button', { name: /^Resume/ }).click()
    await expect(done(page)).toContainText(/^Resumed .*1\.0\.0/)
    await menuAction(version, /^Pull/)
    await confirmTyped(page, '1.0.0')
    await expect(done(page)).toContainText(/^Pulled .*1\.0\.0/)
    const login = await api('/v1/auth/login', { body: admin })
    const token = String(login.body?.token)
    const versions = await api('/v1/apps/tidewater/versions', { token })
    expect(JSON.stringify(versions.body)).toContain('"pulled"')

    // The ramp editor, opened on the version's card: steps with shares and durations, then a pause with its reason.
    await view(page, 'Rollouts')
    const health = page.getByRole('listitem', { name: /^Rollout card 1\.0\.0/ })
    await expect(health).toContainText('Pulled')
    await expect(health.locator('svg')).toHaveCount(0)
    await health.getByRole('button', { name: /^Edit rollout of 1\.0\.0/ }).click()
    const rollout = health.getByRole('region', { name: 'Rollout of 1.0.0 (stable, windows/x64)' })
    await rollout.getByRole('button', { name: 'Resume' }).click()
    await expect(done(page)).toContainText(/^Resumed .*1\.0\.0/)
    // The editor starts from the ramp the version runs (Start ramp's 1 → 10 → 50 → 100 %); a preset replaces it.
    await expect(rollout.getByLabel('Step 3: share %')).toHaveValue('50')
    await rollout.getByRole('button', { name: /^Standard/ }).click()
    await rollout.getByLabel('Step 1: share %').fill('10')
    await rollout.getByRole('button', { name: 'Add a step' }).click()
    await rollout.getByLabel('Step 3: share %').fill('60')
    await rollout.getByLabel('Step 3: minutes after the previous step').fill('120')
    await rollout.getByRole('button', { name: 'Save ramp' }).click()
    await expect(done(page)).toContainText('Set the ramp of 1.0.0 (stable, windows/x64): 10 % → 25 % → 60 % → 100 %.')
    await expect(rollout.getByRole('status')).toHaveText('Its ramp has no gate: steps follow the clock.')
    await expect(health).toContainText('ramping 10 %')
    await expect(health.locator('svg')).toHaveCount(1)
    await rollout.getByLabel('Reason (shown with the version)').fill('crash on start in 1.0.0')
    await rollout.getByRole('button', { name: 'Pause with reason' }).click()
    await expect(health).toContainText('Paused: crash on start in 1.0.0')
    await view(page, 'Releases')
    await expect(version.getByRole('list', { name: 'Rollout of 1.0.0' })).toContainText(
      'Ramp 10 % → 25 % → 60 % → 100 %: step 1 of 4 (0 %), stopped while paused.',
    )
    await expect(version.getByRole('list', { name: 'Rollout of 1.0.0' })).toContainText(': crash on start in 1.0.0')
  },
)

test(
  'a gated ramp says why it holds; health per version shows the reports and the automatic pause',
  { tag: '@core' },
  async ({ page }) => {
    await signIn(page, admin)
    await view(page, 'Rollouts')
    const card = page.getByRole('listitem', { name: /^Rollout card 1\.0\.0/ })
    await card.getByRole('button', { name: /^Edit rollout of 1\.0\.0/ }).click()
    const rollout = card.getByRole('region', { name: 'Rollout of 1.0.0 (stable, windows/x64)' })
    // The editor starts from the ramp the version runs.
    await expect(rollout.getByLabel('Step 3: share %')).toHaveValue('60')
    await rollout.getByRole('button', { name: 'Resume' }).click()
    await expect(done(page)).toContainText(/^Resumed .*1\.0\.0/)
    await rollout.getByRole('button', { name: /^Standard/ }).click()
    await rollout.getByLabel('Step 2: minutes after the previous step').fill('0')
    await rollout.getByLabel('Each step waits for evidence').check()
    await rollout.getByLabel('Installs reported before the next step').fill('3')
    await rollout.getByLabel('Largest failure share %').fill('10')
    await rollout.getByLabel('Hours a hold may last before the rollout pauses').fill('48')
    await rollout.getByRole('button', { name: 'Save ramp' }).click()
    await expect(done(page)).toContainText('each step after 3 installs at ≤ 10 % failures.')
    await expect(rollout.getByRole('status')).toContainText(
      'Holds before step 2: 0 of 3 installs reported (needs 3 installs at ≤ 10 % failures',
    )
    await expect(card).toContainText('holding for evidence')
    await expect(card).toContainText('5 % now · step 1 of 3')
    await expect(card.getByRole('definition').first()).toHaveText('holding: 0 of 3 installs, 0 failures (≤ 10 %)')
    await view(page, 'Releases')
    await expect(page.getByRole('list', { name: 'Rollout of 1.0.0' })).toContainText(
      'Ramp 5 % → 25 % → 100 %: step 1 of 3 (5 %), holds before step 2: 0 of 3 installs reported.',
    )
  },
)

test('an admin renames an app and makes it private, through PATCH /v1/apps/{app}', async ({ page }) => {
  await signIn(page, admin)
  await view(page, 'App settings')
  const edit = page.getByRole('form', { name: 'Edit tidewater' })
  await edit.getByLabel('Name').fill('Tidewater Notes')
  await edit.getByLabel('Description').fill('Tide tables that sync.')
  await edit.getByLabel('Private (downloads').check()
  await edit.getByRole('button', { name: 'Save app' }).click()
  await expect(done(page)).toContainText('Saved app tidewater.')
  await expect(switcher(page)).toHaveText('App: Tidewater Notes')
  await switcher(page).click()
  await expect(page.getByRole('option', { name: /^Tidewater Notes/ })).toContainText('private')
  await page.keyboard.press('Escape')
  const token = String((await api('/v1/auth/login', { body: admin })).body?.token)
  const apps = (await api('/v1/apps', { token })).body?.items
  expect(Array.isArray(apps) ? apps.find((a: { slug?: string }) => a.slug === 'tidewater') : undefined).toMatchObject({
    name: 'Tidewater Notes',
    description: 'Tide tables that sync.',
    private: true,
  })
  await edit.getByLabel('Name').fill('Tidewater')
  await edit.getByLabel('Private (downloads').uncheck()
  await edit.getByRole('button', { name: 'Save app' }).click()
  await expect(switcher(page)).toHaveText('App: Tidewater')
  await switcher(page).click()
  await expect(page.getByRole('option', { name: /^Tidewater/ })).not.toContainText('private')
  await page.keyboard.press('Escape')
})

test('a draft gets Markdown notes with a preview, and is published from the drafts view', async ({ page }) => {
  await signIn(page, admin)
  const upload = page.getByRole('form', { name: 'Upload a version of Tidewater' })
  await upload.getByLabel('Version').fill('1.1.0')
  await upload.getByLabel(/^Files/).setInputFiles({
    name: 'Tidewater-1.1.0.exe',
    mimeType: 'application/octet-stream',
    buffer: Buffer.alloc(64 * 1024, 3),
  })
  await upload.getByRole('button', { name: 'Upload version' }).click()
  await expect(done(page)).toContainText('Uploaded 1.1.0')
  await view(page, 'Drafts')
  const draft = page.getByRole('listitem', { name: /^Draft 1\.1\.0/ })
  // The same row head as Releases: status pill, size, upload time.
  await expect(draft.locator('.ferry-pill')).toHaveText('draft')
  await expect(draft).toContainText('64.0 KB')
  await draft
    .getByLabel('Release notes of 1.1.0 (Markdown)')
    .fill('## Fixes\n\n- **Faster** sync of `tides.db`\n- <script>alert(1)</script> stays text')
  const preview = draft.getByRole('region', { name: 'Preview of the notes of 1.1.0' })
  await expect(preview.getByRole('heading', { name: 'Fixes' })).toBeVisible()
  await expect(preview.locator('strong')).toHaveText('Faster')
  await expect(preview.locator('code')).toHaveText('tides.db')
  await expect(preview.getByRole('listitem').nth(1)).toHaveText('<script>alert(1)</script> stays text')
  await draft.getByRole('button', { name: /^Save notes/ }).click()
  await expect(done(page)).toContainText('Saved the notes of 1.1.0')
  await draft.getByRole('button', { name: /^Publish/ }).click()
  await expect(done(page)).toContainText('Published 1.1.0')
  await expect(page.getByText('No drafts: every version of Tidewater is published.')).toBeVisible()
  await view(page, 'Releases')
  const published = page.getByRole('listitem', { name: /^Version 1\.1\.0/ })
  await published.getByText(/^Notes and 1 file/).click()
  await expect(published.getByRole('heading', { name: 'Fixes' })).toBeVisible()
  const token = String((await api('/v1/auth/login', { body: admin })).body?.token)
  const versions = await api('/v1/apps/tidewater/versions', { token })
  expect(JSON.stringify(versions.body)).toContain('"changelog":"## Fixes')
})

test('adoption shows a version per day: offered, downloads, installs, failures, running', async ({ page }) => {
  // The check's UTC day lies between the days read before and after it (they differ only across midnight).
  const dayBefore = new Date().toISOString().slice(0, 10)
  const check = await fetch(`${url}/v1/apps/tidewater/update?version=0.9.0&channel=stable&platform=windows&arch=x64`, {
    headers: { 'x-ferry-device-id': 'console-e2e-device-1' },
  })
  expect(check.status).toBe(200)
  expect(await check.json()).toMatchObject({ version: '1.1.0' })
  await signIn(page, admin)
  await view(page, 'Adoption')
  await page.getByLabel('Version', { exact: true }).selectOption({ label: '1.1.0 (stable, windows/x64)' })
  const table = page.getByRole('table', { name: 'Adoption of 1.1.0 per day' })
  // One row per UTC day; the check's row counts it once offered.
  const days = [...new Set([dayBefore, new Date().toISOString().slice(0, 10)])]
  const rows = table.getByRole('row', { name: new RegExp(`^(${days.join('|')})`) })
  await expect
    .poll(() => rows.evaluateAll((rs) => rs.map((r) => r.querySelector('td')?.textContent?.trim())))
    .toContain('1')
  await expect(
    page.getByText(/UTC days\): offered 1, downloads \d+, installs 0, failures 0, running 0\./),
  ).toBeVisible()

  // The device reports the install; the rollout card's health chart counts it.
  const report = await fetch(`${url}/v1/apps/tidewater/health-reports`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      deviceId: 'console-e2e-device-1',
      version: '1.1.0',
      channel: 'stable',
      platform: 'windows',
      arch: 'x64',
      outcome: 'installed',
      fromVersion: '0.9.0',
    }),
  })
  expect(await report.json()).toMatchObject({ counted: true })
  await view(page, 'Rollouts')
  const card = page.getByRole('listitem', { name: /^Rollout card 1\.1\.0/ })
  await card.getByText('Health over time').click()
  const chart = card.getByRole('img', { name: /^Installs and failures per day, last 14 days/ })
  await expect(chart).toHaveAccessibleName(
    'Installs and failures per day, last 14 days 1 installed, 0 failed (0 %); pauses itself above 20 %.',
  )
  await expect(card.getByRole('list', { name: 'Reports' }).getByRole('listitem')).toHaveText(['Installed', 'Failed'])
})

test('webhooks: a subscription shows its secret once, delivers, redelivers from its log, and is disabled', async ({
  page,
}) => {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = []
  const receiver: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString()
    })
    req.on('end', () => {
      received.push({ headers: req.headers, body })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', listening))
  const address = receiver.address()
  const hook = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/ferry`
  try {
    await signIn(page, admin)
    await view(page, 'Webhooks')
    const form = page.getByRole('form', { name: 'Create a webhook' })
    await form.getByLabel('Receiver URL').fill(hook)
    await form.getByLabel('Description').fill('incident bot')
    await form.getByLabel('version.ramp_step').check()
    await form.getByRole('button', { name: 'Create webhook' }).click()
    await expect(done(page)).toContainText(`Created the webhook ${hook}.`)
    await expect(page.locator('.ferry-console-secret code')).toHaveText(/^whsec_/)
    const item = page.getByRole('listitem', { name: `Webhook ${hook}` })
    await expect(item).toContainText(
      'Events: version.published, version.paused, version.pulled, version.ramp_step; apps: every app.',
    )
    await item.getByRole('button', { name: /^Send a test event/ }).click()
    // Only the test events: ramps of earlier tests may send their own while this runs.
    const tests = () => received.filter((r) => r.body.includes('"webhook.test"'))
    await expect.poll(() => tests().length).toBe(1)
    const deliveries = item.getByRole('button', { name: /^Deliveries/ })
    const log = item.getByRole('table', { name: `Deliveries to ${hook}, newest first` })
    await expect(async () => {
      if ((await deliveries.getAttribute('aria-expanded')) === 'true') await deliveries.click()
      await deliveries.click()
      await expect(log.getByRole('row', { name: /^webhook\.test/ })).toContainText('succeeded', { timeout: 1000 })
    }).toPass()
    await log.getByRole('button', { name: /^Redeliver webhook\.test/ }).click()
    await expect(done(page)).toContainText(`Queued webhook.test for ${hook} again.`)
    await expect.poll(() => tests().length).toBe(2)
    const [first, again] = tests()
    expect(again?.headers['webhook-id']).toBe(first?.headers['webhook-id'])
    expect(again?.body).toBe(first?.body)
    await item.getByRole('button', { name: /^Disable/ }).click()
    await expect(done(page)).toContainText(`Disabled the webhook ${hook}.`)
    await expect(item).toContainText('disabled')

    // Every event type checked one by one, and every event at all: both subscribe.
    for (const every of [false, true]) {
      const url = `${hook}/${every ? 'every' : 'each'}`
      await form.getByLabel('Receiver URL').fill(url)
      const types = form.getByRole('checkbox', { name: /^(version|token)\./ })
      await expect(types).toHaveCount(10)
      if (every) await form.getByRole('checkbox', { name: 'Every event, those added later too' }).check()
      else for (const box of await types.all()) await box.check()
      await form.getByRole('button', { name: 'Create webhook' }).click()
      await expect(done(page)).toContainText(`Created the webhook ${url}.`)
      const made = page.getByRole('listitem', { name: `Webhook ${url}` })
      await expect(made).toContainText(every ? 'Events: every event;' : 'version.ramp_holding')
      await made.getByRole('button', { name: /^Disable/ }).click()
      await expect(done(page)).toContainText(`Disabled the webhook ${url}.`)
    }
  } finally {
    await new Promise((closed) => receiver.close(closed))
  }
})

test('a token is shown once and revoked', { tag: '@core' }, async ({ page }) => {
  await signIn(page, admin)
  await view(page, 'Tokens')
  const tokens = page.getByRole('region', { name: 'API tokens' })
  await tokens.getByLabel('Name').fill('ci-release')
  await tokens.getByRole('button', { name: 'Create token' }).click()
  await expect(done(page)).toContainText(/Created token ci-release/)
  await tokens
    .getByRole('button', { name: /Revoke/ })
    .first()
    .click()
  await expect(done(page)).toContainText('Revoked token ci-release.')
})

test('the audit log view lists who did what, newest first', { tag: '@core' }, async ({ page }) => {
  await signIn(page, admin)
  await view(page, 'Audit log')
  await expect(page.getByRole('heading', { name: 'Audit log', level: 3 })).toBeVisible()
  const entries = page.getByRole('table', { name: /Audit log entries/ })
  await expect(entries).toContainText('app.create')
  await expect(entries).toContainText('tidewater')
  await expect(entries).toContainText(admin.email)
})

test('an expired session asks to sign in again in a dialog, keeping what was typed', async ({ page }) => {
  await signIn(page, admin)
  await view(page, 'App settings')
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

test('a restricted user sees only the apps they may use', { tag: '@core' }, async ({ page }) => {
  const token = String((await api('/v1/auth/login', { body: admin })).body?.token)
  expect((await api('/v1/apps', { token, body: { slug: 'other-app', name: 'Other App' } })).status).toBe(201)
  const created = await api('/v1/team/users', {
    token,
    body: {
      ...restricted,
      name: 'Grace',
      permissions: { apps: { upload: { enabled: true, allowed: ['tidewater'] } } },
    },
  })
  expect(created.status).toBe(201)
  await signIn(page, restricted)
  await expect.poll(() => switcherApps(page)).toEqual(['tidewater'])
  // What the API would refuse is left out: no app creation, catalogue, team, or version changes.
  await expect(page.getByRole('form', { name: 'Upload a version of Tidewater' })).toBeVisible()
  await expect(page.getByRole('button', { name: /^Pull/ })).toHaveCount(0)
  await view(page, 'App settings')
  await expect(page.getByText('You may not change apps or the catalogue')).toBeVisible()
  await expect(page.getByRole('form', { name: 'Create an app' })).toHaveCount(0)
  await expect(page.getByRole('form', { name: 'Add to the catalogue' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Delete app/ })).toHaveCount(0)
  await expect(page.getByRole('form', { name: 'Edit tidewater' })).toHaveCount(0)
  await view(page, 'Releases')
  const nav = page.getByRole('navigation', { name: 'Console views' })
  await expect(nav.getByRole('link', { name: 'Team' })).toHaveCount(0)
  await expect(nav.getByRole('link', { name: 'Webhooks' })).toHaveCount(0)
  // An admin view's address shows the releases instead; the API refuses it anyway.
  await page.goto(`${url}/console#webhooks`)
  await expect(nav.getByRole('link', { name: 'Releases' })).toHaveAttribute('aria-current', 'page')
  await expect(page.getByRole('heading', { name: 'Webhooks' })).toHaveCount(0)
  const grace = String((await api('/v1/auth/login', { body: restricted })).body?.token)
  expect((await api('/v1/webhooks', { token: grace })).status).toBe(403)
  await view(page, 'Drafts')
  await expect(page.getByRole('button', { name: /^Publish/ })).toHaveCount(0)
})

test("an admin reads the permission matrix and changes a user's grants", { tag: '@core' }, async ({ page }) => {
  await signIn(page, admin)
  await view(page, 'Team')
  const team = page.getByRole('region', { name: 'Team users' })
  const grace = team.getByRole('row', { name: new RegExp(restricted.email) })
  await expect(grace.getByRole('cell').nth(3)).toHaveText('tidewater')
  await grace.getByRole('button', { name: /Edit grants/ }).click()
  const form = page.getByRole('form', { name: `Grants of ${restricted.email}` })
  await form.getByLabel(/^Only these apps \(upload/).fill('tidewater, other-app')
  await form.getByRole('button', { name: 'Save grants' }).click()
  await expect(done(page)).toContainText(`Changed the grants of ${restricted.email}.`)
  await expect(grace.getByRole('cell').nth(3)).toHaveText('tidewater, other-app')
  await signOut(page)
  await signIn(page, restricted)
  await expect.poll(() => switcherApps(page)).toEqual(['other-app', 'tidewater'])
})

/** A control in each view that the keyboard must reach (the last action of the view, where it has several). */
const LAST_CONTROL: Record<(typeof VIEWS)[number], { role: 'button' | 'combobox'; name: string | RegExp }> = {
  Releases: { role: 'button', name: 'Upload version' },
  Drafts: { role: 'button', name: /^App: / },
  Rollouts: { role: 'button', name: /^Edit rollout of/ },
  Adoption: { role: 'combobox', name: 'Version' },
  Explain: { role: 'button', name: 'Check for updates' },
  'App settings': { role: 'button', name: /^Delete app/ },
  Webhooks: { role: 'button', name: /^Deliveries/ },
  Tokens: { role: 'button', name: 'Create token' },
  Team: { role: 'button', name: /^Edit grants/ },
  'Audit log': { role: 'button', name: 'Filter' },
}

/** The admin's session, put where the console keeps it (this tab's sessionStorage): one login for every view checked. */
let adminSession: string | undefined
async function signedInAt(page: Page, hash: string) {
  adminSession ??= JSON.stringify((await api('/v1/auth/login', { body: admin })).body)
  await page.addInitScript((session) => sessionStorage.setItem('ferry.console.session', session), adminSession)
  await page.goto(`${url}/console#${hash}`)
  await expect(account(page)).toBeVisible()
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on the sign-in page (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme })
    await page.goto(`${url}/console`)
    await expect(page.getByLabel('Email')).toBeVisible()
    expect(serious((await new AxeBuilder({ page }).analyze()).violations)).toEqual([])
  })

  for (const name of VIEWS) {
    test(`axe finds no serious or critical violation on ${name} (${scheme}); nothing overflows at 360 px`, async ({
      page,
    }) => {
      await page.emulateMedia({ colorScheme: scheme })
      await signedInAt(page, name === 'Releases' ? '' : (HASH[name] ?? name.toLowerCase()))
      await expect(
        page.getByRole('navigation', { name: 'Console views' }).getByRole('link', { name, exact: true }),
      ).toHaveAttribute('aria-current', 'page')
      // The app with versions, drafts' notes, ramps and adoption.
      if (['Releases', 'Drafts', 'Rollouts', 'Adoption', 'App settings'].includes(name))
        await chooseApp(page, 'Tidewater')
      if (name === 'Releases') await expect(page.getByRole('listitem', { name: /^Version 1\.0\.0/ })).toBeVisible()
      // A rollout's editor, open on its card.
      if (name === 'Rollouts') await page.getByRole('button', { name: /^Edit rollout of 1\.0\.0/ }).click()
      await expect(page.locator('[role="status"]', { hasText: /^Loading/ })).toHaveCount(0)
      expect(serious((await new AxeBuilder({ page }).analyze()).violations)).toEqual([])
      // The screenshots on pages/docs/console.mdx.
      if (name === 'Releases')
        await page.screenshot({ path: join(root, 'public', 'docs', 'console', `console-${scheme}.png`) })
      await page.setViewportSize({ width: 360, height: 800 })
      // The outermost elements wider than the screen (a scrolled table's insides do not count).
      const overflowing = await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter(
            (el) =>
              el.getBoundingClientRect().right > 361 &&
              !el.parentElement?.closest('.ferry-console-scroll') &&
              (el.parentElement?.getBoundingClientRect().right ?? 0) <= 361,
          )
          .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
      )
      expect(overflowing).toEqual([])
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    })
  }
}

test('every view is reached, and its controls used, with the keyboard', async ({ page }) => {
  test.setTimeout(180_000)
  await page.goto(`${url}/console`)
  await expect(page.getByLabel('Email')).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Email')).toBeFocused()
  await page.keyboard.type(admin.email)
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Password')).toBeFocused()
  await page.keyboard.type(admin.password)
  await page.keyboard.press('Enter')
  await expect(account(page)).toBeVisible()
  // The app with versions, chosen with the keyboard: the other views show the selected app.
  await switcher(page).focus()
  await page.keyboard.press('Enter')
  await page.keyboard.type('Tidewater')
  await expect(page.getByRole('option', { name: /^Tidewater/, selected: true })).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(switcher(page)).toHaveText('App: Tidewater')
  const nav = page.getByRole('navigation', { name: 'Console views' })
  for (const name of VIEWS) {
    // From the account button, Tab reaches the view's link, and Enter opens it.
    await account(page).focus()
    const link = nav.getByRole('link', { name, exact: true })
    for (let i = 0; i < 20 && !(await link.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab')
    await expect(link).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(link).toHaveAttribute('aria-current', 'page')
    await expect(page.locator('[role="status"]', { hasText: /^Loading/ })).toHaveCount(0)
    const { role, name: control } = LAST_CONTROL[name]
    const target = page.getByRole(role, { name: control }).last()
    await expect(target).toBeVisible()
    for (let i = 0; i < 300 && !(await target.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab')
    await expect(target, name).toBeFocused()
  }
})

/** Uploads a version of `app` through the API, as a pipeline would; returns its id. */
async function uploadThroughApi(token: string, app: string, version: string, published: boolean) {
  const form = new FormData()
  for (const [k, v] of Object.entries({ version, channel: 'stable', platform: 'windows', arch: 'x64' })) form.set(k, v)
  form.set('published', String(published))
  form.append('files', new Blob([Buffer.alloc(3 * 1024, 1)]), `Harbour-${version}.exe`)
  const res = await fetch(`${url}/v1/apps/${app}/versions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  expect(res.status).toBe(201)
  return String(((await res.json()) as { id: string }).id)
}

/** The app `harbour` and the catalogue it uses, made through the API where an earlier test has not made them. */
async function harbour(token: string) {
  for (const [path, body] of [
    ['/v1/channels', { name: 'stable', description: '' }],
    ['/v1/platforms', { name: 'windows', updater: 'ferry' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/apps', { slug: 'harbour', name: 'Harbour' }],
  ] as const)
    expect([201, 409]).toContain((await api(path, { token, body })).status)
}

/** One release of `harbour` in each state a row can show, set up through the API. */
const STATES = [
  { version: '2.0.0', pill: 'draft', primary: 'Publish' },
  { version: '2.1.0', pill: 'published', primary: 'Pause' },
  { version: '2.2.0', pill: 'ramping 25 %', primary: 'Pause' },
  { version: '2.3.0', pill: 'holding for evidence', primary: 'Pause' },
  { version: '2.4.0', pill: 'paused', primary: 'Resume' },
  { version: '2.5.0', pill: 'pulled', primary: 'Resume' },
] as const
const ids: Record<string, string> = {}

test('releases: one row per target with its status pill, size and publisher, and one primary action per state', async ({
  page,
}) => {
  const token = String((await api('/v1/auth/login', { body: admin })).body?.token)
  await harbour(token)
  for (const s of STATES) ids[s.version] = await uploadThroughApi(token, 'harbour', s.version, s.version !== '2.0.0')
  const patch = (v: string, body: unknown) =>
    api(`/v1/apps/harbour/versions/${ids[v]}`, { method: 'PATCH', token, body }).then((r) => expect(r.status).toBe(200))
  await patch('2.2.0', {
    ramp: {
      steps: [
        { percentage: 25, afterMinutes: 0 },
        { percentage: 100, afterMinutes: 600 },
      ],
    },
  })
  await patch('2.3.0', {
    ramp: {
      steps: [
        { percentage: 10, afterMinutes: 0 },
        { percentage: 100, afterMinutes: 0 },
      ],
      gate: { minInstalls: 3, maxFailureRatio: 0.1, deadlineMinutes: 600 },
    },
  })
  expect((await api(`/v1/apps/harbour/versions/${ids['2.4.0']}/pause`, { token, body: {} })).status).toBe(200)
  expect((await api(`/v1/apps/harbour/versions/${ids['2.5.0']}/pull`, { token, body: {} })).status).toBe(200)

  await signIn(page, admin)
  await chooseApp(page, 'Harbour')
  for (const s of STATES) {
    const row = page.getByRole('listitem', { name: `Version ${s.version} (stable, windows/x64)` })
    await expect(row.locator('.ferry-pill')).toHaveText(s.pill)
    await expect(row).toContainText('stable · windows · x64')
    await expect(row).toContainText('3.0 KB')
    // Published through the API by the admin: the audit log says who.
    if (s.version !== '2.0.0') await expect(row).toContainText(`${admin.email}, `)
    // One primary button; the rest wait in the menu.
    await expect(row.locator('.ferry-btn-primary')).toHaveCount(1)
    await expect(row.locator('.ferry-btn-primary')).toHaveAccessibleName(
      `${s.primary} ${s.version} (stable, windows/x64)`,
    )
    await row.getByRole('button', { name: /^More/ }).click()
    const menu = row.getByRole('list', { name: /^Actions for/ })
    await expect(menu.getByRole('button', { name: new RegExp(`^${s.primary} `) })).toHaveCount(0)
    await expect(menu.getByRole('button', { name: /^Delete…/ })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(menu).toHaveCount(0)
  }
})

test('pull and delete wait for the version typed, and say how many devices ran it', async ({ page }) => {
  // A device on 2.1.0 checks for updates: the pull dialog counts it.
  const check = await fetch(`${url}/v1/apps/harbour/update?version=2.1.0&channel=stable&platform=windows&arch=x64`, {
    headers: { 'x-ferry-device-id': 'console-e2e-harbour-1' },
  })
  expect([200, 204]).toContain(check.status)
  const token = String((await api('/v1/auth/login', { body: admin })).body?.token)
  await expect
    .poll(async () => (await api(`/v1/apps/harbour/versions/${ids['2.1.0']}/adoption`, { token })).body, {
      timeout: 15_000,
    })
    .toMatchObject({ days: [expect.objectContaining({ running: 1 })] })
  await signIn(page, admin)
  await chooseApp(page, 'Harbour')
  const row = page.getByRole('listitem', { name: 'Version 2.1.0 (stable, windows/x64)' })
  await menuAction(row, /^Pull…/)
  const dialog = page.getByRole('dialog', { name: 'Pull 2.1.0 (stable, windows/x64)?' })
  await expect(dialog).toContainText(/1 device ran 2\.1\.0 on \d{4}-\d\d-\d\d\./)
  const pull = dialog.getByRole('button', { name: 'Pull version' })
  const typed = dialog.getByLabel('Type 2.1.0 to confirm')
  for (const wrong of ['', '2.1', 'harbour', '2.1.0 ']) {
    await typed.fill(wrong)
    await expect(pull).toBeDisabled()
  }
  // Cancelled: nothing is pulled.
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toHaveCount(0)
  expect((await api(`/v1/apps/harbour/versions`, { token })).body?.items).toContainEqual(
    expect.objectContaining({ version: '2.1.0', rollout: expect.objectContaining({ pulled: null }) }),
  )
  await menuAction(row, /^Pull…/)
  await dialog.getByLabel('Reason (shown with the version)').fill('installer fails on ARM laptops')
  await dialog.getByLabel('Type 2.1.0 to confirm').fill('2.1.0')
  await dialog.getByRole('button', { name: 'Pull version' }).click()
  await expect(done(page)).toContainText('Pulled 2.1.0 (stable, windows/x64)')
  await expect(row.locator('.ferry-pill')).toHaveText('pulled')
  await expect(row).toContainText(': installer fails on ARM laptops.')

  const draft = page.getByRole('listitem', { name: 'Version 2.0.0 (stable, windows/x64)' })
  await menuAction(draft, /^Delete…/)
  const del = page.getByRole('dialog', { name: 'Delete 2.0.0 (stable, windows/x64)?' })
  await expect(del).toContainText('Deletes the version and its 1 file for good')
  await del.getByLabel('Type 2.0.0 to confirm').fill('harbour')
  await expect(del.getByRole('button', { name: 'Delete version' })).toBeDisabled()
  await del.getByLabel('Type 2.0.0 to confirm').fill('2.0.0')
  await del.getByRole('button', { name: 'Delete version' }).click()
  await expect(done(page)).toContainText('Deleted 2.0.0 (stable, windows/x64).')
  await expect(draft).toHaveCount(0)
  const after = await api(`/v1/apps/harbour/versions`, { token })
  expect(JSON.stringify(after.body)).not.toContain('"2.0.0"')
})

test(
  'a ramp changed through the API appears in the open console without a reload',
  { tag: '@core' },
  async ({ page }) => {
    const token = String((await api('/v1/auth/login', { body: admin })).body?.token)
    if (!ids['2.2.0']) {
      // The PostgreSQL project runs only the @core tests: it makes its own ramping release.
      await harbour(token)
      ids['2.2.0'] = await uploadThroughApi(token, 'harbour', '2.2.0', true)
    }
    const ramp = (percentage: number) =>
      api(`/v1/apps/harbour/versions/${ids['2.2.0']}`, {
        method: 'PATCH',
        token,
        body: {
          ramp: {
            steps: [
              { percentage, afterMinutes: 0 },
              { percentage: 100, afterMinutes: 600 },
            ],
          },
        },
      })
    expect((await ramp(25)).status).toBe(200)
    await signIn(page, admin)
    await chooseApp(page, 'Harbour')
    await view(page, 'Rollouts')
    const card = page.getByRole('listitem', { name: 'Rollout card 2.2.0 (stable, windows/x64)' })
    await expect(card.locator('.ferry-pill')).toHaveText('ramping 25 %')
    await expect(card).toContainText('25 % now · step 1 of 2 (25 → 100 %) · next 100 %')
    // A mark on the page's window: a reload would drop it.
    await page.evaluate(() => Object.assign(window, { consoleMark: 'not reloaded' }))
    expect((await ramp(60)).status).toBe(200)
    await expect(card.locator('.ferry-pill')).toHaveText('ramping 60 %', { timeout: 15_000 })
    expect(
      (await api(`/v1/apps/harbour/versions/${ids['2.2.0']}/pause`, { token, body: { reason: 'ops call' } })).status,
    ).toBe(200)
    await expect(card.locator('.ferry-pill')).toHaveText('paused', { timeout: 15_000 })
    await expect(card).toContainText('Paused: ops call')
    expect(await page.evaluate(() => (window as unknown as { consoleMark?: string }).consoleMark)).toBe('not reloaded')
    expect((await api(`/v1/apps/harbour/versions/${ids['2.2.0']}/resume`, { token, body: {} })).status).toBe(200)
  },
)

test('adoption draws devices per version per day, with the numbers in a table', async ({ page }) => {
  const token = String((await api('/v1/auth/login', { body: admin })).body?.token)
  // Devices on two versions of harbour check for updates (the pull test's device runs 2.1.0);
  // telemetry writes them within seconds.
  for (const [device, version] of [
    ['console-e2e-adopt-1', '2.2.0'],
    ['console-e2e-adopt-2', '2.3.0'],
    ['console-e2e-adopt-3', '2.3.0'],
  ] as const) {
    const res = await fetch(
      `${url}/v1/apps/harbour/update?version=${version}&channel=stable&platform=windows&arch=x64`,
      {
        headers: { 'x-ferry-device-id': device },
      },
    )
    expect([200, 204]).toContain(res.status)
  }
  const today = new Date().toISOString().slice(0, 10)
  const report = async () => (await api(`/v1/telemetry?from=${today}&to=${today}&app=harbour`, { token })).body
  await expect.poll(async () => JSON.stringify(await report()), { timeout: 20_000 }).toContain('"2.3.0"')
  expect((await api('/v1/apps', { token, body: { slug: 'quiet', name: 'Quiet' } })).status).toBe(201)
  await signIn(page, admin)
  await chooseApp(page, 'Harbour')
  await view(page, 'Adoption')
  const chart = page.getByRole('region', { name: 'Devices per version, last 14 days' })
  await expect(chart.getByRole('img')).toHaveAccessibleName(
    `Devices per version, last 14 days ${today}: 4 devices (1 on 2.1.0, 1 on 2.2.0, 2 on 2.3.0); at most 4 on one day.`,
  )
  // One band per version, oldest at the bottom, each named in the legend.
  await expect(chart.locator('svg[role="img"] path')).toHaveCount(3)
  await expect(chart.getByRole('list', { name: 'Versions' }).getByRole('listitem')).toHaveText([
    '2.1.0',
    '2.2.0',
    '2.3.0',
  ])
  await chart.getByText('The numbers').click()
  const table = chart.getByRole('table', { name: 'Devices per version per day' })
  await expect(table.getByRole('row', { name: new RegExp(`^${today}`) }).getByRole('cell')).toHaveText([
    '1',
    '1',
    '2',
    '4',
  ])
  // An app no device has reported on says so instead of drawing an empty chart.
  await chooseApp(page, 'Quiet')
  await expect(page.getByRole('region', { name: 'Devices per version, last 14 days' })).toContainText(
    'No device has reported in the last 14 days.',
  )
  await expect(page.getByRole('region', { name: 'Devices per version, last 14 days' }).getByRole('img')).toHaveCount(0)
})

test('releases, rollouts, adoption and app settings: axe and screenshots at 390 and 1280 px in light and dark', async ({
  page,
}) => {
  test.setTimeout(120_000)
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 })
      for (const [hash, app] of [
        ['releases', 'harbour'],
        ['rollouts', 'harbour'],
        ['adoption', 'harbour'],
        ['settings', 'harbour'],
      ] as const) {
        await signedInAt(page, hash)
        await chooseApp(page, app === 'harbour' ? 'Harbour' : 'Tidewater')
        await expect(page.locator('[role="status"]', { hasText: /^Loading/ })).toHaveCount(0)
        if (hash === 'releases') {
          const row = page.getByRole('listitem', { name: 'Version 2.3.0 (stable, windows/x64)' })
          await row.getByRole('button', { name: /^More/ }).click()
        }
        if (hash === 'rollouts') {
          const card = page.getByRole('listitem', { name: 'Rollout card 2.3.0 (stable, windows/x64)' })
          await card.getByText('Health over time').click()
          await expect(card.getByRole('status')).toHaveCount(0)
        }
        expect(serious((await new AxeBuilder({ page }).analyze()).violations), `${hash} ${scheme} ${width}`).toEqual([])
        await page.screenshot({
          path: test.info().outputPath(`console-${hash}-${width}-${scheme}.png`),
          fullPage: true,
        })
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
      }
      // The delete confirmation, over the page.
      await signedInAt(page, 'releases')
      await chooseApp(page, 'Harbour')
      await menuAction(page.getByRole('listitem', { name: 'Version 2.4.0 (stable, windows/x64)' }), /^Delete…/)
      await expect(page.getByRole('dialog')).toBeVisible()
      expect(serious((await new AxeBuilder({ page }).analyze()).violations), `dialog ${scheme} ${width}`).toEqual([])
      await page.screenshot({ path: test.info().outputPath(`console-delete-${width}-${scheme}.png`) })
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click()
      await expect(page.getByRole('dialog')).toHaveCount(0)
    }
  }
})
// The shell: app switcher, command palette, shortcuts, theme, account menu, phone layout.

/** Apps (Harbor Notes with version 3.2.0, Tidewater) for the shell's tests, made through the API when missing. */
async function ensureShellData() {
  const token = String((await api('/v1/auth/login', { body: admin })).body?.token)
  const made = (status: number) => expect([201, 409]).toContain(status)
  made((await api('/v1/channels', { token, body: { name: 'stable', description: '' } })).status)
  made((await api('/v1/platforms', { token, body: { name: 'windows', updater: 'ferry' } })).status)
  made((await api('/v1/archs', { token, body: { name: 'x64' } })).status)
  made((await api('/v1/apps', { token, body: { slug: 'tidewater', name: 'Tidewater' } })).status)
  const harbor = { slug: 'harbor-notes', name: 'Harbor Notes', description: 'Notes that sync over your own server.' }
  made((await api('/v1/apps', { token, body: harbor })).status)
  const versions = await api('/v1/apps/harbor-notes/versions', { token })
  if (!JSON.stringify(versions.body).includes('"3.2.0"')) {
    const form = new FormData()
    for (const [k, v] of Object.entries({ version: '3.2.0', channel: 'stable', platform: 'windows', arch: 'x64' }))
      form.set(k, v)
    form.set('published', 'true')
    form.set('files', new Blob([new Uint8Array(32 * 1024)]), 'HarborNotes-3.2.0.exe')
    const res = await fetch(`${url}/v1/apps/harbor-notes/versions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    expect(res.status).toBe(201)
  }
}

const h1 = (page: Page) => page.getByRole('heading', { level: 1 })

test('Ctrl+K opens the command palette; typing finds a view, an app or a version, and Enter goes there', async ({
  page,
}) => {
  await ensureShellData()
  await signedInAt(page, '')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  const search = palette.getByRole('combobox', { name: 'Search apps, versions and actions' })
  await page.keyboard.press('Control+k')
  await expect(search).toBeFocused()
  await search.fill('audit')
  await expect(palette.getByRole('option', { selected: true })).toContainText('Audit log')
  await search.press('Enter')
  await expect(palette).toHaveCount(0)
  await expect(page).toHaveURL(/#audit$/)
  await expect(h1(page)).toHaveText('Audit log')

  await page.keyboard.press('Control+k')
  await search.fill('harbor')
  await search.press('Enter')
  await expect(switcher(page)).toHaveText('App: Harbor Notes')

  // ↓ moves the choice; Enter on a version opens the releases at its row.
  await page.keyboard.press('Control+k')
  await search.fill('3.2.0')
  const options = palette.getByRole('option')
  await expect(options.first()).toContainText('3.2.0 · stable · windows/x64')
  await search.fill('go')
  await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true')
  await search.press('ArrowDown')
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true')
  await expect(search).toHaveAttribute('aria-activedescendant', (await options.nth(1).getAttribute('id')) ?? '')
  await search.fill('3.2.0')
  await search.press('Enter')
  await expect(page).toHaveURL(/#releases$/)
  await expect(page.getByRole('listitem', { name: /^Version 3\.2\.0/ })).toBeFocused()

  await page.keyboard.press('Control+k')
  await search.fill('no such thing')
  await expect(palette.getByRole('status')).toHaveText(/^Nothing matches/)
  await page.keyboard.press('Escape')
  await expect(palette).toHaveCount(0)
})

test('the app switcher searches the apps (/ opens it) and switches every app view', async ({ page }) => {
  await ensureShellData()
  await signedInAt(page, 'rollouts')
  await chooseApp(page, 'Harbor Notes')
  await page.keyboard.press('/')
  const search = page.getByRole('combobox', { name: 'Search apps' })
  await expect(search).toBeFocused()
  await search.fill('tide')
  const options = page.getByRole('listbox', { name: 'Search apps' }).getByRole('option')
  await expect(options).toHaveText([/^Tidewater/])
  await search.press('Enter')
  await expect(search).toHaveCount(0)
  await expect(switcher(page)).toHaveText('App: Tidewater')
  await expect(switcher(page)).toBeFocused()
  await expect(page.getByText('Tidewater · tidewater', { exact: true })).toBeVisible()
  await switcher(page).click()
  await search.fill('zzz')
  await expect(page.getByRole('status').filter({ hasText: 'No app matches.' })).toBeVisible()
  await search.press('Escape')
  await expect(search).toHaveCount(0)
  await expect(switcher(page)).toBeFocused()
})

test('the theme follows the system until one is chosen, and the choice survives a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await signedInAt(page, '')
  const html = page.locator('html')
  await expect(html).toHaveClass(/\bdark\b/)
  const toggle = page.getByRole('button', { name: 'Dark theme' })
  await expect(toggle).toHaveAttribute('aria-pressed', 'true')
  await toggle.click()
  await expect(html).not.toHaveClass(/\bdark\b/)
  await page.reload()
  await expect(account(page)).toBeVisible()
  await expect(html).not.toHaveClass(/\bdark\b/)
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)')
  await account(page).click()
  await page.getByRole('radio', { name: 'System' }).check()
  await expect(html).toHaveClass(/\bdark\b/)
  await page.emulateMedia({ colorScheme: 'light' })
  await expect(html).not.toHaveClass(/\bdark\b/)
  expect(await page.evaluate(() => localStorage.getItem('ferry.console.theme'))).toBeNull()
})

test('? lists every shortcut; g then a letter opens a view, but not while typing', async ({ page }) => {
  await signedInAt(page, '')
  await page.keyboard.press('?')
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
  await expect(sheet.getByRole('row', { name: /^(Ctrl|⌘|g|\/|\?|Esc)/ })).toHaveCount(15)
  await expect(sheet.getByRole('row', { name: /Go to Audit log/ })).toContainText('g then l')
  await expect(sheet.getByRole('row', { name: /Go to Holds and pins/ })).toContainText('g then h')
  await expect(sheet.getByRole('row', { name: /command palette/ })).toContainText(/(Ctrl|⌘)\+K/)
  await page.keyboard.press('Escape')
  await expect(sheet).toHaveCount(0)
  await page.keyboard.press('g')
  await page.keyboard.press('l')
  await expect(page).toHaveURL(/#audit$/)
  await expect(h1(page)).toHaveText('Audit log')
  const field = page.getByLabel('Action starts with')
  await field.focus()
  await page.keyboard.type('gt?')
  await expect(field).toHaveValue('gt?')
  await expect(page).toHaveURL(/#audit$/)
  await expect(sheet).toHaveCount(0)
})

test('the account menu says who and in which team; a new team is told what to do first', async ({ page }) => {
  const newcomer = { email: 'newcomer@example.org', password: 'newcomer-long-password' }
  const signup = await fetch(`${url}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-ferry-signup-key': SIGNUP_KEY },
    body: JSON.stringify({ teamName: 'Newcomer Team', name: 'Nia Newcomer', ...newcomer }),
  })
  expect(signup.status).toBe(201)
  await signIn(page, newcomer)
  await expect(account(page)).toHaveText('NNAccount: newcomer@example.org')
  await account(page).click()
  await expect(page.getByText('Admin of Newcomer Team')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByText('Admin of Newcomer Team')).toBeHidden()
  await expect(account(page)).toBeFocused()
  await expect(switcher(page)).toHaveText('App: No apps yet')
  await view(page, 'Rollouts')
  await expect(page.getByText('No app yet', { exact: true })).toBeVisible()
  await page.getByRole('link', { name: 'Create an app' }).click()
  await expect(h1(page)).toHaveText('App settings')
  await view(page, 'Releases')
  await page.keyboard.press('Control+k')
  const search = page.getByRole('combobox', { name: 'Search apps, versions and actions' })
  await search.fill('create an app')
  await search.press('Enter')
  await expect(page.getByRole('form', { name: 'Create an app' }).getByLabel('Slug')).toBeFocused()
  await signOut(page)
})

test('at 390 px the views are behind a menu that opens, navigates and closes', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await signedInAt(page, '')
  const nav = page.getByRole('navigation', { name: 'Console views' })
  await expect(nav).toBeHidden()
  const menu = page.getByRole('button', { name: 'Menu' })
  await menu.click()
  await expect(menu).toHaveAttribute('aria-expanded', 'true')
  await nav.getByRole('link', { name: 'Tokens' }).click()
  await expect(h1(page)).toHaveText('Tokens')
  await expect(nav).toBeHidden()
  await expect(menu).toHaveAttribute('aria-expanded', 'false')
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
})

test(
  'a token secret copies to the clipboard; a duplicate name shows the API refusal at the form',
  { tag: '@core' },
  async ({ page, context }) => {
    await ensureShellData()
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url })
    await signedInAt(page, 'tokens')
    const tokens = page.getByRole('region', { name: 'API tokens' })
    const form = tokens.getByRole('form', { name: /^Create a token for / })
    await form.getByLabel('Name').fill('deploy-bot')
    await form.getByRole('button', { name: 'Create token' }).click()
    await expect(done(page)).toContainText('Created token deploy-bot.')
    const secret = (await tokens.locator('.ferry-token-secret code').textContent()) ?? ''
    expect(secret).toMatch(/^ferry_/)
    await tokens.getByRole('button', { name: 'Copy the token deploy-bot' }).click()
    await expect(tokens.getByText('Copied', { exact: true })).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret)
    expect((await api('/v1/whoami', { token: secret })).status).toBe(200)

    await form.getByRole('button', { name: 'Create token' }).click()
    await expect(form.getByRole('alert')).toContainText(
      '409 Conflict — A token named deploy-bot already exists in this team; revoke it or choose another name.',
    )
    await expect(form.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true')
    await expect(tokens.locator('.ferry-token-secret')).toHaveCount(0)
    await expect(tokens.getByRole('row', { name: /^deploy-bot/ })).toHaveCount(1)
  },
)

test('audit dates stay on one line at 390 px', async ({ page }) => {
  await ensureShellData()
  await page.setViewportSize({ width: 390, height: 844 })
  await signedInAt(page, 'audit')
  const times = page.getByRole('table', { name: /Audit log entries/ }).locator('time')
  await expect(times.first()).toBeVisible()
  expect(await times.evaluateAll((ts) => Math.max(...ts.map((t) => t.getClientRects().length)))).toBe(1)
})

for (const scheme of ['light', 'dark'] as const) {
  test(`the shell: axe finds nothing serious with its palette, shortcuts and menus open (${scheme}); screenshots at 390 and 1280 px`, async ({
    page,
  }) => {
    await ensureShellData()
    const shot = (name: string) =>
      page.screenshot({ path: join(root, 'test-results', 'console-shell', `${scheme}-${name}.png`) })
    const axe = async () => expect(serious((await new AxeBuilder({ page }).analyze()).violations)).toEqual([])
    await page.emulateMedia({ colorScheme: scheme })
    await page.setViewportSize({ width: 1280, height: 800 })
    await signedInAt(page, '')
    await chooseApp(page, 'Harbor Notes')
    await expect(page.getByRole('listitem', { name: /^Version 3\.2\.0/ })).toBeVisible()
    await switcher(page).blur()
    await axe()
    await shot('1280')
    await account(page).click()
    await axe()
    await shot('1280-account')
    await page.keyboard.press('Escape')
    await switcher(page).click()
    await axe()
    await page.keyboard.press('Escape')
    await page.keyboard.press('Control+k')
    await expect(page.getByRole('dialog', { name: 'Command palette' })).toBeVisible()
    await axe()
    await shot('1280-palette')
    await page.keyboard.press('Escape')
    await page.keyboard.press('?')
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible()
    await axe()
    await shot('1280-shortcuts')
    await page.keyboard.press('Escape')
    await page.setViewportSize({ width: 390, height: 844 })
    await shot('390')
    await page.getByRole('button', { name: 'Menu' }).click()
    await axe()
    await shot('390-menu')
    await page.getByRole('button', { name: 'Menu' }).click()
    await page.keyboard.press('Control+k')
    await shot('390-palette')
  })
}
