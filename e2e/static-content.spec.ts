/**
 * Static content (lib/static-content, components/content): a docs page's content comes as HTML
 * and is never hydrated, yet behaves as the rest of the site: its links navigate on the client,
 * its code blocks copy, its tabs switch and remember, the table of contents follows the reader.
 */
import { expect, test, type Page, type Request } from '@playwright/test'

const scripts = async (page: Page, path: string): Promise<string> => {
  const bodies: Promise<string>[] = []
  const collect = (request: Request) => {
    if (request.resourceType() === 'script') bodies.push(request.response().then((r) => r?.text() ?? ''))
  }
  page.on('request', collect)
  await page.goto(path)
  await page.waitForLoadState('networkidle')
  page.off('request', collect)
  return (await Promise.all(bodies)).join('\n')
}

/** A mark on the window: it survives a client-side navigation, not a page load. */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { __mark: number }).__mark = 1))
const marked = (page: Page) => page.evaluate(() => (window as unknown as { __mark?: number }).__mark === 1)

test('a guide shows its content from HTML: none of its text is in the JavaScript the page loads', async ({ page }) => {
  const js = await scripts(page, '/docs/updaters')
  const paragraph = page.locator('[data-ferry-content] p', { hasText: /electron-updater/ }).first()
  await expect(paragraph).toBeVisible()
  const text = (await paragraph.textContent())!.slice(0, 60)
  expect(js.length).toBeGreaterThan(100_000)
  expect(js.includes(text), `"${text}" is in the page's JavaScript`).toBe(false)
  // The page's own module still carries its table of contents.
  await expect(page.locator('.nextra-toc').getByRole('link').first()).toBeVisible()
})

test('a link in the content navigates on the client, and the new page has its content, title and contents', async ({
  page,
}) => {
  await page.goto('/docs/intro')
  await mark(page)
  await page.locator('[data-ferry-content]').getByRole('link', { name: 'Updaters', exact: true }).first().click()
  await expect(page).toHaveURL(/\/docs\/updaters$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Updaters' })).toBeVisible()
  await expect(page).toHaveTitle(/^Updaters – Ferry/)
  await expect(page.locator('.nextra-toc').getByRole('link', { name: 'Squirrel.Windows', exact: true })).toBeVisible()
  expect(await marked(page), 'the link loaded a new document').toBe(true)
  // Back shows the first page's content again, still without a page load.
  await page.goBack()
  await expect(page.getByRole('heading', { level: 1, name: 'Introduction' })).toBeVisible()
  await expect(page.locator('[data-ferry-content]').getByRole('heading', { name: 'The model' })).toBeVisible()
  expect(await marked(page)).toBe(true)
})

test("hovering a content link fetches that page's content once; clicking it then fetches nothing more", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto('/docs/intro')
  await page.waitForLoadState('networkidle')
  const fetched: string[] = []
  page.on('request', (r) => r.resourceType() === 'fetch' && fetched.push(new URL(r.url()).pathname))
  const link = page.locator('[data-ferry-content]').getByRole('link', { name: 'Telemetry', exact: true }).first()
  const response = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/docs/telemetry' && r.request().resourceType() === 'fetch',
  )
  await link.hover()
  await response
  await link.click()
  await expect(page.getByRole('heading', { level: 1, name: 'Telemetry' })).toBeVisible()
  expect(fetched.filter((p) => p === '/docs/telemetry')).toHaveLength(1)
})

test("when a page's content cannot be fetched, the link loads the page itself", async ({ page }) => {
  await page.goto('/docs/intro')
  await mark(page)
  await page.route('**/docs/telemetry', (route) =>
    route.request().resourceType() === 'fetch' ? route.abort('failed') : route.continue(),
  )
  await page.locator('[data-ferry-content]').getByRole('link', { name: 'Telemetry', exact: true }).first().click()
  await expect(page.getByRole('heading', { level: 1, name: 'Telemetry' })).toBeVisible()
  expect(await marked(page), 'a full page load replaces the window').toBe(false)
})

