import { expect, test } from '@playwright/test'
import { siteConfig } from '../site.config'

test.describe('navbar', () => {
  test('links to docs, blog, demo and the source repository, and stays put on scroll', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/docs/intro')
    const nav = page.locator('.nextra-nav-container')
    await expect(nav.getByRole('link', { name: 'Documentation' })).toHaveAttribute('href', '/docs/intro')
    await expect(nav.getByRole('link', { name: 'Blog' })).toHaveAttribute('href', '/blog')
    await expect(nav.getByRole('link', { name: 'Demo Dashboard' })).toHaveAttribute('href', '/demo')
    await expect(nav.locator(`a[href="${siteConfig.repository}"]`)).toHaveAttribute('target', '_blank')

    await page.evaluate(() => {
      const w = window as unknown as { __scrollEnd: Promise<number> }
      w.__scrollEnd = new Promise((resolve) =>
        window.addEventListener('scrollend', () => resolve(window.scrollY), { once: true }),
      )
    })
    await page.mouse.wheel(0, 3000)
    // Measured once the scroll has come to rest.
    expect(
      await page.evaluate(() => (window as unknown as { __scrollEnd: Promise<number> }).__scrollEnd),
    ).toBeGreaterThan(0)
    const box = await nav.boundingBox()
    expect(box && box.y).toBeGreaterThanOrEqual(0)
    await expect(nav.getByRole('link', { name: 'Blog' })).toBeInViewport()
  })

  test('the docs sidebar has no button to hide it', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/docs/intro')
    await expect(page.locator('aside.nextra-sidebar-container')).toBeVisible()
    await expect(page.getByRole('button', { name: /collapse sidebar|hide sidebar/i })).toHaveCount(0)
    await expect(page.locator('aside button[title*="idebar"]')).toHaveCount(0)
  })
})

test('footer links to getting started, API, blog, development tag and every external link in site.config', async ({
  page,
}) => {
  await page.goto('/')
  const footer = page.locator('footer.ferry-footer')
  for (const href of ['/docs/getting-started', '/docs/api', '/blog', '/blog/tags/development']) {
    await expect(footer.locator(`a[href="${href}"]`)).toHaveCount(1)
  }
  const external = [
    siteConfig.issues,
    siteConfig.featureRequest,
    ...siteConfig.repositories.map((r) => r.href),
    ...siteConfig.articleSites.map((a) => a.href),
  ]
  for (const href of external) {
    await expect(footer.locator(`a[href="${href}"]`)).toHaveAttribute('rel', /noopener/)
  }
})

test.describe('mobile breakpoint at 996 px', () => {
  test('at 996 px the navigation collapses into a mobile sidebar holding the full menu', async ({ page }) => {
    await page.setViewportSize({ width: 996, height: 800 })
    await page.goto('/docs/intro')
    const hamburger = page.getByRole('button', { name: 'Menu' })
    await expect(hamburger).toBeVisible()
    await expect(page.locator('.nextra-nav-container').getByRole('link', { name: 'Blog' })).toBeHidden()
    await hamburger.click()
    const drawer = page.locator('aside.nextra-sidebar-container')
    await expect(drawer).toBeVisible()
    // The drawer holds the whole menu: the navbar's sections as well as the docs tree.
    for (const name of ['Documentation', 'Blog', 'Demo Dashboard']) {
      const item = drawer.getByText(name, { exact: true }).first()
      await item.scrollIntoViewIfNeeded()
      await expect(item).toBeVisible()
    }
    await expect(drawer.getByRole('link', { name: 'Getting started' }).filter({ visible: true })).toBeVisible()
    await expect(drawer.getByRole('link', { name: 'Troubleshooting' })).toBeVisible()
  })

  test('at 997 px the desktop navigation shows and there is no menu button', async ({ page }) => {
    await page.setViewportSize({ width: 997, height: 800 })
    await page.goto('/docs/intro')
    await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden()
    await expect(page.locator('.nextra-nav-container').getByRole('link', { name: 'Blog' })).toBeVisible()
    await expect(
      page.locator('aside.nextra-sidebar-container').getByRole('link', { name: 'Troubleshooting' }),
    ).toBeVisible()
  })
})

test('unknown paths get the not-found page with HTTP 404', async ({ page }) => {
  const response = await page.goto('/docs/no-such-page')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Read the docs' })).toHaveAttribute('href', '/docs/intro')
})

test('every page has lang="en", its own title and description, and Open Graph tags', async ({ page }) => {
  const seen = new Set<string>()
  for (const path of ['/', '/docs/intro', '/docs/getting-started/logging', '/markdown-page', '/search']) {
    await page.goto(path)
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    const title = await page.title()
    expect(title).toMatch(/Ferry/)
    expect(seen.has(title), `title "${title}" repeats on ${path}`).toBe(false)
    seen.add(title)
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{30,}/)
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', title)
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute(
      'content',
      new RegExp(`${path === '/' ? '' : path}$`),
    )
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
      'content',
      `${siteConfig.url}/og${path === '/' ? '/index' : path}.png`,
    )
  }
})

test('sitemap lists every page weekly at priority 0.5, without /search', async ({ request }) => {
  const xml = await (await request.get('/sitemap.xml')).text()
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname)
  for (const path of ['/docs/intro', '/docs/getting-started/logging', '/markdown-page', '/demo'])
    expect(locs).toContain(path)
  expect(locs).not.toContain('/search')
  expect(xml.match(/<changefreq>weekly<\/changefreq>/g)?.length).toBe(locs.length)
  expect(xml.match(/<priority>0\.5<\/priority>/g)?.length).toBe(locs.length)
})
