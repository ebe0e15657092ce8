import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { NOT_IN_SEED } from '../components/api/try-it/sandbox-examples.ts'

/**
 * /demo on the in-browser sandbox. Every test also checks that the page logged no console
 * error and sent no request to any origin but the site's own.
 */

const watched = new WeakMap<Page, { errors: string[]; foreign: string[]; allowErrors: RegExp[] }>()

test.beforeEach(async ({ page, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin
  const log = { errors: [] as string[], foreign: [] as string[], allowErrors: [] as RegExp[] }
  watched.set(page, log)
  page.on('console', (msg) => {
    if (msg.type() === 'error') log.errors.push(msg.text())
  })
  page.on('pageerror', (err) => log.errors.push(err.message))
  page.on('request', (req) => {
    const url = new URL(req.url())
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== origin) log.foreign.push(req.url())
  })
})

test.afterEach(async ({ page }) => {
  const log = watched.get(page)
  if (!log) return
  expect(log.foreign, 'requests to other origins').toEqual([])
  expect(
    log.errors.filter((e) => !log.allowErrors.some((re) => re.test(e))),
    'console errors',
  ).toEqual([])
})

const dashboard = (page: Page) => page.locator('section.ferry-dash')

async function openReady(page: Page) {
  await page.goto('/demo')
  await expect(dashboard(page).getByRole('status').first()).toHaveText(/Sandbox ready/, { timeout: 30_000 })
  await expect(dashboard(page).getByRole('button', { name: /Harbor Notes/ })).toBeVisible()
}

const versionCard = (page: Page, version: string, where = 'stable, windows/x64') =>
  dashboard(page).getByRole('listitem', { name: `Version ${version} (${where})` })

/** A release row's notes and files, opened. */
async function filesOf(card: Locator) {
  await card.getByText(/^Notes and \d+ files?/).click()
  return card
}

/** Picks an action from a release row's "More" menu. */
async function menuAction(card: Locator, name: string) {
  await card.getByRole('button', { name: /^More/ }).click()
  await card
    .getByRole('list', { name: /^Actions for/ })
    .getByRole('button', { name })
    .click()
}

async function simulate(
  page: Page,
  fields: { app?: string; version?: string; format?: string; platform?: string; arch?: string; packageType?: string },
) {
  const sim = page.locator('section.ferry-sim')
  if (fields.app) await sim.getByLabel('App').selectOption(fields.app)
  if (fields.format) await sim.getByLabel('Request').selectOption({ label: fields.format })
  if (fields.version) await sim.getByLabel('Installed version').fill(fields.version)
  if (fields.platform) await sim.getByLabel('Platform').selectOption(fields.platform)
  if (fields.arch) await sim.getByLabel('Architecture').selectOption(fields.arch)
  if (fields.packageType) await sim.getByLabel('Package type').selectOption(fields.packageType)
  await sim.getByRole('button', { name: 'Check for updates' }).click()
  return sim.getByRole('status', { name: 'Simulator answer' })
}

async function uploadDraft(page: Page, version: string, fileName: string) {
  const form = dashboard(page).locator('form.ferry-upload')
  await form.getByLabel('Version').fill(version)
  await form.getByLabel(/^Files/).setInputFiles({
    name: fileName,
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(`bytes of ${fileName}`),
  })
  await form.getByLabel('Changelog (Markdown)').fill('- Uploaded from the e2e test')
  await form.getByRole('button', { name: 'Upload version' }).click()
  await expect(dashboard(page).getByText(`Uploaded ${version} (stable, windows/x64) to harbor-notes.`)).toBeVisible()
}

