/**
 * Code blocks drawn with shared pieces (issue 29): token colours come from classes
 * (lib/code-colour-classes.ts), the buttons' icons from one sprite (components/content/code-icons.tsx).
 * A reader sees the themes' colours in light and dark, and every button's icon.
 */
import { expect, test, type Locator, type Page } from '@playwright/test'

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

/** The look the buttons' classes drew when each carried Nextra's Tailwind utilities (github.com/shuding/nextra 3.3.1, Pre). */
const BUTTON_BORDER = { light: 'rgb(209, 213, 219)', dark: 'rgb(64, 64, 64)' } // gray-300, neutral-700

async function buttonLook(button: Locator) {
  return button.evaluate((el) => {
    const s = getComputedStyle(el)
    return {
      border: `${s.borderTopWidth} ${s.borderTopStyle} ${s.borderTopColor}`,
      radius: s.borderRadius,
      padding: s.padding,
    }
  })
}

test("code block buttons keep Nextra's look and show while the block is hovered; word wrap only on narrow screens", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/docs/updaters')
  const block = page.locator('[data-ferry-content] div.nextra-code:has(button[data-ferry-word-wrap])').first()
  const copy = block.getByRole('button', { name: 'Copy code' })
  const report = block.getByRole('link', { name: 'Report a problem with this snippet' })
  await block.scrollIntoViewIfNeeded()
  const tools = copy.locator('..')
  await expect(tools).toHaveCSS('opacity', '0')
  await block.hover()
  await expect(tools).toHaveCSS('opacity', '1')
  for (const control of [copy, report])
    expect(await buttonLook(control)).toEqual({
      border: `1px solid ${BUTTON_BORDER.light}`,
      radius: '6px',
      padding: '6px',
    })
  await expect(block.getByRole('button', { name: 'Toggle word wrap' })).toBeHidden()

  await page.locator('footer [data-theme-toggle]').click()
  await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/)
  expect((await buttonLook(copy)).border).toBe(`1px solid ${BUTTON_BORDER.dark}`)

  await page.setViewportSize({ width: 412, height: 800 })
  await block.scrollIntoViewIfNeeded()
  await block.hover()
  await expect(block.getByRole('button', { name: 'Toggle word wrap' })).toBeVisible()
})
