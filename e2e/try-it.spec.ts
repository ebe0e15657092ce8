/**
 * Try it on the API reference's operation pages: the panel loads only when opened, a login holds
 * across pages for the tab, requests go to the in-browser sandbox (the one /demo shows) or to a
 * real Ferry server started here, and each answer is checked against the contract.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { freePort, startDocsServer, type DocsServer } from '../lib/docs-runner/server'

const root = join(import.meta.dirname, '..')
const panel = (page: Page) => page.locator('.ferry-try-it')
const answer = (page: Page) => page.locator('.ferry-try-it-answer')

async function open(page: Page) {
  await page.getByRole('button', { name: 'Try it', exact: true }).click()
  await expect(panel(page).getByRole('button', { name: 'Send request' })).toBeVisible({ timeout: 30_000 })
}

test('nothing of Try it loads until it is opened, and it opens and closes', async ({ page }) => {
  const scripts: string[] = []
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()))
  // No prefetching of linked pages (saveData, components/constrained-prefetch): it starts after
  // hydration, which follows the first paint (components/paint-first-scripts), and on a busy machine
  // it can outlast the network's quiet spell. Then, once Next has hydrated the page and the network
  // is quiet, nothing more may load until Try it is opened.
  await page.addInitScript(() =>
    Object.defineProperty(navigator, 'connection', {
      value: { saveData: true, effectiveType: '4g' },
      configurable: true,
    }),
  )
  await page.goto('/docs/api/apps/create')
  await page.waitForFunction(
    () => typeof (window as unknown as { next?: { router?: unknown } }).next?.router === 'object',
  )
  await page.waitForLoadState('networkidle')
  const before = scripts.length
  const button = page.getByRole('button', { name: 'Try it', exact: true })
  await expect(button).toHaveAttribute('aria-expanded', 'false')
  await expect(page.locator('#try-it-createApp')).toBeHidden()
  expect(scripts.length, 'no code was loaded for it while the page was only read').toBe(before)
  await open(page)
  expect(scripts.length).toBeGreaterThan(before)
  await expect(button).toHaveAttribute('aria-expanded', 'true')
  await button.click()
  await expect(page.locator('#try-it-createApp')).toBeHidden()
  await expect(button).toHaveAttribute('aria-expanded', 'false')
})

test('signed in as the demo admin from the start, create an app on one page, list it from another page, and find it in /demo', async ({
  page,
}) => {
  const slug = `tried-${Date.now().toString(36)}`
  await page.goto('/docs/api/apps/create')
  await open(page)
  await expect(panel(page).getByText('Authorized as demo@ferry.test')).toBeVisible({ timeout: 30_000 })
  await panel(page)
    .getByRole('textbox', { name: /^Body/ })
    .fill(JSON.stringify({ slug, name: 'Tried From The Reference' }))
  await panel(page).getByRole('button', { name: 'Send request' }).click()
  await expect(answer(page).getByRole('status')).toHaveText(/^201 Created in \d+ ms · matches the documented response$/)
  await expect(answer(page).locator('.ferry-try-it-body')).toContainText(`"slug": "${slug}"`)

  // Another operation's page, by the sidebar: the login holds.
  await page.locator('aside').getByRole('link', { name: "List the team's apps" }).click()
  await expect(page).toHaveURL(/\/list-apps$/)
  await open(page)
  await expect(panel(page).getByText('Authorized as demo@ferry.test')).toBeVisible()
  await expect(panel(page).getByRole('button', { name: 'Log in' })).toHaveCount(0)
  await panel(page).getByRole('button', { name: 'Send request' }).click()
  await expect(answer(page).getByRole('status')).toHaveText(/^200 OK in \d+ ms · matches the documented response$/)
  await expect(answer(page).locator('.ferry-try-it-body')).toContainText(`"slug": "${slug}"`)

  // The same sandbox is the demo's.
  await page.locator('.nextra-nav-container').getByRole('link', { name: 'Demo Dashboard' }).click()
  await expect(page).toHaveURL(/\/demo$/)
  await expect(page.locator('.ferry-app-list').getByText(slug)).toBeVisible({ timeout: 30_000 })
})

test('a body that is not JSON is named and not sent; an undocumented answer is called out', async ({ page }) => {
  await page.goto('/docs/api/apps/create')
  await open(page)
  await panel(page).getByRole('textbox', { name: /^Body/ }).fill('{"slug": "x",')
  await panel(page).getByRole('button', { name: 'Send request' }).click()
  await expect(panel(page).getByRole('alert')).toContainText('The body is not valid JSON')
  await expect(answer(page)).toHaveCount(0)
  // Logged out of the sandbox, requests go without a token: a 401, a documented problem.
  await panel(page).getByRole('button', { name: 'Log out' }).click()
  await expect(panel(page).getByRole('button', { name: 'Log in' })).toBeVisible()
  await panel(page).getByRole('textbox', { name: /^Body/ }).fill('{"slug": "no-token", "name": "No token"}')
  await panel(page).getByRole('button', { name: 'Send request' }).click()
  await expect(answer(page).getByRole('status')).toHaveText(
    /^401 Unauthorized in \d+ ms · matches the documented response$/,
  )
  await expect(answer(page).locator('.ferry-try-it-body')).toContainText('"status": 401')
})

test.describe('against your own server', () => {
  let server: DocsServer
  let dataDir: string
  let url: string
  const admin = { email: 'admin@example.org', password: 'a-long-enough-password' }

  test.beforeAll(async ({ baseURL }) => {
    dataDir = mkdtempSync(join(tmpdir(), 'ferry-try-it-'))
    const port = await freePort()
    server = await startDocsServer(
      root,
      {
        env: {
          FERRY_DATA_DIR: dataDir,
          FERRY_SIGNUP_KEY: 'try-it-signup-key-0123',
          FERRY_CORS_ORIGINS: new URL(baseURL!).origin,
          FERRY_LOG_LEVEL: 'warn',
        },
      },
      port,
    )
    url = `http://127.0.0.1:${port}`
    const signup = await fetch(`${url}/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ferry-signup-key': 'try-it-signup-key-0123' },
      body: JSON.stringify({ teamName: 'Try It', name: 'Admin', ...admin }),
    })
    expect(signup.status).toBe(201)
  })

  test.afterAll(async () => {
    await server?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  test('logs in and creates an app on a real Ferry server; a server that is down is explained', async ({ page }) => {
    await page.goto('/docs/api/apps/create')
    await open(page)
    await panel(page).getByRole('radio', { name: 'Your server' }).check()
    await panel(page).getByRole('textbox', { name: 'Server URL' }).fill(url)
    await panel(page).getByRole('textbox', { name: 'Email' }).fill(admin.email)
    await panel(page).getByLabel('Password').fill(admin.password)
    await panel(page).getByRole('button', { name: 'Log in' }).click()
    await expect(panel(page).getByText(`Authorized as ${admin.email} on ${url}`)).toBeVisible()
    const sent = page.waitForRequest((r) => r.url() === `${url}/v1/apps` && r.method() === 'POST')
    await panel(page).getByRole('button', { name: 'Send request' }).click()
    expect((await sent).headers().authorization).toMatch(/^Bearer ey/)
    await expect(answer(page).getByRole('status')).toHaveText(
      /^201 Created in \d+ ms · matches the documented response$/,
    )
    const listed = await (
      await fetch(`${url}/v1/apps`, { headers: { authorization: (await sent).headers().authorization! } })
    ).json()
    expect(listed.items.map((app: { slug: string }) => app.slug)).toEqual(['saltmarsh'])

    await server.stop()
    await panel(page).getByRole('button', { name: 'Send request' }).click()
    await expect(panel(page).getByRole('alert')).toContainText(`No answer from ${url}`)
    await expect(panel(page).getByRole('alert')).toContainText(`FERRY_CORS_ORIGINS=`)
  })
})