test.describe('Demo Dashboard', () => {
  test('shows the seeded demo data and the demo login', async ({ page }) => {
    await openReady(page)
    const dash = dashboard(page)
    await expect(dash.getByText('demo@ferry.test', { exact: true })).toBeVisible()
    await expect(dash.getByText('ferry-demo-password', { exact: true })).toBeVisible()
    await expect(dash.getByRole('button', { name: /Lighthouse Admin.*private/ })).toBeVisible()
    await expect(versionCard(page, '1.1.0').getByText('intermediate', { exact: true })).toBeVisible()
    await expect(versionCard(page, '1.2.0').getByText('critical', { exact: true })).toBeVisible()
    await expect(versionCard(page, '1.3.0').getByText('draft', { exact: true })).toBeVisible()
    await expect(versionCard(page, '1.3.0-beta.1', 'beta, windows/x64').getByText('ramping 50 %')).toBeVisible()
    await expect(
      (await filesOf(versionCard(page, '1.2.0', 'stable, darwin/universal'))).getByRole('button', {
        name: 'Download HarborNotes-1.2.0-universal.dmg',
      }),
    ).toBeVisible()
  })

  test('the sandbox runs in a Web Worker, not on the page', async ({ page }) => {
    await openReady(page)
    const workers = page.workers()
    expect(workers.map((w) => new URL(w.url()).pathname)).toEqual([
      expect.stringMatching(/\/ferry-sandbox\.[0-9a-f]+\.js$/),
    ])
    // Text that survives minification: an error message of sql.js (the database engine) and the
    // demo seed's signature files. If either changes, the worker check below says so.
    const markers = ['Database closed', 'untrusted comment: demo signature of']
    const holding = async (scripts: string[]) => {
      const texts = await Promise.all(scripts.map(async (src) => (await page.request.get(src)).text()))
      return markers.filter((marker) => texts.some((text) => text.includes(marker)))
    }
    const worker = workers[0]!
    const workerScripts = [
      worker.url(),
      ...(await worker.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => e.name)
          .filter((n) => n.endsWith('.js')),
      )),
    ]
    expect(await holding(workerScripts), 'the worker loads sql.js and the seed').toEqual(markers)
    // What the page runs or prefetches. Its resource timing also lists the worker's own script,
    // with initiator "other", which is why the initiators are picked.
    const pageScripts = await page.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((e) => (e.initiatorType === 'script' || e.initiatorType === 'link') && e.name.endsWith('.js'))
        .map((e) => e.name),
    )
    expect(pageScripts).toContainEqual(expect.stringMatching(/\/pages\/demo-[0-9a-f]+\.js$/))
    expect(await holding(pageScripts), 'scripts the page loads').toEqual([])
  })

  test('upload a version from disk, publish it, and the simulator offers it', async ({ page }) => {
    await openReady(page)
    await uploadDraft(page, '1.4.0', 'HarborNotes-Setup-1.4.0.exe')
    const card = versionCard(page, '1.4.0')
    await expect(card.getByText('draft', { exact: true })).toBeVisible()
    await expect(
      (await filesOf(card)).getByRole('button', { name: 'Download HarborNotes-Setup-1.4.0.exe' }),
    ).toBeVisible()

    // A draft is never offered: 1.2.0 is the newest a client may receive.
    let answer = await simulate(page, { app: 'harbor-notes', version: '1.2.0' })
    await expect(answer).toContainText('Up to date: no update is offered.')
    await expect(answer).toContainText('HTTP 204')

    await card.getByRole('button', { name: 'Publish 1.4.0 (stable, windows/x64)' }).click()
    await expect(card.getByText('published', { exact: true })).toBeVisible()
    answer = await simulate(page, { version: '1.2.0' })
    await expect(answer).toContainText('Offers version 1.4.0 with 1 file(s).')
    await expect(answer).toContainText('"fileName": "HarborNotes-Setup-1.4.0.exe"')

    // Critical and intermediate flags reach the client, and unpublishing withdraws the offer.
    await menuAction(card, 'Mark critical 1.4.0 (stable, windows/x64)')
    await expect(card.getByText('critical', { exact: true })).toBeVisible()
    answer = await simulate(page, { version: '1.2.0' })
    await expect(answer).toContainText('Offers version 1.4.0 (critical: install without asking)')
    // The newest published release: unpublishing it asks for the version typed.
    await menuAction(card, 'Unpublish 1.4.0 (stable, windows/x64)')
    const confirm = page.getByRole('dialog', { name: 'Unpublish 1.4.0 (stable, windows/x64)?' })
    await expect(confirm.getByRole('button', { name: 'Unpublish version' })).toBeDisabled()
    await confirm.getByLabel('Type 1.4.0 to confirm').fill('1.4.0')
    await confirm.getByRole('button', { name: 'Unpublish version' }).click()
    await expect(card.getByText('draft', { exact: true })).toBeVisible()
    answer = await simulate(page, { version: '1.2.0' })
    await expect(answer).toContainText('HTTP 204')
  })

  test('the seed shows a ramp in progress and a version its health reports paused; resume and explain', async ({
    page,
  }) => {
    await openReady(page)
    const ramped = versionCard(page, '1.2.1')
    await expect(ramped.getByText('ramping 5 %')).toBeVisible()
    await expect(ramped).toContainText(/Ramp 5 % → 25 % → 50 % → 100 %: step 1 of 4 \(5 %\), next step/)

    const sim = page.locator('section.ferry-sim')
    await sim.getByLabel('Device id (optional, for rollouts)').fill('e2e-ramp-device')
    const answer = await simulate(page, { app: 'harbor-notes', version: '1.2.0' })
    await expect(answer.getByRole('heading', { name: 'Why' })).toBeVisible()
    const row = answer.getByRole('row').filter({ has: page.getByRole('cell', { name: '1.2.1', exact: true }) })
    await expect(row).toHaveCount(1)
    await expect(row).toContainText(/offered|rollout/)

    await dashboard(page)
      .getByRole('button', { name: /Tidewatch/ })
      .click()
    const paused = versionCard(page, '1.1.0', 'stable, darwin/arm64')
    await expect(paused.getByText('paused by health', { exact: true })).toBeVisible()
    await expect(paused).toContainText('Paused by its health reports')
    await paused.getByRole('button', { name: 'Resume 1.1.0 (stable, darwin/arm64)' }).click()
    await expect(dashboard(page).getByText('Resumed 1.1.0 (stable, darwin/arm64).')).toBeVisible()
    await expect(paused.getByText('paused by health', { exact: true })).toHaveCount(0)
  })

  test('the simulator follows intermediate versions and shows the latest-build redirect', async ({ page }) => {
    await openReady(page)
    let answer = await simulate(page, { app: 'harbor-notes', version: '1.0.0' })
    await expect(answer).toContainText('Offers version 1.1.0 (intermediate: required before later versions)')
    await menuAction(versionCard(page, '1.1.0'), 'Unmark intermediate 1.1.0 (stable, windows/x64)')
    await expect(dashboard(page).getByText('Unmarked 1.1.0 (stable, windows/x64) as intermediate.')).toBeVisible()
    answer = await simulate(page, { version: '1.0.0' })
    await expect(answer).toContainText('Offers version 1.2.0 (critical: install without asking)')

    answer = await simulate(page, {
      format: 'Latest-build link (302 redirect)',
      platform: 'darwin',
      arch: 'universal',
      packageType: 'dmg',
    })
    await expect(answer).toContainText('HTTP 302')
    await expect(answer).toContainText(
      /location: https:\/\/sandbox\.ferry\.test\/v1\/apps\/harbor-notes\/versions\/\w+\/artifacts\/\w+\/download/,
    )

    answer = await simulate(page, { packageType: 'rpm' })
    await expect(answer.getByRole('alert')).toContainText('404')
    await expect(answer.getByText('application/problem+json', { exact: true })).toBeVisible()
  })

  test('the simulator speaks every updater protocol from the same decision', async ({ page }) => {
    await openReady(page)
    let answer = await simulate(page, {
      app: 'harbor-notes',
      format: 'Squirrel.Windows RELEASES',
      version: '1.0.0',
      arch: 'x64',
    })
    await expect(answer).toContainText('HTTP 200')
    await expect(answer).toContainText(/[0-9A-F]{40} harbor-notes-1\.1\.0-full\.nupkg \d+/)
    await expect(answer).toContainText('Squirrel applies packages up to harbor-notes-1.1.0-full.nupkg')

    answer = await simulate(page, {
      format: "Squirrel.Mac (Electron's autoUpdater on macOS)",
      version: '1.0.0',
      arch: 'universal',
    })
    await expect(answer).toContainText(
      /"url": "https:\/\/sandbox\.ferry\.test\/v1\/apps\/harbor-notes\/versions\/\w+\/artifacts\/\w+\/download"/,
    )
    await expect(answer).toContainText('"name": "1.2.0"')
    answer = await simulate(page, { version: '1.2.0' })
    await expect(answer).toContainText('HTTP 204')

    answer = await simulate(page, {
      format: 'electron-updater (generic provider, latest.yml)',
      version: '1.0.0',
      platform: 'linux',
      arch: 'x64',
    })
    await expect(answer).toContainText(
      'GET /v1/apps/harbor-notes/electron-updater/stable/linux/x64/1.0.0/latest-linux.yml',
    )
    await expect(answer).toContainText(/sha512: '[A-Za-z0-9+/]+={0,2}'/)
    await expect(answer).toContainText('electron-updater reads version 1.2.0')

    answer = await simulate(page, {
      app: 'tidewatch',
      format: 'Tauri v2 updater',
      version: '0.9.0',
      platform: 'darwin',
      arch: 'arm64',
    })
    await expect(answer).toContainText('GET /v1/apps/tidewatch/tauri/stable/darwin/aarch64/0.9.0')
    await expect(answer).toContainText('"version": "1.0.0"')
    await expect(answer).toContainText('"signature": ')
  })

  test('telemetry charts the seeded checks, and a simulated check with a device id is counted', async ({ page }) => {
    await openReady(page)
    const telemetry = page.locator('section.ferry-telemetry')
    const caption = telemetry.locator('figcaption')
    await expect(caption).toHaveText(/^On \d{4}-\d{2}-\d{2}, 12 device\(s\) checked for updates: 12 on 1\.2\.0\.$/)
    await expect(telemetry.locator('svg rect')).not.toHaveCount(0)
    await telemetry.getByText('The numbers').click()
    await expect(telemetry.getByRole('row')).toHaveCount(15)

    const sim = page.locator('section.ferry-sim')
    await sim.getByLabel('Device id (optional, for rollouts)').fill('e2e-device-1')
    const answer = await simulate(page, { app: 'harbor-notes', version: '1.0.0' })
    await expect(answer).toContainText('Offers version 1.1.0')
    await telemetry.getByRole('button', { name: 'Refresh telemetry' }).click()
    await expect(caption).toHaveText(/13 device\(s\) checked for updates: 1 on 1\.0\.0, 12 on 1\.2\.0\.$/)
  })

  test('create and delete an app; a rejected request shows its problem document', async ({ page }) => {
    await openReady(page)
    const form = dashboard(page).locator('form', { has: page.getByRole('heading', { name: 'Create an app' }) })
    await form.getByLabel('Slug').fill('Bad Slug!')
    await form.getByLabel('Name').fill('Bad')
    await form.getByRole('button', { name: 'Create app' }).click()
    const problem = dashboard(page).getByRole('alert')
    await expect(problem).toContainText('400')
    await expect(problem).toContainText('slug')

    await form.getByLabel('Slug').fill('tide-clock')
    await form.getByLabel('Name').fill('Tide Clock')
    await form.getByRole('checkbox', { name: /^Private/ }).check()
    await form.getByRole('button', { name: 'Create app' }).click()
    await expect(dashboard(page).getByRole('button', { name: /Tide Clock.*tide-clock.*private/ })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
    await expect(dashboard(page).getByText('No versions yet')).toBeVisible()
    await dashboard(page).getByRole('button', { name: 'Delete app tide-clock' }).click()
    await expect(dashboard(page).getByRole('button', { name: /Tide Clock/ })).toHaveCount(0)
  })

  test('an API token for CI: created for the selected app, its secret shown once, listed without it, revoked', async ({
    page,
  }) => {
    await openReady(page)
    const panel = dashboard(page).getByRole('region', { name: 'API tokens' })
    await expect(panel.getByText('No tokens yet.')).toBeVisible()
    const form = panel.locator('form', { has: page.getByRole('heading', { name: /Create a token for harbor-notes/ }) })
    await form.getByLabel('Name').fill('github-release')
    await form.getByRole('radio', { name: /Upload, edit and download/ }).check()
    await form.getByRole('button', { name: 'Create token' }).click()
    const secret = panel.getByRole('status')
    await expect(secret).toContainText('copy it now, it is not shown again')
    await expect(secret.locator('code')).toHaveText(/^ferry_[A-Za-z0-9]{32}$/)
    const row = panel.getByRole('row', { name: /github-release/ })
    await expect(row).toContainText('never')
    await expect(panel.getByRole('table')).not.toContainText('ferry_')
    await row.getByRole('button', { name: 'Revoke github-release' }).click()
    await expect(panel.getByText('No tokens yet.')).toBeVisible()
  })

  test('changes survive a reload; Reset returns to the seed', async ({ page }) => {
    await openReady(page)
    await uploadDraft(page, '2.0.0', 'HarborNotes-Setup-2.0.0.exe')
    await expect(dashboard(page).getByText('All changes saved in this browser.')).toBeVisible()
    await page.reload()
    await expect(dashboard(page).getByText('Sandbox ready: restored from this browser.')).toBeVisible({
      timeout: 30_000,
    })
    await expect(
      (await filesOf(versionCard(page, '2.0.0'))).getByRole('button', { name: 'Download HarborNotes-Setup-2.0.0.exe' }),
    ).toBeVisible()

    await dashboard(page).getByRole('button', { name: 'Reset sandbox' }).click()
    await expect(dashboard(page).getByText('Sandbox reset to the demo data.')).toBeVisible()
    await expect(versionCard(page, '2.0.0')).toHaveCount(0)
    await expect(versionCard(page, '1.3.0')).toBeVisible()
    await page.reload()
    await expect(dashboard(page).getByText('Sandbox ready with the demo data.')).toBeVisible({ timeout: 30_000 })
    await expect(versionCard(page, '1.3.0')).toBeVisible()
    await expect(versionCard(page, '2.0.0')).toHaveCount(0)
  })

  test('a sandbox that cannot start says so and retries', async ({ page }) => {
    watched.get(page)?.allowErrors.push(/Failed to load resource/)
    await page.route('**/*.wasm', (route) => route.fulfill({ status: 503, body: 'unavailable' }))
    await page.goto('/demo')
    const alert = dashboard(page).getByRole('alert')
    await expect(alert).toContainText('The sandbox could not start.', { timeout: 30_000 })
    await expect(alert).toContainText('HTTP 503')
    await page.unroute('**/*.wasm')
    await alert.getByRole('button', { name: 'Retry' }).click()
    await expect(dashboard(page).getByText('Sandbox ready with the demo data.')).toBeVisible({ timeout: 30_000 })
    await expect(dashboard(page).getByRole('button', { name: /Harbor Notes/ })).toBeVisible()
  })

  test('stacks into one column at 996 px without horizontal scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 996, height: 900 })
    await openReady(page)
    const apps = await dashboard(page).locator('.ferry-dash-apps').boundingBox()
    const main = await dashboard(page).locator('.ferry-dash-main').boundingBox()
    expect(main && apps && main.y >= apps.y + apps.height).toBe(true)
    await openReference(page)
    await expect(page.locator('#operations-info-getHealth')).toBeVisible({ timeout: 30_000 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(996)
  })
})

