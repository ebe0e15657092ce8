/**
 * The page tools of docs, API and blog pages: the copy-page menu (Markdown twin to the clipboard,
 * the twin itself, AI assistants), "Was this page helpful?" and each snippet's "report a problem"
 * link, which open a prefilled issue naming the page and the section.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { siteConfig } from '../site.config'

const menuButton = (page: Page) => page.getByRole('button', { name: 'Copy page' })
const menu = (page: Page) => page.getByRole('menu', { name: 'Copy page' })

/** The issue form a link opens: its title and body. */
function issue(href: string) {
  const url = new URL(href)
  expect(`${url.origin}${url.pathname}`).toBe(siteConfig.newIssue)
  return { title: url.searchParams.get('title') ?? '', body: url.searchParams.get('body') ?? '' }
}

test.describe('copy page', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

  test("copies the page's Markdown twin to the clipboard; no code loads for it until it is opened", async ({
    page,
    request,
  }) => {
    const scripts: string[] = []
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()))
    // The status shows for three seconds of the page's clock, paused here: a slow check cannot miss it.
    await page.clock.install()
    await page.goto('/docs/intro')
    await page.waitForLoadState('networkidle')
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 60_000)
    const before = scripts.length
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false')
    await expect(menuButton(page)).toHaveAttribute('aria-haspopup', 'menu')
    expect(scripts.length, 'nothing loaded for the menu while the page was only read').toBe(before)

    await menuButton(page).click()
    await expect(menu(page)).toBeVisible()
    expect(scripts.length).toBeGreaterThan(before)
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true')
    await expect(menu(page).getByRole('menuitem', { name: /^Copy page as Markdown/ })).toBeFocused()
    await menu(page)
      .getByRole('menuitem', { name: /^Copy page as Markdown/ })
      .click()
    await expect(page.getByRole('status').filter({ hasText: 'Copied the page as Markdown' })).toBeVisible()
    await expect(menu(page)).toHaveCount(0)

    const twin = await (await request.get('/docs/intro.md')).text()
    expect(twin).toMatch(/^# /)
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(twin)
  })

  test("works by keyboard as a menu button, views the twin and links it in each assistant's prompt", async ({
    page,
    baseURL,
  }) => {
    await page.goto('/docs/api/apps/create')
    await menuButton(page).focus()
    await page.keyboard.press('Enter')
    const items = menu(page).getByRole('menuitem')
    await expect(items).toHaveText([
      /^Copy page as Markdown/,
      /^View as Markdown/,
      ...siteConfig.assistants.map((a) => new RegExp(`^Open in ${a.label}`)),
    ])
    await expect(items.first()).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(items.nth(1)).toBeFocused()
    await page.keyboard.press('End')
    await expect(items.last()).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(items.first()).toBeFocused()
    await page.keyboard.press('ArrowUp')
    await expect(items.last()).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(menu(page)).toHaveCount(0)
    await expect(menuButton(page)).toBeFocused()
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false')

    await page.keyboard.press('ArrowDown')
    await expect(items.first()).toBeFocused()
    await expect(items.nth(1)).toHaveAttribute('href', '/docs/api/apps/create.md')
    for (const [index, assistant] of siteConfig.assistants.entries()) {
      const href = await items.nth(2 + index).getAttribute('href')
      expect(href?.startsWith(assistant.href)).toBe(true)
      expect(decodeURIComponent(href!.slice(assistant.href.length))).toContain(`${baseURL}/docs/api/apps/create.md`)
    }
  })

  test('a blog post has it; the home page and the blog index do not', async ({ page }) => {
    await page.goto('/blog/first-meet-ferry')
    await expect(menuButton(page)).toHaveAttribute('data-ferry-page-menu', '/blog/first-meet-ferry.md')
    for (const path of ['/', '/blog']) {
      await page.goto(path)
      await expect(page.locator('h1').first()).toBeVisible()
      await expect(menuButton(page)).toHaveCount(0)
    }
  })

  for (const theme of ['light', 'dark'] as const) {
    test(`open at 360 px wide, the menu fits the screen and axe finds nothing serious (${theme})`, async ({ page }) => {
      await page.setViewportSize({ width: 360, height: 740 })
      await page.addInitScript((t) => localStorage.setItem('theme', t), theme)
      await page.goto('/docs/getting-started/production-deploy')
      await menuButton(page).click()
      await expect(menu(page)).toBeVisible()
      const box = (await menu(page).boundingBox())!
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(360)
      const results = await new AxeBuilder({ page })
        .include('.ferry-page-menu')
        .include('.ferry-page-feedback')
        .analyze()
      const bad = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
      expect(bad, bad.join('\n')).toEqual([])
    })
  }
})

test.describe('feedback', () => {
  test('"Was this page helpful?" opens an issue naming the page, its title and the docs version', async ({
    page,
    context,
    baseURL,
  }) => {
    await context.route('https://github.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>New issue</title>' }),
    )
    await page.goto('/docs/rollouts')
    const feedback = page.getByRole('complementary', { name: 'Was this page helpful?' })
    const no = feedback.getByRole('link', { name: 'No' })
    // The page's behaviours install once it has hydrated; a pointer on the link then writes its URL.
    await expect(async () => {
      await no.hover()
      await expect(no).toHaveAttribute('data-filled', '', { timeout: 1000 })
    }).toPass()
    const [popup] = await Promise.all([context.waitForEvent('page'), no.click()])
    await popup.waitForURL(/github\.com/)
    const { title, body } = issue(popup.url())
    const heading = await page.locator('article h1').innerText()
    expect(title).toBe(`Docs feedback: "${heading}" was not helpful`)
    expect(body).toContain(`Page: ${baseURL}/docs/rollouts\n`)
    expect(body).toContain(`Section: ${heading}\n`)
    expect(body).toContain(`Docs version: Next (${siteConfig.branch})\n`)
    expect(body).toContain('Helpful: no')
  })

  test('a snippet\'s "report a problem" names the page, the section above it and the snippet', async ({
    page,
    baseURL,
  }) => {
    await page.goto('/docs/writing-docs')
    const block = page.locator('article div.nextra-code').first()
    const report = block.getByRole('link', { name: 'Report a problem with this snippet' })
    // Focus writes the URL once the page's behaviours have installed (after hydration).
    await expect(async () => {
      await report.focus()
      await expect(report).toHaveAttribute('href', /[?&]body=/, { timeout: 1000 })
    }).toPass()
    const { title, body } = issue((await report.getAttribute('href'))!)
    expect(title).toBe('Problem in a snippet: Writing docs › Preview while you write')
    expect(body).toContain(`Page: ${baseURL}/docs/writing-docs#preview-while-you-write\n`)
    expect(body).toContain('Section: Preview while you write\n')
    expect(body).toContain('```bash\nnpm run dev\n```')
  })

  test("a frozen version's page reports its version", async ({ page }) => {
    await page.goto('/docs/0.1/intro')
    const link = page.getByRole('complementary', { name: 'Was this page helpful?' }).getByRole('link', { name: 'Yes' })
    await expect(async () => {
      await link.hover()
      await expect(link).toHaveAttribute('href', /[?&]body=/, { timeout: 1000 })
    }).toPass()
    expect(issue((await link.getAttribute('href'))!).body).toContain('Docs version: 0.1\n')
  })
})
