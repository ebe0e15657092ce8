/**
 * Paint first (components/paint-first-scripts): a page's text is on screen before any of Next's
 * scripts runs; and the load event still waits for hydration, so a click right after `load` (what
 * `page.goto` waits for, and what a reader's early click meets) works.
 */
import { expect, test } from '@playwright/test'

const PAGES = ['/docs/intro', '/docs/api/apps/create', '/', '/blog']

for (const path of PAGES.slice(0, 3)) {
  test(`${path}: the first contentful paint comes before Next's webpack runtime runs, and the page then hydrates`, async ({
    page,
  }) => {
    // The webpack runtime, the first of Next's scripts, defines self.webpackChunk_N_E: note when.
    await page.addInitScript(() => {
      let chunks: unknown
      Object.defineProperty(window, 'webpackChunk_N_E', {
        configurable: true,
        get: () => chunks,
        set: (value) => {
          if ((window as unknown as { __runtimeAt?: number }).__runtimeAt === undefined)
            (window as unknown as { __runtimeAt: number }).__runtimeAt = performance.now()
          chunks = value
        },
      })
    })
    await page.goto(path)
    // Next sets window.next.router once it has hydrated the page; with the load event held, it is there at load.
    expect(await page.evaluate(() => typeof (window as { next?: { router?: unknown } }).next?.router)).toBe('object')
    const { fcp, runtime } = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      runtime: (window as unknown as { __runtimeAt?: number }).__runtimeAt,
    }))
    expect(fcp, 'a first contentful paint').toBeDefined()
    expect(runtime, "Next's webpack runtime ran").toBeDefined()
    expect(fcp!).toBeLessThan(runtime!)
  })
}

for (const path of PAGES) {
  test(`${path}: a click on the colour-mode switch right after the page loads switches it, every time`, async ({
    page,
  }) => {
    const html = page.locator('html')
    const toggle = page.locator('footer [data-theme-toggle]')
    for (let round = 0; round < 4; round++) {
      await page.goto(path)
      await toggle.click()
      await expect(html, `round ${round}: light to dark`).toHaveClass(/(^|\s)dark(\s|$)/)
      await page.reload()
      await toggle.click()
      await expect(html, `round ${round}: dark to light`).not.toHaveClass(/(^|\s)dark(\s|$)/)
    }
  })
}
