import AxeBuilder from '@axe-core/playwright'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'

/**
 * Every URL in the built sitemap, plus what the sitemap leaves out on purpose: a search with
 * results and the 404 page. fullyParallel spreads the tests over the workers.
 */
function sitemapPaths(): string[] {
  const file = join(import.meta.dirname, '..', 'out', 'sitemap.xml')
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build before the browser tests`)
  return [...readFileSync(file, 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '/').pathname)
}
const pages = [...new Set([...sitemapPaths(), '/search?q=update', '/does-not-exist'])]

/**
 * axe runs its experimental rules only when they are named; these are the ones that can report a
 * serious or critical violation. label-content-name-mismatch: a link's or button's accessible name
 * must contain its visible text (WCAG 2.5.3), so that voice control users can say what they see.
 */
const experimentalRules = [
  'label-content-name-mismatch',
  'p-as-heading',
  'table-fake-caption',
  'td-has-header',
  'css-orientation-lock',
]

/** Serious and critical violations, one line each with the first nodes that show them. */
function serious(results: Awaited<ReturnType<AxeBuilder['analyze']>>, theme: string): string[] {
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}, ${theme}): ${v.help}\n  ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join('\n  ')}`,
    )
}

/**
 * Both themes in one page load: the page opens light, is checked, then turns dark the way a
 * second tab's choice reaches it (next-themes follows the `storage` event) and is checked again.
 * One load instead of two halves the browser stage's slowest part; the class check proves the
 * switch happened before the second run.
 */
for (const path of pages) {
  test(`axe: no serious or critical violations on ${path} (light and dark)`, async ({ page }) => {
    test.setTimeout(150_000)
    await page.addInitScript(() => localStorage.setItem('theme', 'light'))
    await page.goto(path)
    await page.waitForLoadState('networkidle')
    // Blocks far from the viewport are not rendered yet (content-visibility: auto), and axe can
    // judge colour contrast only on what is rendered: check the whole page as if scrolled to.
    // Transitions off, so that no colour is caught half-way after the theme changes.
    await page.addStyleTag({
      content: '* { content-visibility: visible !important; transition: none !important; }',
    })
    const bad: string[] = []
    for (const theme of ['light', 'dark'] as const) {
      if (theme === 'dark') {
        await page.evaluate(() => {
          localStorage.setItem('theme', 'dark')
          window.dispatchEvent(new StorageEvent('storage', { key: 'theme', newValue: 'dark' }))
        })
        await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/)
      } else {
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false)
      }
      const results = await new AxeBuilder({ page })
        .options({ rules: Object.fromEntries(experimentalRules.map((id) => [id, { enabled: true }])) })
        .analyze()
      bad.push(...serious(results, theme))
    }
    expect(bad, bad.join('\n')).toEqual([])
  })
}
