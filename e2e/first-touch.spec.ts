/**
 * A first visit, at a phone's, a tablet's and a desktop's width, in light and dark: the header
 * (announcement bar, navbar, the mobile menu's search), the keyboard (skip links, Try it, focus
 * rings measured against what they are drawn on), landmarks, and what search puts first.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'

const WIDTHS = [390, 768, 1280] as const
const THEMES = ['light', 'dark'] as const
const API_PAGE = '/docs/api/apps/create'

async function open(page: Page, path: string, theme: string, width: number) {
  await page.addInitScript((t) => localStorage.setItem('theme', t), theme)
  await page.setViewportSize({ width, height: 844 })
  await page.goto(path)
  // Keys pressed before React has hydrated would reach plain markup: wait for Next's router.
  await page.waitForFunction(
    () => typeof (window as unknown as { next?: { router?: unknown } }).next?.router === 'object',
  )
}

type Box = { x: number; y: number; width: number; height: number }
const intersect = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

/** The focused element's ring (outline or box-shadow), once its transitions end, and the contrast between it and what is behind it. */
async function focusRing() {
  type Rgba = [number, number, number, number]
  const parse = (c: string): Rgba[] =>
    [...c.matchAll(/rgba?\(([^)]+)\)/g)].map((m) => {
      const [r = 0, g = 0, b = 0, a = 1] = m[1]!
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number)
      return [r, g, b, a]
    })
  const over = (top: Rgba, below: Rgba): Rgba => {
    const a = top[3]
    return [0, 1, 2].map((i) => top[i]! * a + below[i]! * (1 - a)).concat(1) as Rgba
  }
  /** Every opaque colour the background behind `el` can be (a gradient gives each of its stops). */
  const backgrounds = (el: Element | null): Rgba[] => {
    const layers: Rgba[][] = []
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node)
      const stops = parse(style.backgroundImage)
      const colour = parse(style.backgroundColor)[0]
      if (stops.length) layers.push(stops)
      else if (colour && colour[3] > 0) layers.push([colour])
      if (layers.at(-1)?.every((c) => c[3] === 1)) break
    }
    let result: Rgba[] = [[255, 255, 255, 1]]
    for (const layer of layers.reverse()) result = layer.flatMap((c) => result.map((below) => over(c, below)))
    return result
  }
  const luminance = ([r, g, b]: Rgba) =>
    [r, g, b]
      .map((v) => v / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
      .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0)
  const contrast = (a: Rgba, b: Rgba) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
    return (hi! + 0.05) / (lo! + 0.05)
  }
  const el = document.activeElement
  if (!el || el === document.body) return { name: 'body', ring: 'none', contrast: 0 }
  await Promise.all(el.getAnimations().map((a) => a.finished.catch(() => undefined)))
  const style = getComputedStyle(el)
  const name = `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30)}"`
  const outline = parse(style.outlineColor)[0]
  let ring: Rgba | undefined
  let inside = false
  if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 && outline && outline[3] > 0) {
    ring = outline
    inside = parseFloat(style.outlineOffset) < 0
  } else {
    // The theme's rings: box-shadows with a spread; the widest visible one is the ring.
    let widest = 0
    for (const shadow of style.boxShadow.split(/,(?![^(]*\))/)) {
      const colour = parse(shadow)[0]
      const spread = Number(/(-?[\d.]+)px\s*(?:inset)?\s*$/.exec(shadow.replace(/rgba?\([^)]*\)/, '').trim())?.[1] ?? 0)
      if (colour && colour[3] > 0 && spread > widest) {
        widest = spread
        ring = colour
        inside = /inset/.test(shadow)
      }
    }
    if (widest < 2) ring = undefined
  }
  if (!ring) return { name, ring: 'none', contrast: 0 }
  const behind = backgrounds(inside ? el : el.parentElement)
  const solid = over(ring, behind[0]!)
  return {
    name,
    ring: `rgb(${ring.slice(0, 3).join(',')})`,
    contrast: Math.min(...behind.map((b) => contrast(over(ring, b), b))),
    solid: solid.join(','),
  }
}