test('"Copy code" copies the block and shows a check mark for a moment', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  // The check mark's two seconds run on the page's clock, paused here: a slow check cannot miss it.
  await page.clock.install()
  await page.goto('/docs/getting-started')
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 60_000)
  const block = page.locator('[data-ferry-content] div.nextra-code').first()
  await block.hover()
  const button = block.getByRole('button', { name: 'Copy code' })
  await button.click()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await block.locator('pre code').textContent())
  await expect(button.locator('.ferry-copy-done')).toBeVisible()
  await expect(button.locator('.ferry-copy-ready')).toBeHidden()
  await page.clock.runFor(2000)
  await expect(button.locator('.ferry-copy-ready')).toBeVisible()
})

test('the table of contents marks the section being read', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 })
  await page.goto('/docs/updaters')
  const heading = page.locator('[data-ferry-content] h2', { hasText: 'Tauri v2' })
  await heading.evaluate((el) => el.scrollIntoView({ block: 'start' }))
  await expect(page.locator('.nextra-toc a[class~="_text-primary-600"]')).toHaveText('Tauri v2')
})

test.describe('sample tabs', () => {
  const tabs = (page: Page) => page.locator('[data-ferry-tabs]').first().getByRole('tab')
  const selected = (page: Page) => page.locator('[data-ferry-tabs]').first().getByRole('tab', { selected: true })

  test('switch by click and by keyboard, showing one panel at a time', async ({ page }) => {
    await page.goto('/docs/api/apps/create')
    await expect(selected(page)).toHaveText('curl')
    await tabs(page).filter({ hasText: 'Python' }).click()
    await expect(selected(page)).toHaveText('Python')
    const panel = page.locator(`#${await selected(page).getAttribute('aria-controls')}`)
    await expect(panel).toBeVisible()
    await expect(panel).toContainText('import requests')
    await expect(page.locator('[data-ferry-tabs]').first().getByRole('tabpanel')).toHaveCount(1)
    await page.keyboard.press('ArrowRight')
    await expect(selected(page)).toHaveText('Go')
    await expect(selected(page)).toBeFocused()
    await page.keyboard.press('Home')
    await expect(selected(page)).toHaveText('curl')
    await page.keyboard.press('End')
    await expect(selected(page)).not.toHaveText('curl')
  })

  test('remember the language on the next page, by client-side navigation and by a page load', async ({ page }) => {
    await page.goto('/docs/api/apps/create')
    await tabs(page).filter({ hasText: 'Python' }).click()
    await page.locator('aside').getByRole('link', { name: "List the team's apps" }).click()
    await expect(page).toHaveURL(/list-apps$/)
    await expect(selected(page)).toHaveText('Python')
    await page.reload()
    await expect(selected(page)).toHaveText('Python')
  })

  test("show the remembered language before any of the page's JavaScript runs", async ({ page }) => {
    await page.goto('/docs/api/apps/create')
    await page.evaluate(() => localStorage.setItem('ferry-sample-language', 'Go'))
    await page.route('**/*.js', (route) => route.abort())
    await page.goto('/docs/api/apps/get-all')
    await expect(selected(page)).toHaveText('Go')
    await expect(page.locator('[data-ferry-tabs]').first().getByRole('tabpanel')).toContainText('http.NewRequest')
  })
})

test('a table in static content is a tab stop only while it is too wide for the screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 })
  await page.goto('/docs/troubleshooting')
  const tables = page.locator('[data-ferry-content] table')
  const state = () =>
    tables.evaluateAll((all) =>
      all.map((t) => ({ wide: t.scrollWidth > t.clientWidth + 1, stop: t.getAttribute('tabindex') === '0' })),
    )
  await expect.poll(async () => (await state()).every((t) => t.wide === t.stop)).toBe(true)
  const seen = await state()
  expect(
    seen.some((t) => t.wide) && seen.some((t) => !t.wide),
    'the page should have a wide table and one that fits',
  ).toBe(true)
  await page.setViewportSize({ width: 1400, height: 800 })
  await expect.poll(async () => (await state()).every((t) => !t.wide && !t.stop)).toBe(true)
})
