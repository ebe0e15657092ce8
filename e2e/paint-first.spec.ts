/**
 * Paint first (components/paint-first-scripts): a page's text is on screen before any of Next's
 * scripts runs, and the scripts still run, in order, so the page becomes interactive.
 */
import { expect, test } from '@playwright/test'

for (const path of ['/docs/intro', '/docs/api/apps/create', '/']) {
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
    // Next sets window.next once it has hydrated the page.
    await page.waitForFunction(
      () => typeof (window as unknown as { next?: { router?: unknown } }).next?.router === 'object',
    )
    const { fcp, runtime } = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      runtime: (window as unknown as { __runtimeAt?: number }).__runtimeAt,
    }))
    expect(fcp, 'a first contentful paint').toBeDefined()
    expect(runtime, "Next's webpack runtime ran").toBeDefined()
    expect(fcp!).toBeLessThan(runtime!)
  })
}
