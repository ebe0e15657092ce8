import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { CURRENT, labelOf, versions } from '../lib/docs-versions'

const frozen = versions[0]

const versionButton = (page: Page) => page.getByRole('button', { name: /^Docs version: / })

/** Picks a version in the navbar's menu with the pointer. */
async function pickVersion(page: Page, label: string) {
  await versionButton(page).click()
  await page.getByRole('listbox').getByRole('option', { name: label, exact: true }).click()
}

test.describe('docs versions', () => {
  test('at least one frozen version ships with the site', () => {
    expect(frozen, 'run npm run docs:version <id> to freeze one').toBeDefined()
  })

  test('the switch moves to the same page in another version and the choice persists', async ({ page }) => {
    const id = frozen!.id
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto('/docs/getting-started')
    await expect(versionButton(page)).toHaveAccessibleName(`Docs version: ${labelOf(CURRENT)}`)
    await pickVersion(page, frozen!.label)
    await expect(page).toHaveURL(new RegExp(`/docs/${id.replace('.', '\\.')}/getting-started$`))
    await expect(page.getByRole('note')).toContainText(`docs frozen as version ${id} on ${frozen!.frozen}`)
    expect(await page.evaluate(() => localStorage.getItem('docs-preferred-version'))).toBe(id)
    // The sidebar of a frozen version lists that version's pages only.
    const sidebarLinks = await page
      .locator('aside.nextra-sidebar-container a[href^="/docs/"]')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')!))
    expect(sidebarLinks.length).toBeGreaterThan(3)
    for (const href of sidebarLinks) expect(href.startsWith(`/docs/${id}/`) || href.startsWith('/docs/api')).toBe(true)

    // Docs links elsewhere honour the preference, also after a reload.
    await page.goto('/')
    await page.reload()
    await page.getByRole('link', { name: 'Get started' }).click()
    await expect(page).toHaveURL(new RegExp(`/docs/${id.replace('.', '\\.')}/getting-started$`))
    await page.goto('/blog')
    await page.locator('.nextra-nav-container').getByRole('link', { name: 'Documentation' }).click()
    await expect(page).toHaveURL(new RegExp(`/docs/${id.replace('.', '\\.')}/intro$`))
    await expect(versionButton(page)).toHaveAccessibleName(`Docs version: ${frozen!.label}`)

    // Back to current: the preference follows.
    await pickVersion(page, labelOf(CURRENT))
    await expect(page).toHaveURL(/\/docs\/intro$/)
    await page.goto('/')
    await page.getByRole('link', { name: 'Get started' }).click()
    await expect(page).toHaveURL(/\/docs\/getting-started$/)
  })

  test('the version menu works from the keyboard: open, move, pick, escape', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto('/docs/getting-started')
    const button = versionButton(page)
    await button.focus()
    await page.keyboard.press('Enter')
    const listbox = page.getByRole('listbox', { name: /^Docs version/ })
    await expect(listbox).toBeFocused()
    const current = listbox.getByRole('option', { name: labelOf(CURRENT), exact: true })
    await expect(current).toHaveAttribute('aria-selected', 'true')
    await expect(listbox).toHaveAttribute('aria-activedescendant', (await current.getAttribute('id'))!)
    for (const theme of ['light', 'dark']) {
      await page.evaluate((t) => document.documentElement.classList.toggle('dark', t === 'dark'), theme)
      const { violations } = await new AxeBuilder({ page })
        .include('.ferry-version-switch')
        .include('[role="listbox"]')
        .analyze()
      expect(
        violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
        `axe on the open menu (${theme})`,
      ).toEqual([])
      await page.screenshot({
        path: test.info().outputPath(`version-menu-1280-${theme}.png`),
        clip: { x: 640, y: 0, width: 640, height: 300 },
      })
    }
    // Escape closes it and gives focus back to the button, on the same page.
    await page.keyboard.press('Escape')
    await expect(listbox).toHaveCount(0)
    await expect(button).toBeFocused()
    await expect(page).toHaveURL(/\/docs\/getting-started$/)
    // ArrowDown opens it too; ArrowDown moves to the frozen version, Enter goes there.
    await page.keyboard.press('ArrowDown')
    await expect(listbox).toBeFocused()
    await page.keyboard.press('ArrowDown')
    const target = listbox.getByRole('option', { name: frozen!.label, exact: true })
    await expect(listbox).toHaveAttribute('aria-activedescendant', (await target.getAttribute('id'))!)
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(new RegExp(`/docs/${frozen!.id.replace('.', '\\.')}/getting-started$`))
    await expect(versionButton(page)).toHaveAccessibleName(`Docs version: ${frozen!.label}`)
    await expect(versionButton(page)).toBeFocused()
  })

  test('frozen pages are not in the current docs sidebar', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto('/docs/intro')
    await expect(page.locator(`aside.nextra-sidebar-container a[href^="/docs/${frozen!.id}/"]`)).toHaveCount(0)
  })
})

test('on mobile, the menu shows the docs version being read and not the other one', async ({ page }) => {
  const id = versions[0]!.id
  await page.setViewportSize({ width: 400, height: 800 })
  for (const [path, shown, hidden] of [
    ['/docs/intro', '/docs/getting-started', `/docs/${id}/getting-started`],
    [`/docs/${id}/intro`, `/docs/${id}/getting-started`, '/docs/getting-started'],
  ] as const) {
    await page.goto(path)
    await page.getByRole('button', { name: 'Menu' }).click()
    const drawer = page.locator('aside .nextra-menu-mobile')
    await expect(drawer.locator(`a[href="${shown}"]`)).toHaveCount(1)
    await expect(drawer.locator(`a[href="${hidden}"]`)).toHaveCount(0)
  }
})

test.describe('search page', () => {
  test('reads the query from the URL and finds docs and blog pages', async ({ page }) => {
    await page.goto('/search?q=channel')
    await expect(page.getByRole('searchbox')).toHaveValue('channel')
    const results = page.locator('.ferry-search-results > li')
    await expect(results.first()).toBeVisible()
    const sections = await page.locator('.ferry-search-section').allTextContents()
    expect(sections).toContain('Docs')
    expect(sections).toContain('Blog')
  })

  test('typing updates the URL so a search can be shared', async ({ page }) => {
    await page.goto('/search')
    await page.getByRole('searchbox').fill('intermediate')
    await expect(page).toHaveURL(/\/search\?q=intermediate$/)
    await expect(page.locator('.ferry-search-results a[href="/docs/intermediate_build"]').first()).toBeVisible()
    await page.getByRole('searchbox').fill('zzzyxqnotaword')
    await expect(page.getByText('No pages match “zzzyxqnotaword”.')).toBeVisible()
  })
})
