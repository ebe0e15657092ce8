import { expect, test } from '@playwright/test'

test('home page renders with the site title', async ({ page }) => {
  await page.goto('/')
  await expect(page).toHaveTitle(/Ferry/)
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
})
