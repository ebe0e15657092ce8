/**
 * Code blocks drawn with shared pieces (issue 29): token colours come from classes
 * (lib/code-colour-classes.ts), the buttons' icons from one sprite (components/content/code-icons.tsx).
 * A reader sees the themes' colours in light and dark, and every button's icon.
 */
import { expect, test, type Page } from '@playwright/test'

/** The first block of /docs/updaters is `mkdir -p scratch/updaters`: its command is a function name in both themes. */
const COMMAND = { light: 'rgb(111, 66, 193)', dark: 'rgb(179, 146, 240)' } // github-light #6F42C1, github-dark #B392F0

async function commandColour(page: Page) {
  const token = page.locator('[data-ferry-content] .nextra-code pre code span span', { hasText: 'mkdir' }).first()
  return token.evaluate((el) => getComputedStyle(el).color)
}

test('code tokens show the light theme, then the dark theme, with no colour written inline', async ({ page }) => {
  await page.goto('/docs/updaters')
  expect(await commandColour(page)).toBe(COMMAND.light)
  await page.locator('footer [data-theme-toggle]').click()
  await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/)
  expect(await commandColour(page)).toBe(COMMAND.dark)
  expect(await page.locator('[data-ferry-content] pre span[style*="--shiki"]').count()).toBe(0)
})

test("every code block button shows its icon, drawn from the page's sprite", async ({ page }) => {
  await page.goto('/docs/updaters')
  const block = page.locator('[data-ferry-content] div.nextra-code').first()
  await block.hover()
  for (const name of ['Copy code', 'Report a problem with this snippet']) {
    const icon = block
      .getByRole(name === 'Copy code' ? 'button' : 'link', { name })
      .locator('svg')
      .first()
    await expect(icon).toBeVisible()
    // A <use> whose symbol is missing draws nothing: its box is empty.
    const drawn = await icon.locator('use').evaluate((use) => {
      const box = (use as SVGGraphicsElement).getBBox()
      return box.width > 0 && box.height > 0
    })
    expect(drawn, `${name}: the icon draws`).toBe(true)
  }
})
