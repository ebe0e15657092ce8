import { expect, test, type Locator, type Page, type Request } from '@playwright/test'
import { siteConfig } from '../site.config'

const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('dark'))

test.describe('colour mode', () => {
  test('is light by default even when the OS prefers dark', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.goto('/docs/intro')
    expect(await isDark(page)).toBe(false)
  })

  test('the reader can switch it; the choice persists in localStorage "theme" across reloads', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' })
    await page.goto('/')
    await page.locator('footer').getByRole('button', { name: 'Switch to dark mode' }).click()
    expect(await isDark(page)).toBe(true)
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark')
    await page.reload()
    expect(await isDark(page)).toBe(true)
    await page.goto('/docs/intro')
    expect(await isDark(page)).toBe(true)
    await page.locator('footer').getByRole('button', { name: 'Switch to light mode' }).click()
    expect(await isDark(page)).toBe(false)
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light')
  })
})

test.describe('announcement bar', () => {
  test('can be dismissed and stays dismissed after a reload', async ({ page }) => {
    await page.goto('/')
    const bar = page.locator('.nextra-banner-container')
    await expect(bar).toBeVisible()
    await expect(bar).toContainText(siteConfig.announcement.text)
    await page.getByRole('button', { name: 'Dismiss banner' }).click()
    await expect(bar).toBeHidden()
    expect(await page.evaluate((id) => localStorage.getItem(id), siteConfig.announcement.id)).toBe('0')
    await page.reload()
    await expect(bar).toBeHidden()
  })

  test('dismissal is remembered per bar id: dismissing another bar does not hide this one', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('announcement-some-older-bar', '0'))
    await page.goto('/')
    await expect(page.locator('.nextra-banner-container')).toBeVisible()
  })
})

test('table of contents lists h2 and h3 only and highlights the heading being read', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 })
  await page.goto('/docs/getting-started')
  const toc = page.locator('nav[aria-label="table of contents"]')
  const h2h3 = await page.locator('main h2[id], main h3[id]').evaluateAll((els) => els.map((e) => e.id))
  const h4 = await page.locator('main h4[id]').evaluateAll((els) => els.map((e) => e.id))
  expect(h4.length, 'the page needs an h4 for this test to mean something').toBeGreaterThan(0)
  const tocIds = await toc
    .locator('ul a[href^="#"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('href')!.slice(1)))
  expect(tocIds).toEqual(h2h3)
  for (const id of h4) expect(tocIds).not.toContain(id)

  const target = h2h3[Math.min(3, h2h3.length - 1)]!
  // Bring the heading just below the navbar: it becomes the heading being read.
  await page.evaluate(
    (id) => window.scrollTo(0, document.getElementById(id)!.getBoundingClientRect().top + window.scrollY - 120),
    target,
  )
  await expect(toc.locator(`a[href="#${target}"]`)).toHaveClass(/_text-primary-600/)
  await expect(toc.locator('a[class*="_text-primary-600"]')).toHaveCount(1)
})

test.describe('route change progress bar', () => {
  // The bar's 200 ms timer runs on the page's clock, and so does every check here: the clock is
  // paused before each navigation and moved on by hand, so a loaded machine cannot flip a result.
  async function openPaused(page: Page) {
    await page.clock.install()
    await page.goto('/docs/intro')
    await page.waitForLoadState('networkidle')
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 60_000)
    await page.evaluate(() => {
      ;(window as unknown as { __sawProgress: boolean }).__sawProgress = false
      new MutationObserver(() => {
        if (document.getElementById('nprogress')) (window as unknown as { __sawProgress: boolean }).__sawProgress = true
      }).observe(document.body, { childList: true, subtree: true })
    })
  }
  const sawProgress = (page: Page) =>
    page.evaluate(() => (window as unknown as { __sawProgress: boolean }).__sawProgress)

  test('appears when a navigation takes longer than 200 ms', async ({ page }) => {
    await openPaused(page)
    // The target's code is held back, so the navigation lasts as long as the test wants.
    let requested = () => {}
    const started = new Promise<void>((resolve) => (requested = resolve))
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/_next/static/chunks/pages/markdown-page*.js', async (route) => {
      requested()
      await released
      await route.continue()
    })
    // Not awaiting push(): it settles only once the held code has loaded.
    await page.evaluate(() => {
      void (window as unknown as { next: { router: { push: (u: string) => Promise<boolean> } } }).next.router.push(
        '/markdown-page',
      )
    })
    // The router asks for the code after routeChangeStart, which starts the bar's timer.
    await started
    await page.clock.runFor(199)
    expect(await sawProgress(page), 'the bar showed before 200 ms').toBe(false)
    await page.clock.runFor(1)
    await expect(page.locator('#nprogress')).toBeAttached()
    release()
    await expect(page).toHaveURL(/\/markdown-page$/)
    await page.clock.resume()
    await expect(page.locator('#nprogress')).toHaveCount(0)
  })

  test('does not appear when the navigation is quicker than 200 ms', async ({ page }) => {
    await openPaused(page)
    // With the clock paused the navigation takes 0 ms on the page's clock, however long it
    // takes outside. push() settles after routeChangeComplete, which clears the bar's timer.
    await page.evaluate(() =>
      (window as unknown as { next: { router: { push: (u: string) => Promise<boolean> } } }).next.router.push(
        '/docs/telemetry',
      ),
    )
    await expect(page).toHaveURL(/\/docs\/telemetry$/)
    await page.clock.runFor(1000)
    expect(await sawProgress(page), 'the bar showed for a navigation quicker than 200 ms').toBe(false)
  })
})

