/**
 * Try it's request in the URL: edited, it is in the address bar (never a token), a fresh browser
 * opening that address gets the same request back, the page's samples show it as edited, and an
 * answer that differs from the contract names each problem's path and offers a prefilled issue.
 */
import { expect, test, type Page } from '@playwright/test'
import { siteConfig } from '../site.config'

const panel = (page: Page) => page.locator('.ferry-try-it')
const body = (page: Page) => panel(page).getByRole('textbox', { name: /^Body/ })

async function open(page: Page) {
  await page.getByRole('button', { name: 'Try it', exact: true }).click()
  await expect(panel(page).getByRole('button', { name: 'Send request' })).toBeEnabled({ timeout: 30_000 })
}

test('an edited request lives in the URL, without credentials, and a fresh browser restores it', async ({
  page,
  browser,
}) => {
  await page.goto('/docs/api/apps/create')
  await open(page)
  await expect(panel(page).getByText('Authorized as demo@ferry.test')).toBeVisible({ timeout: 30_000 })
  const edited = JSON.stringify({ slug: 'shared-by-link', name: 'Shared By Link' }, null, 2)
  await body(page).fill(edited)
  await expect(page).toHaveURL(/[?&]try=/)
  const shared = page.url()
  expect(JSON.parse(new URL(shared).searchParams.get('try')!)).toEqual({
    operation: 'createApp',
    target: 'sandbox',
    body: edited,
  })
  const held = await page.evaluate(() => sessionStorage.getItem('ferry-try-it') ?? '')
  const token = /"token":"([^"]+)"/.exec(held)?.[1]
  expect(token, 'the tab holds a sandbox token').toBeTruthy()
  expect(decodeURIComponent(shared)).not.toContain(token!)

  // The samples column shows the request as edited, in every language.
  const samples = page.locator('[data-ferry-tabs][data-storage-key="ferry-sample-language"]')
  await expect(samples.locator('[role="tabpanel"]:not([hidden]) pre')).toContainText('shared-by-link')
  await samples.getByRole('tab', { name: 'Python' }).click()
  await expect(samples.locator('[role="tabpanel"]:not([hidden]) pre')).toContainText('shared-by-link')
  await expect(samples.locator('[role="tabpanel"]:not([hidden]) pre')).toContainText('<token>')

  const fresh = await browser.newContext()
  try {
    const other = await fresh.newPage()
    await other.goto(shared)
    await expect(body(other)).toHaveValue(edited, { timeout: 30_000 })
    await expect(other.getByRole('button', { name: 'Try it', exact: true })).toHaveAttribute('aria-expanded', 'true')
  } finally {
    await fresh.close()
  }
})

test('the server choice and parameters are restored; a contract mismatch names each path and links a prefilled issue', async ({
  page,
  browser,
  context,
}) => {
  const server = 'http://127.0.0.1:9'
  await page.goto('/docs/api/apps/search')
  await open(page)
  await panel(page).getByRole('radio', { name: 'Your server' }).check()
  await panel(page).getByRole('textbox', { name: 'Server URL' }).fill(server)
  const app = panel(page).getByRole('textbox', { name: /^app\b/ })
  await app.fill('shared-app')
  await expect(page).toHaveURL(/shared-app/)
  const shared = page.url()
  expect(JSON.parse(new URL(shared).searchParams.get('try')!)).toMatchObject({
    target: 'server',
    server,
    params: { 'path:app': 'shared-app' },
  })

  const fresh = await browser.newContext()
  try {
    const other = await fresh.newPage()
    await other.goto(shared)
    await expect(panel(other).getByRole('textbox', { name: /^app\b/ })).toHaveValue('shared-app', { timeout: 30_000 })
    await expect(panel(other).getByRole('radio', { name: 'Your server' })).toBeChecked()
    await expect(panel(other).getByRole('textbox', { name: 'Server URL' })).toHaveValue(server)
  } finally {
    await fresh.close()
  }

  // A server whose answer breaks the contract: each problem is shown with its path, and reported.
  const cors = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type',
    'Access-Control-Allow-Methods': 'GET',
  }
  await context.route(`${server}/**`, (route) =>
    route.request().method() === 'OPTIONS'
      ? route.fulfill({ status: 204, headers: cors })
      : route.fulfill({
          status: 200,
          contentType: 'application/json',
          headers: cors,
          body: JSON.stringify({ items: [{ version: 7 }] }),
        }),
  )
  await panel(page).getByRole('textbox', { name: 'Or paste a token' }).fill('a-token-never-reported')
  await panel(page).getByRole('button', { name: 'Use this token' }).click()
  await panel(page).getByRole('button', { name: 'Send request' }).click()
  const answer = panel(page).locator('.ferry-try-it-answer')
  await expect(answer.getByRole('status')).toContainText('differs from the documented response')
  await expect(answer.locator('.ferry-try-it-errors')).toContainText('/items/0/version')
  const report = answer.getByRole('link', { name: 'Report a contract bug' })
  const url = new URL((await report.getAttribute('href'))!)
  expect(`${url.origin}${url.pathname}`).toBe(siteConfig.newIssue)
  const text = url.searchParams.get('body') ?? ''
  expect(url.searchParams.get('title')).toContain('searchAppVersions')
  expect(text).toContain('/items/0/version')
  expect(text).toContain('GET /v1/apps/{app}/versions')
  expect(text).not.toContain('a-token-never-reported')
})
