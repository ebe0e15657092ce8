import AxeBuilder from '@axe-core/playwright'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { guidePages } from '../lib/docs-runner/pages'

const shellPages = ['/', '/demo', '/docs/api/apps/upload', '/blog/archive', '/docs/0.1/intro', '/docs/api', '/blog', '/blog/tags', '/search?q=update', '/does-not-exist']
/** Every guide and post, so long tables and code blocks in content are checked too. */
const contentPages = guidePages(join(import.meta.dirname, '..')).map((file) => file.replace(/^pages/, '').replace(/\.mdx?$/, '').replace(/\/index$/, ''))
const pages = [...new Set([...shellPages, ...contentPages])]
/**
 * axe runs its experimental rules only when they are named; these are the ones that can report a
 * serious or critical violation. label-content-name-mismatch: a link's or button's accessible name
 * must contain its visible text (WCAG 2.5.3), so that voice control users can say what they see.
 */
const experimentalRules = ['label-content-name-mismatch', 'p-as-heading', 'table-fake-caption', 'td-has-header', 'css-orientation-lock']

for (const theme of ['light', 'dark'] as const) {
  for (const path of pages) {
    test(`axe: no serious or critical violations on ${path} (${theme})`, async ({ page }) => {
      await page.addInitScript((t) => localStorage.setItem('theme', t), theme)
      await page.goto(path)
      await page.waitForLoadState('networkidle')
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark')
      const results = await new AxeBuilder({ page })
        .options({ rules: Object.fromEntries(experimentalRules.map((id) => [id, { enabled: true }])) })
        .analyze()
      const bad = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('\n  ')}`)
      expect(bad, bad.join('\n')).toEqual([])
    })
  }
}