test.describe('errors', () => {
  test('a page that throws while rendering shows "This page crashed"; "Try again" re-renders it', async ({ page }) => {
    await page.goto('/docs/intro')
    // Replace the page's code with a component that throws while window.__crash is set.
    await page.evaluate(() => ((window as unknown as { __crash: boolean }).__crash = true))
    await page.route('**/_next/static/chunks/pages/markdown-page*.js', (route) =>
      route.fulfill({
        contentType: 'application/javascript',
        body: `(window.__NEXT_P=window.__NEXT_P||[]).push(["/markdown-page",function(){return{__esModule:true,default:function Crashy(){if(window.__crash)throw new Error("Boom from a test page");return "Recovered after retry"}}}])`,
      }),
    )
    await page.evaluate(() =>
      (window as unknown as { next: { router: { push: (u: string) => void } } }).next.router.push('/markdown-page'),
    )
    await expect(page.getByRole('heading', { name: 'This page crashed' })).toBeVisible()
    await expect(page.getByText('Boom from a test page')).toBeVisible()
    await page.evaluate(() => ((window as unknown as { __crash: boolean }).__crash = false))
    await page.getByRole('button', { name: 'Try again' }).click()
    await expect(page.getByText('Recovered after retry')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'This page crashed' })).toHaveCount(0)
  })

  test('a route whose code fails to load shows "Retry", which reloads the page', async ({ page }) => {
    await page.goto('/docs/intro')
    let blocked = true
    await page.route('**/_next/static/chunks/pages/markdown-page*.js', (route) =>
      blocked ? route.abort('failed') : route.continue(),
    )
    await page.evaluate(() =>
      (window as unknown as { next: { router: { push: (u: string) => void } } }).next.router.push('/markdown-page'),
    )
    const retry = page.getByRole('button', { name: 'Retry' })
    await expect(retry).toBeVisible()
    blocked = false
    await retry.click()
    await expect(page).toHaveURL(/\/markdown-page$/)
    await expect(page.getByRole('heading', { name: 'Markdown page', level: 1 })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0)
    // Hydrated again: client-side navigation works.
    await page.locator('.nextra-nav-container').getByRole('link', { name: 'Blog' }).click()
    await expect(page).toHaveURL(/\/blog$/)
  })
})

