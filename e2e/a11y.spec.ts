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

for (const theme of ['light', 'dark'] as const) {
  for (const path of pages) {
    test(`axe: no serious or critical violations on ${path} (${theme})`, async ({ page }) => {
      await page.addInitScript((t) => localStorage.setItem('theme', t), theme)
      await page.goto(path)
      await page.waitForLoadState('networkidle')
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark')
      // Blocks far from the viewport are not rendered yet (content-visibility: auto), and axe can
      // judge colour contrast only on what is rendered: check the whole page as if scrolled to.
      await page.addStyleTag({ content: '* { content-visibility: visible !important; }' })
      const results = await new AxeBuilder({ page })
        .options({ rules: Object.fromEntries(experimentalRules.map((id) => [id, { enabled: true }])) })
        .analyze()
      const bad = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v) =>
            `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes
              .slice(0, 3)
              .map((n) => n.target.join(' '))
              .join('\n  ')}`,
        )
      expect(bad, bad.join('\n')).toEqual([])
    })
  }
}
