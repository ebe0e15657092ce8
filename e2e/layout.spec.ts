/**
 * The layout check: the home page, an operation page, a webhook event's page, the API overview,
 * the blog and /demo at 390 and 1280 px, light and dark, are screenshotted (kept with the test's
 * output) and fail on any element whose content runs out of it without scrolling or clipping, any
 * element wider than the viewport, any table that needs sideways scrolling, and an overlay whose content runs out of it
 * (the search results once did).
 */
import { expect, test, type Page } from '@playwright/test'

const PAGES = ['/', '/docs/api/apps/create', '/docs/api/events/version-ramp-holding', '/docs/api', '/blog', '/demo']
const WIDTHS = [390, 1280]

/** Everything on the page that overflows; each entry names the element and by how much. */
function findOverflows(): string[] {
  const width = document.documentElement.clientWidth
  const found: string[] = []
  const name = (el: Element) => {
    const id = el.id ? `#${el.id}` : ''
    const cls =
      typeof el.className === 'string' && el.className.trim()
        ? `.${el.className.trim().split(/\s+/).slice(0, 3).join('.')}`
        : ''
    const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)
    return `<${el.tagName.toLowerCase()}${id}${cls}> "${text}"`
  }
  const clips = (value: string) => value !== 'visible'
  /** Inside a code block (which scrolls sideways by design) or a visually hidden box. */
  const exempt = (el: Element) => {
    if (el.closest('pre, .sr-only, [hidden], [aria-hidden="true"]')) return true
    if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') return true
    for (let a: Element | null = el; a; a = a.parentElement) if (getComputedStyle(a).clip !== 'auto') return true
    return false
  }
  for (const el of document.body.querySelectorAll('*')) {
    if (exempt(el)) continue
    const style = getComputedStyle(el)
    if (
      style.display === 'none' ||
      style.visibility === 'hidden' ||
      style.display === 'inline' ||
      style.display === 'contents'
    )
      continue
    const rect = el.getBoundingClientRect()
    if (rect.width === 0 || rect.height === 0) continue
    // Content that runs out of its box sideways, where the box neither scrolls nor clips it.
    if (!clips(style.overflowX) && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      found.push(`${name(el)}: content ${el.scrollWidth} px wide in a ${el.clientWidth} px box`)
    }
    // Wider than the viewport.
    if (style.position !== 'fixed' && (rect.right > width + 1 || rect.left < -1)) {
      const scroller = el.parentElement?.closest('pre, [role="region"], .nextra-scrollbar, [class*="overflow-x-auto"]')
      if (!scroller)
        found.push(`${name(el)}: spans ${Math.round(rect.left)}–${Math.round(rect.right)} px of a ${width} px viewport`)
    }
    // A table the reader would have to scroll sideways.
    if (el.tagName === 'TABLE') {
      const box = el.parentElement
      if (box && rect.width > box.clientWidth + 1)
        found.push(`${name(el)}: table ${Math.round(rect.width)} px wide in a ${box.clientWidth} px column`)
    }
    // An overlay whose content runs out of it downwards.
    if (
      (style.position === 'fixed' || style.position === 'absolute') &&
      Number(style.zIndex) > 0 &&
      !clips(style.overflowY) &&
      el.scrollHeight > el.clientHeight + 1
    ) {
      found.push(`${name(el)}: overlay content ${el.scrollHeight} px tall in a ${el.clientHeight} px box`)
    }
  }
  return [...new Set(found)]
}

async function settle(page: Page, path: string) {
  await page.waitForLoadState('networkidle')
  if (path === '/demo')
    await expect(page.getByRole('listitem', { name: /^Version / }).first()).toBeVisible({ timeout: 60_000 })
  await page.addStyleTag({ content: '* { content-visibility: visible !important; }' })
}

for (const theme of ['light', 'dark'] as const) {
  for (const width of WIDTHS) {
    for (const path of PAGES) {
      test(`layout: ${path} at ${width} px (${theme}) has nothing wider than its box or the screen`, async ({
        page,
      }, info) => {
        await page.addInitScript((t) => localStorage.setItem('theme', t), theme)
        await page.setViewportSize({ width, height: 900 })
        await page.goto(path)
        await settle(page, path)
        const shot = info.outputPath(
          `${path === '/' ? 'home' : path.slice(1).replaceAll('/', '-')}-${width}-${theme}.png`,
        )
        await page.screenshot({ path: shot, fullPage: true })
        await info.attach('screenshot', { path: shot, contentType: 'image/png' })
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth),
          'the page scrolls sideways',
        ).toBeLessThanOrEqual(width)
        expect(await page.evaluate(findOverflows)).toEqual([])
      })
    }
  }
  test(`layout: the search results scroll inside their panel (${theme})`, async ({ page }) => {
    await page.addInitScript((t) => localStorage.setItem('theme', t), theme)
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto('/docs/intro')
    // Typing before React has hydrated the search box would go to a plain input: wait for Next's router.
    await page.waitForFunction(
      () => typeof (window as unknown as { next?: { router?: unknown } }).next?.router === 'object',
    )
    const input = page.getByRole('combobox', { name: 'Search docs and blog…' })
    await input.focus()
    await input.pressSequentially('update')
    const panel = page.getByRole('listbox', { name: 'Search docs and blog…' })
    await expect(panel.getByRole('option').nth(8)).toBeAttached({ timeout: 30_000 })
    const box = (await panel.boundingBox())!
    expect(box.height).toBeLessThanOrEqual(401)
    expect(await page.evaluate(findOverflows)).toEqual([])
    // The last result is reached by scrolling the panel, not the page.
    const last = panel.getByRole('option').last()
    await last.scrollIntoViewIfNeeded()
    const lastBox = (await last.boundingBox())!
    expect(lastBox.y + lastBox.height).toBeLessThanOrEqual(box.y + box.height + 1)
  })
}

for (const theme of ['light', 'dark'] as const) {
  test(`layout: the updaters table fits its column at 1280 px, every column shown, no name broken (${theme})`, async ({
    page,
  }, info) => {
    await page.addInitScript((t) => localStorage.setItem('theme', t), theme)
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto('/docs/updaters')
    const table = page.locator('article table').first()
    await expect(table).toContainText('squirrel-windows')
    const fit = await table.evaluate((t) => ({ scroll: t.scrollWidth, client: t.clientWidth }))
    expect(fit.scroll, 'the table scrolls sideways').toBeLessThanOrEqual(fit.client + 1)
    const tableBox = (await table.boundingBox())!
    const rows = table.locator('tbody tr')
    expect(await rows.count()).toBeGreaterThanOrEqual(9)
    for (const row of await rows.all()) {
      const cells = row.locator('td')
      await expect(cells).toHaveCount(4)
      // Each cell is drawn inside the table (none cut off at its right edge), the no-update one too.
      for (const cell of await cells.all()) {
        const box = await cell.boundingBox()
        if (!box || box.width === 0) continue
        expect(box.x + box.width, `${await cell.textContent()}`).toBeLessThanOrEqual(tableBox.x + tableBox.width + 1)
      }
      await expect(cells.nth(3)).toBeVisible()
      // A format's name and an endpoint stay on one line ("squirrel-/windows" once broke at its hyphen).
      for (const code of await row.locator('td:nth-child(1) code, td:nth-child(3) code').all()) {
        const lines = await code.evaluate((c) => c.getClientRects().length)
        expect(lines, `${await code.textContent()} is on one line`).toBe(1)
      }
    }
    await table.screenshot({ path: info.outputPath(`updaters-table-1280-${theme}.png`) })
  })
}
