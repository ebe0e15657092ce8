import { expect, test } from '@playwright/test'

test.describe('API changelog', () => {
  test('lists a real change since 0.1 whose link opens its operation page', async ({ page }) => {
    await page.goto('/docs/api/changelog')
    await expect(page.getByRole('heading', { level: 1, name: 'API changelog' })).toBeVisible()
    await expect(page.getByRole('heading', { level: 2, name: 'Unreleased' })).toBeVisible()
    await expect(page.getByRole('heading', { level: 2, name: 'Version 0.1' })).toBeVisible()
    const pause = page
      .locator('a[href="/docs/api/apps/pause-version"]', { hasText: 'POST /v1/apps/{app}/versions/{version}/pause' })
      .first()
    await expect(pause).toContainText('POST /v1/apps/{app}/versions/{version}/pause')
    await pause.click()
    await expect(page).toHaveURL(/\/docs\/api\/apps\/pause-version\/?$/)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  })

  test('links its Atom feed in the head and on the page, and the feed has an entry per release', async ({
    page,
    request,
  }) => {
    await page.goto('/docs/api/changelog')
    await expect(
      page.locator('head link[rel="alternate"][type="application/atom+xml"][href="/docs/api/changelog.xml"]'),
    ).toHaveCount(1)
    await expect(page.getByRole('link', { name: 'Atom feed of the API changelog' })).toHaveAttribute(
      'href',
      '/docs/api/changelog.xml',
    )
    const feed = await request.get('/docs/api/changelog.xml')
    expect(feed.status()).toBe(200)
    const xml = await feed.text()
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom">')
    expect(xml.match(/<entry>/g)?.length).toBe(2)
    expect(xml).toContain('/docs/api/changelog#version-01')
  })

  test('is in the API sidebar', async ({ page }) => {
    await page.goto('/docs/api')
    await expect(page.locator('aside a[href="/docs/api/changelog"]').first()).toBeAttached()
  })
})