for (const theme of THEMES) {
  for (const width of WIDTHS) {
    test.describe(`${width} px, ${theme}`, () => {
      test('the announcement bar and the navbar never overlap, at the top or scrolled', async ({ page }) => {
        for (const path of ['/', '/docs/intro', API_PAGE]) {
          await open(page, path, theme, width)
          const text = page.locator('.nextra-banner-container a').first()
          const nav = page.locator('.nextra-nav-container nav')
          await expect(text).toBeVisible()
          for (const scroll of [0, 300, 2000]) {
            await page.evaluate((y) => window.scrollTo(0, y), scroll)
            await page.waitForFunction(
              (y) => Math.abs(window.scrollY - Math.min(y, document.documentElement.scrollHeight - innerHeight)) < 2,
              scroll,
            )
            const [t, n] = [await text.boundingBox(), await nav.boundingBox()]
            expect(n, `${path}: the navbar is shown`).not.toBeNull()
            if (t)
              expect(intersect(t, n!), `${path} at ${scroll} px: ${JSON.stringify({ bar: t, navbar: n })}`).toBe(false)
          }
        }
        if (width === 390) await page.screenshot({ path: test.info().outputPath(`header-${width}-${theme}.png`) })
      })

      test('scrolled, the announcement bar is shown whole or not at all', async ({ page }) => {
        await open(page, '/docs/intro', theme, width)
        // 20 px: less than the bar's height, where a bar that scrolls with the page shows a strip.
        for (const scroll of [0, 20, 300, 2000]) {
          await page.evaluate((y) => window.scrollTo(0, y), scroll)
          await page.waitForFunction(
            (y) => Math.abs(window.scrollY - Math.min(y, document.documentElement.scrollHeight - innerHeight)) < 2,
            scroll,
          )
          // The bar's rows on screen and not under the navbar, against its full height.
          const seen = await page.evaluate(() => {
            const bar = document.querySelector('.ferry-banner')!.getBoundingClientRect()
            const nav = document.querySelector('.nextra-nav-container')!.getBoundingClientRect()
            let rows = 0
            for (let y = Math.max(0, Math.floor(bar.top)); y < Math.min(innerHeight, Math.ceil(bar.bottom)); y++)
              if (y < nav.top || y >= nav.bottom) rows++
            return { rows, height: Math.round(bar.height) }
          })
          expect(
            seen.rows === 0 || Math.abs(seen.rows - seen.height) <= 1,
            `at ${scroll} px: ${seen.rows} of the bar's ${seen.height} px rows show`,
          ).toBe(true)
          if (scroll === 20)
            await page.screenshot({
              path: test.info().outputPath(`header-scrolled-${width}-${theme}.png`),
              clip: { x: 0, y: 0, width, height: 160 },
            })
        }
      })

      if (width < 997) {
        test("the mobile menu's search box receives the click", async ({ page }) => {
          await open(page, '/docs/intro', theme, width)
          await page.getByRole('button', { name: 'Menu' }).click()
          const input = page.locator('aside.nextra-sidebar-container').getByRole('combobox')
          await expect(input).toBeVisible()
          // The drawer slides in: wait until it stands still.
          await expect
            .poll(async () => {
              const a = await input.boundingBox()
              await page.waitForTimeout(100)
              const b = await input.boundingBox()
              return a && b && a.y === b.y
            })
            .toBe(true)
          const box = (await input.boundingBox())!
          for (const y of [box.y + 2, box.y + box.height / 2, box.y + box.height - 2]) {
            const x = box.x + box.width / 2
            const hit = await page.evaluate(
              ([px, py]) => {
                const el = document.elementFromPoint(px!, py!)
                return el?.closest('aside.nextra-sidebar-container input')
                  ? 'search box'
                  : (el?.outerHTML.slice(0, 80) ?? 'nothing')
              },
              [x, y],
            )
            expect(hit, `at y=${y.toFixed(0)}`).toBe('search box')
          }
          await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
          await expect(input).toBeFocused()
          await page.screenshot({ path: test.info().outputPath(`menu-${width}-${theme}.png`) })
        })
      }

      test('the first Tab stop is a skip link, and it moves focus into the content', async ({ page }) => {
        await open(page, '/docs/intro', theme, width)
        await page.keyboard.press('Tab')
        const skip = page.getByRole('link', { name: 'Skip to content' })
        await expect(skip).toBeFocused()
        const box = (await skip.boundingBox())!
        expect(box.width * box.height, 'the focused skip link is shown').toBeGreaterThan(200)
        expect(box.y).toBeGreaterThanOrEqual(0)
        await page.keyboard.press('Enter')
        await expect(page.locator('main')).toBeFocused()
        await page.keyboard.press('Tab')
        expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true)
      })

      test('Try it on an API page is reached within 10 Tabs', async ({ page }) => {
        await open(page, API_PAGE, theme, width)
        const tryIt = page.getByRole('button', { name: 'Try it', exact: true })
        // By its own skip link.
        let tabs = 0
        while (
          tabs < 10 &&
          !(await page.getByRole('link', { name: 'Skip to Try it' }).evaluate((a) => a === document.activeElement))
        ) {
          await page.keyboard.press('Tab')
          tabs++
        }
        await page.keyboard.press('Enter')
        await expect(tryIt).toBeFocused()
        expect(tabs).toBeLessThanOrEqual(10)
        // And Tab by Tab from the start of the content.
        await page.goto(API_PAGE)
        await page.keyboard.press('Tab')
        await page.keyboard.press('Enter')
        tabs = 1
        while (tabs < 10 && !(await tryIt.evaluate((b) => b === document.activeElement))) {
          await page.keyboard.press('Tab')
          tabs++
        }
        await expect(tryIt).toBeFocused()
        await page.keyboard.press('Enter')
        await expect(tryIt).toHaveAttribute('aria-expanded', 'true')
      })

      test('every focus ring has at least 3:1 against what it is drawn on', async ({ page }) => {
        await open(page, API_PAGE, theme, width)
        const rings = []
        // The header, the bar, the navbar and (wide screens) the sidebar, Tab by Tab.
        for (let i = 0; i < 16; i++) {
          await page.keyboard.press('Tab')
          rings.push(await page.evaluate(focusRing))
        }
        // The content, from the skip link on.
        await page.goto(API_PAGE)
        await page.keyboard.press('Tab')
        await page.keyboard.press('Enter')
        for (let i = 0; i < 8; i++) {
          await page.keyboard.press('Tab')
          rings.push(await page.evaluate(focusRing))
        }
        const weak = rings.filter((r) => !(r.contrast >= 3))
        expect(weak, JSON.stringify(rings, null, 1)).toEqual([])
        if (width !== 768) {
          await page.keyboard.press('Shift+Tab')
          await page.screenshot({ path: test.info().outputPath(`focus-${width}-${theme}.png`) })
        }
      })
    })
  }
}

