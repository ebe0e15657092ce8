/**
 * The theme's interactive widgets run on components/headless (small stand-ins for Headless UI):
 * the navbar search combobox and the code-sample tabs, by keyboard as a screen-reader or
 * keyboard user drives them, and axe on the open search list.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'

test.use({ viewport: { width: 1280, height: 900 } })

/** The first results wait on the search index: one JSON file fetched and indexed on first focus. */
const INDEX_LOADED = { timeout: 30_000 }
const byId = (id: string | null) => `[id="${id ?? ''}"]`

test.describe('navbar search', () => {
  test('typing lists results; arrows move the active one; Enter opens it; Escape closes', async ({ page }) => {
    await page.goto('/docs/intro')
    const input = page.getByRole('combobox', { name: 'Search docs and blog…' })
    await expect(input).toHaveAttribute('aria-expanded', 'false')
    await input.focus()
    await input.pressSequentially('intermediate')
    const list = page.getByRole('listbox', { name: 'Search docs and blog…' })
    await expect(list.getByRole('option').first()).toBeVisible(INDEX_LOADED)
    await expect(input).toHaveAttribute('aria-expanded', 'true')
    await expect(input).toHaveAttribute('aria-controls', (await list.getAttribute('id')) ?? '')

    const options = list.getByRole('option')
    const first = (await options.nth(0).getAttribute('id')) ?? ''
    await expect(input).toHaveAttribute('aria-activedescendant', first)
    await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true')
    if ((await options.count()) > 1) {
      await input.press('ArrowDown')
      await expect(input).toHaveAttribute('aria-activedescendant', (await options.nth(1).getAttribute('id')) ?? '')
      await input.press('ArrowUp')
      await expect(input).toHaveAttribute('aria-activedescendant', first)
    }

    await input.press('Escape')
    await expect(list).toHaveCount(0)
    await expect(input).toHaveAttribute('aria-expanded', 'false')
    await expect(input).toBeFocused()

    await input.press('ArrowDown')
    await expect(list.getByRole('option').first()).toBeVisible()
    const target = (await list.getByRole('option').first().getAttribute('href')) ?? ''
    expect(target).toMatch(/^\/(docs|blog)\//)
    await input.press('Enter')
    await expect(page).toHaveURL(new RegExp(`${target.replace(/[.?*+^$()[\]{}|\\]/g, '\\$&')}$`))
    await expect(input).toHaveValue('')
  })

  test('a click on a result opens it; leaving the box closes the list', async ({ page }) => {
    await page.goto('/docs/intro')
    const input = page.getByRole('combobox', { name: 'Search docs and blog…' })
    await input.click()
    await input.pressSequentially('rollout')
    const list = page.getByRole('listbox', { name: 'Search docs and blog…' })
    await expect(list.getByRole('option').first()).toBeVisible(INDEX_LOADED)
    await page.keyboard.press('Tab')
    await expect(list).toHaveCount(0)

    await input.click()
    await input.press('End')
    await input.pressSequentially('s')
    const option = list.getByRole('option').first()
    await expect(option).toBeVisible()
    const target = new URL((await option.getAttribute('href')) ?? '', page.url())
    await option.click()
    await expect(page).toHaveURL((url) => url.pathname === target.pathname)
    await expect(list).toHaveCount(0)
  })

  test('the open list has no serious or critical axe violation', async ({ page }) => {
    await page.goto('/docs/intro')
    const input = page.getByRole('combobox', { name: 'Search docs and blog…' })
    await input.focus()
    await input.pressSequentially('channel')
    await expect(page.getByRole('listbox').getByRole('option').first()).toBeVisible(INDEX_LOADED)
    const results = await new AxeBuilder({ page }).analyze()
    const bad = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
    expect(bad, bad.join('\n')).toEqual([])
  })
})

test('code-sample tabs: arrows, Home and End move and select; the panel follows', async ({ page }) => {
  await page.goto('/docs/api/apps/create')
  const tabs = page.getByRole('tablist').first()
  const curl = tabs.getByRole('tab', { name: 'curl' })
  await expect(curl).toHaveAttribute('aria-selected', 'true')
  await curl.focus()
  await page.keyboard.press('ArrowRight')
  const js = tabs.getByRole('tab', { name: 'JavaScript' })
  await expect(js).toBeFocused()
  await expect(js).toHaveAttribute('aria-selected', 'true')
  await expect(curl).toHaveAttribute('tabindex', '-1')
  const panel = page.locator(byId(await js.getAttribute('aria-controls')))
  await expect(panel).toBeVisible()
  await expect(panel).toHaveAttribute('aria-labelledby', (await js.getAttribute('id')) ?? '')
  await expect(panel).toContainText('fetch(')
  await page.keyboard.press('End')
  await expect(tabs.getByRole('tab').last()).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('ArrowRight')
  await expect(curl).toHaveAttribute('aria-selected', 'true')
  await expect(curl).toBeFocused()
})