test.describe('prefetching', () => {
  const telemetryChunk = /\/_next\/static\/chunks\/pages\/docs\/telemetry-/
  /** What prefetching a linked page requests: its code and, for a getStaticProps page, its data. */
  const pageFiles = /\/_next\/static\/chunks\/pages\/|\/_next\/data\//
  const constrained = [
    ['saveData', { saveData: true, effectiveType: '4g' }],
    ['2g', { saveData: false, effectiveType: '2g' }],
    ['slow-2g', { saveData: false, effectiveType: 'slow-2g' }],
  ] as const

  const emulateConnection = (page: Page, connection: { saveData: boolean; effectiveType: string }) =>
    page.addInitScript(
      (c) => Object.defineProperty(navigator, 'connection', { value: c, configurable: true }),
      connection,
    )

  /** Links never come into view, so hovering is the only thing that can prefetch. */
  const withoutViewportPrefetch = (page: Page) =>
    page.addInitScript(() => {
      window.IntersectionObserver = class {
        observe() {}
        unobserve() {}
        disconnect() {}
        takeRecords() {
          return []
        }
      } as unknown as typeof IntersectionObserver
    })

  /** Resolves once React has hydrated the element: before that, hovering or showing it prefetches nothing on any connection. */
  const hydrated = (link: Locator) =>
    expect.poll(() => link.evaluate((el) => Object.keys(el).some((k) => k.startsWith('__reactProps$')))).toBe(true)

  /**
   * The URLs requested from the start of `action` until the page has done what it set off. After
   * two frames (intersection observers report once a frame is rendered) and an idle period (React's
   * re-render, its effects and the prefetches they start all run before the page is idle), the page
   * asks for a marker with `<link rel="prefetch">`: the lowest priority, which Chromium holds back
   * behind the prefetches started before it, so every one of them is reported before the marker.
   */
  let markers = 0
  async function requestsDuring(page: Page, action: () => Promise<unknown>): Promise<string[]> {
    // A new URL each time: a second prefetch of the same URL may be answered from memory, unreported.
    const settledMarker = `/favicon.svg?prefetch-settled=${++markers}`
    const urls: string[] = []
    const record = (r: Request) => urls.push(r.url())
    page.on('request', record)
    await action()
    const marker = page.waitForRequest((r) => r.url().endsWith(settledMarker))
    await page.evaluate(
      (m) =>
        new Promise<void>((resolve) =>
          requestAnimationFrame(() => requestAnimationFrame(() => requestIdleCallback(() => resolve()))),
        ).then(() => {
          const link = document.createElement('link')
          link.rel = 'prefetch'
          link.href = m
          document.head.append(link)
        }),
      settledMarker,
    )
    await marker
    page.off('request', record)
    return urls.slice(
      0,
      urls.findIndex((u) => u.endsWith(settledMarker)),
    )
  }

  test('linked pages are prefetched on a normal connection', async ({ page }) => {
    const requested: string[] = []
    page.on('request', (r) => requested.push(r.url()))
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto('/docs/intro')
    await page.waitForLoadState('networkidle')
    await expect.poll(() => requested.some((u) => telemetryChunk.test(u))).toBe(true)
  })

  test('on a normal connection, hovering a sidebar link prefetches its page', async ({ page }) => {
    await withoutViewportPrefetch(page)
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto('/docs/intro')
    const link = page.locator('aside').getByRole('link', { name: 'Telemetry', exact: true })
    await hydrated(link)
    const requested = await requestsDuring(page, () => link.hover())
    expect(requested.filter((u) => telemetryChunk.test(u))).toHaveLength(1)
  })

  test('on a normal connection, links scrolled into view are prefetched', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 })
    // The footer's link to Getting started is the only one on /blog, far below the fold.
    const footerLink = page.locator('footer a[href="/docs/getting-started"]')
    const chunk = /\/_next\/static\/chunks\/pages\/docs\/getting-started-/
    const onLoad = await requestsDuring(page, async () => {
      await page.goto('/blog')
      await hydrated(footerLink)
    })
    expect(onLoad.filter((u) => chunk.test(u))).toEqual([])
    const onScroll = await requestsDuring(page, () => footerLink.scrollIntoViewIfNeeded())
    expect(onScroll.some((u) => chunk.test(u))).toBe(true)
  })

  for (const [name, connection] of constrained) {
    test.describe(`when the connection reports ${name}`, () => {
      test.beforeEach(({ page }) => emulateConnection(page, connection))

      test('hovering a sidebar link prefetches nothing', async ({ page }) => {
        await withoutViewportPrefetch(page)
        await page.setViewportSize({ width: 1280, height: 900 })
        await page.goto('/docs/intro')
        const link = page.locator('aside').getByRole('link', { name: 'Telemetry', exact: true })
        await hydrated(link)
        const requested = await requestsDuring(page, () => link.hover())
        expect(requested.filter((u) => pageFiles.test(u))).toEqual([])
        // The link still works; the page's code comes when it is opened.
        await link.click()
        await expect(page).toHaveURL(/\/docs\/telemetry$/)
      })

      test('loading the blog and scrolling to its footer prefetches nothing', async ({ page }) => {
        await page.setViewportSize({ width: 1280, height: 900 })
        // The blog page's own code, named in its HTML, is loaded, not prefetched.
        const html = await (await page.request.get('/blog')).text()
        const requested = await requestsDuring(page, async () => {
          await page.goto('/blog')
          const footerLink = page.locator('footer a[href="/docs/getting-started"]')
          await hydrated(footerLink)
          await footerLink.scrollIntoViewIfNeeded()
        })
        const prefetched = requested.filter((u) => pageFiles.test(u) && !html.includes(new URL(u).pathname))
        expect(prefetched).toEqual([])
      })
    })
  }
})
