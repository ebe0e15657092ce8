import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'

const pages = ['/', '/demo', '/docs/api/apps/upload', '/blog/archive', '/docs/0.1/intro', '/docs/intro', '/docs/getting-started', '/docs/api', '/blog', '/blog/first-meet-ferry', '/blog/tags', '/search?q=update', '/markdown-page', '/does-not-exist']

for (const theme of ['light', 'dark'] as const) {
  for (const path of pages) {
    test(`axe: no serious or critical violations on ${path} (${theme})`, async ({ page }) => {
      await page.addInitScript((t) => localStorage.setItem('theme', t), theme)
      await page.goto(path)
      await page.waitForLoadState('networkidle')
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark')
      const results = await new AxeBuilder({ page }).analyze()
      const bad = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('\n  ')}`)
      expect(bad, bad.join('\n')).toEqual([])
    })
  }
}