/** Scrolls to the interactive reference, which loads only when its section nears the viewport. */
async function openReference(page: Page) {
  await page.locator('#api-console-title').scrollIntoViewIfNeeded()
}

/** Expands an operation of the reference, fills it and executes it; returns its live response. */
async function tryItOut(page: Page, id: string, fill?: (op: Locator) => Promise<void>) {
  await openReference(page)
  const op = page.locator(`#${id}`)
  await expect(op).toBeVisible({ timeout: 30_000 })
  if (!(await op.locator('.opblock-body').isVisible())) await op.locator('.opblock-summary-control').click()
  await op.getByRole('button', { name: 'Try it out' }).click()
  if (fill) await fill(op)
  await op.getByRole('button', { name: 'Execute' }).click()
  const live = op.locator('.live-responses-table .response').first()
  await expect(live).toBeVisible({ timeout: 20_000 })
  return { op, live, status: live.locator('.response-col_status') }
}

const param = (op: Locator, name: string) => op.locator(`tr[data-param-name="${name}"] :is(input, select)`).first()

async function fillBody(op: Locator, body: unknown) {
  const text = op.locator('textarea.body-param__text')
  await text.fill(JSON.stringify(body))
}

/** The GET operations of the published contract, by the ids swagger-ui gives their blocks. */
const contract = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'public', 'openapi.json'), 'utf8')) as {
  paths: Record<string, { get?: { operationId: string; tags: string[] } }>
}
const getOperations = Object.values(contract.paths).flatMap((item) =>
  item.get
    ? [{ operationId: item.get.operationId, block: `operations-${item.get.tags[0]}-${item.get.operationId}` }]
    : [],
)