test('every page has a <main> landmark and all content in landmarks (axe: region, landmark-one-main)', async ({
  page,
}) => {
  for (const path of ['/', '/demo', '/docs/intro', API_PAGE, '/blog', '/search?q=rollout']) {
    await page.goto(path)
    await page.waitForLoadState('networkidle')
    const results = await new AxeBuilder({ page }).withRules(['region', 'landmark-one-main']).analyze()
    const bad = results.violations.map(
      (v) => `${path}: ${v.id}: ${v.nodes.length} node(s), ${v.nodes[0]?.target.join(' ')}`,
    )
    expect(bad, bad.join('\n')).toEqual([])
  }
})

test.describe('search puts the page about the words first', () => {
  const expected = {
    rollout: '/docs/rollouts',
    webhook: '/docs/webhooks',
    apt: '/docs/linux-repositories',
    'latest.yml': '/docs/updaters',
  }
  test('in the navbar', async ({ page }) => {
    await open(page, '/docs/intro', 'light', 1280)
    const input = page.getByRole('combobox', { name: 'Search docs and blog…' })
    const first = page.getByRole('listbox', { name: 'Search docs and blog…' }).getByRole('option').first()
    for (const [query, route] of Object.entries(expected)) {
      await input.fill('')
      await input.pressSequentially(query)
      await expect(first, query).toHaveAttribute('href', route, { timeout: 30_000 })
    }
  })

  test('on /search', async ({ page }) => {
    for (const [query, route] of Object.entries(expected)) {
      await page.goto(`/search?q=${encodeURIComponent(query)}`)
      await expect(page.locator('.ferry-search-results > li h2 a').first(), query).toHaveAttribute('href', route, {
        timeout: 30_000,
      })
    }
  })
})