test.describe('Interactive reference on the sandbox', () => {
  /** /demo, ready, with the reference far below the viewport and still not loaded once the page is idle. */
  async function openUnloadedReference(page: Page) {
    await page.goto('/demo')
    await expect(dashboard(page).getByText('Sandbox ready with the demo data.')).toBeVisible({ timeout: 30_000 })
    await page.waitForLoadState('networkidle')
    const reference = page.locator('.ferry-demo-console')
    await expect(reference.getByRole('button', { name: 'Load it now' })).toBeVisible()
    await expect(page.locator('.swagger-ui')).toHaveCount(0)
    return {
      loadNow: reference.getByRole('button', { name: 'Load it now' }),
      heading: reference.getByRole('heading', { name: 'Interactive reference' }),
    }
  }

  test('loads only when scrolled to, or at once with "Load it now"', async ({ page }) => {
    const { loadNow, heading } = await openUnloadedReference(page)
    // Pressed where it is, without scrolling it into view (a click would scroll, and coming near
    // loads the reference by itself, replacing the button under the pointer).
    const scrollY = await page.evaluate(() => window.scrollY)
    await loadNow.evaluate((button) => button.focus({ preventScroll: true }))
    await page.keyboard.press('Enter')
    await expect(page.locator('#operations-info-getHealth')).toBeVisible({ timeout: 30_000 })
    expect(await page.evaluate(() => window.scrollY), 'the button loaded it, not scrolling').toBe(scrollY)
    await expect(heading).toBeFocused()
  })

  test('tabbing to "Load it now" loads the reference and keeps focus in its section', async ({ page }) => {
    const { loadNow, heading } = await openUnloadedReference(page)
    // Focus what comes just before the button, without scrolling, then Tab as a keyboard user would:
    // the browser scrolls the button into view, which loads the reference and removes the button.
    await loadNow.evaluate((button) => {
      const focusable = [
        ...document.querySelectorAll<HTMLElement>(
          'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, summary',
        ),
      ]
      const before = focusable.filter(
        (el) => el.getClientRects().length > 0 && el.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING,
      )
      before[before.length - 1]!.focus({ preventScroll: true })
    })
    await page.keyboard.press('Tab')
    await expect(page.locator('#operations-info-getHealth')).toBeVisible({ timeout: 30_000 })
    await expect(heading).toBeFocused()
  })

  test('offers the sandbox and a user-entered server', async ({ page }) => {
    await page.goto('/demo')
    await openReference(page)
    const servers = page.getByLabel('Server', { exact: true })
    await expect(servers).toBeVisible({ timeout: 30_000 })
    await expect(servers.locator('option')).toHaveText([/^https:\/\/sandbox\.ferry\.test/, /^\{scheme\}:\/\/\{host\}/])
  })

  test('health and login: the prefilled login answers 200 and authorises every operation', async ({ page }) => {
    await page.goto('/demo')
    const health = await tryItOut(page, 'operations-info-getHealth')
    await expect(health.status).toHaveText('200')
    await expect(health.live).toContainText('"status": "ok"')
    await expect(health.op.locator('.request-url')).toContainText('https://sandbox.ferry.test/v1/health')

    // The prefilled body is the sandbox's own demo login.
    const login = await tryItOut(page, 'operations-auth-login')
    await expect(login.status).toHaveText('200')
    await expect(login.live).toContainText('"role": "admin"')

    const whoami = await tryItOut(page, 'operations-info-whoami')
    await expect(whoami.status).toHaveText('200')
    await expect(whoami.live).toContainText('demo@ferry.test')
  })

  test('create an app, upload a version (multipart), check for updates and follow the latest-build redirect', async ({
    page,
  }) => {
    // Six operations, each sent through the reference's form.
    test.setTimeout(150_000)
    await page.goto('/demo')
    await tryItOut(page, 'operations-auth-login', (op) =>
      fillBody(op, { email: 'demo@ferry.test', password: 'ferry-demo-password' }),
    )

    const create = await tryItOut(page, 'operations-apps-createApp', (op) =>
      fillBody(op, { slug: 'tide-clock', name: 'Tide Clock', description: 'Tides on your desktop.', private: false }),
    )
    await expect(create.status).toHaveText('201')
    await expect(create.live).toContainText('"slug": "tide-clock"')

    const upload = await tryItOut(page, 'operations-apps-uploadVersion', async (op) => {
      await param(op, 'app').fill('tide-clock')
      const field = (name: RegExp) => op.getByRole('row').filter({ has: page.getByRole('cell', { name }) })
      await field(/^version \*required/)
        .getByRole('textbox')
        .fill('3.1.0')
      await field(/^channel \*required/)
        .getByRole('textbox')
        .fill('stable')
      await field(/^platform \*required/)
        .getByRole('textbox')
        .fill('darwin')
      await field(/^arch \*required/)
        .getByRole('textbox')
        .fill('arm64')
      await field(/^published boolean/)
        .getByRole('combobox')
        .selectOption('true')
      await field(/^files \*required/)
        .locator('input[type=file]')
        .setInputFiles({
          name: 'TideClock-3.1.0-arm64.dmg',
          mimeType: 'application/octet-stream',
          buffer: Buffer.from('tide clock dmg'),
        })
    })
    await expect(upload.status).toHaveText('201')
    await expect(upload.live).toContainText('"fileName": "TideClock-3.1.0-arm64.dmg"')

    const check = await tryItOut(page, 'operations-info-checkForUpdate', async (op) => {
      await param(op, 'app').fill('tide-clock')
      await param(op, 'version').fill('3.0.0')
      // Optional parameters start empty: without a format, darwin's default (Squirrel.Mac) would answer.
      await param(op, 'channel').fill('stable')
      await param(op, 'platform').fill('darwin')
      await param(op, 'arch').fill('arm64')
      await param(op, 'format').selectOption('ferry')
    })
    await expect(check.status).toHaveText('200')
    await expect(check.live).toContainText('"version": "3.1.0"')

    const latest = await tryItOut(page, 'operations-info-getLatestBuild', async (op) => {
      await param(op, 'app').fill('tide-clock')
      await param(op, 'packageType').selectOption('dmg')
      await param(op, 'platform').fill('darwin')
      await param(op, 'arch').fill('arm64')
    })
    await expect(latest.status).toHaveText('302')
    await expect(latest.live).toContainText(
      /location: https:\/\/sandbox\.ferry\.test\/v1\/apps\/tide-clock\/versions\/\w+\/artifacts\/\w+\/download/,
    )

    // The dashboard shows what the reference created: both talk to the same sandbox.
    await expect(dashboard(page).getByRole('button', { name: /Tide Clock/ })).toBeVisible()
  })

  test('a denied request shows its problem+json', async ({ page }) => {
    await page.goto('/demo')
    await openReference(page)
    // The reference starts signed in as the demo admin: log out to be denied.
    await page.locator('.swagger-ui .btn.authorize').click()
    const dialog = page.locator('.swagger-ui .modal-ux')
    await expect(dialog.getByRole('heading', { name: 'Authorized' })).toBeVisible()
    await dialog.getByRole('button', { name: 'Remove authorization' }).click()
    await dialog.getByRole('button', { name: 'Close' }).first().click()
    const denied = await tryItOut(page, 'operations-apps-createApp', (op) =>
      fillBody(op, { slug: 'no-token', name: 'No token' }),
    )
    await expect(denied.status).toHaveText('401')
    await expect(denied.live).toContainText('application/problem+json')
    await expect(denied.live).toContainText('"status": 401')
  })

  test('every GET operation answers 2xx or 3xx with its defaults, without logging in first', async ({ page }) => {
    test.setTimeout(540_000)
    expect(getOperations.length, 'GET operations in the contract').toBeGreaterThan(30)
    await page.goto('/demo')
    const failures: string[] = []
    for (const { operationId, block } of getOperations) {
      const { op, live, status } = await tryItOut(page, block)
      const code = (await status.textContent())?.trim() ?? ''
      // An example that needs a record the demo data lacks answers 404, and the operation says so.
      const missing = NOT_IN_SEED[operationId]
      const ok = missing
        ? code === '404' && (await op.getByText(`the demo data holds no ${missing}`).isVisible())
        : /^[23]\d\d$/.test(code)
      if (!ok) failures.push(`${operationId}: ${code} ${((await live.textContent()) ?? '').slice(0, 200)}`)
      // Collapsed again, so the next operation's block stays near the top.
      await op.locator('.opblock-summary-control').click()
    }
    expect(failures, 'operations whose defaults failed').toEqual([])
  })

  test('a user-entered server gets real network requests', async ({ page, baseURL }) => {
    const site = new URL(baseURL ?? '')
    watched.get(page)?.allowErrors.push(/status of 404/)
    await page.goto('/demo')
    await openReference(page)
    const servers = page.getByLabel('Server', { exact: true })
    await expect(servers).toBeVisible({ timeout: 30_000 })
    await servers.selectOption({ index: 1 })
    await page.getByLabel('Server variable scheme').selectOption('http')
    await page.getByLabel('Server variable host').fill(site.host)
    const sent = page.waitForRequest((req) => req.url() === `${site.origin}/v1/health`)
    const health = await tryItOut(page, 'operations-info-getHealth')
    await sent
    // The static site has no API: its 404 page answers, proving the request left the sandbox.
    await expect(health.status).toHaveText(/^404\b/)
  })
})
