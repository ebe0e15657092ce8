import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type APIRequestContext } from '@playwright/test'
import { siteConfig } from '../site.config'
import { readPng } from '../lib/social-images/png'
import { imageTitle, socialImagePath } from '../lib/social-images/page-meta'
import { ogTitle } from '../lib/social-images/export'
import { sourcePages } from '../lib/social-images/source-pages'

/**
 * Each page's social card as a crawler meets it: the page's HTML as served (no JavaScript runs),
 * then the image its og:image names, fetched from the export.
 */
const out = join(import.meta.dirname, '..', 'out')

function sitemapPaths(): string[] {
  const file = join(out, 'sitemap.xml')
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build before the browser tests`)
  return [...readFileSync(file, 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '/').pathname)
}

function meta(html: string, attribute: 'property' | 'name', key: string): string | undefined {
  return new RegExp(`<meta ${attribute}="${key}" content="([^"]*)"`).exec(html)?.[1]
}

async function card(request: APIRequestContext, path: string) {
  const html = await (await request.get(path)).text()
  const image = meta(html, 'property', 'og:image')
  expect(image, `og:image on ${path}`).toBeDefined()
  expect(image!.startsWith(`${siteConfig.url}/`), `${image} on ${siteConfig.url}`).toBe(true)
  const response = await request.get(image!.slice(siteConfig.url.length))
  expect(response.status(), `${image} for ${path}`).toBe(200)
  return { html, image: image!, png: readPng(await response.body(), image!) }
}

test('every page in the sitemap has its own 1200×630 PNG card carrying its title', async ({ request }) => {
  const paths = sitemapPaths()
  expect(paths.length).toBeGreaterThan(100)
  const images = new Set<string>()
  for (const path of paths) {
    const { html, image, png } = await card(request, path)
    images.add(image)
    expect({ path, width: png.width, height: png.height }).toEqual({ path, width: 1200, height: 630 })
    expect(png.text.get('Title'), `title in ${image}`).toBe(imageTitle(ogTitle(html)!))
  }
  expect(images.size, 'one image per page').toBe(paths.length)
})

test('the not-found page has a card too', async ({ request }) => {
  const { png } = await card(request, '/404')
  expect(png.text.get('Title')).toBe('Page not found')
})

for (const [kind, path] of [
  ['a docs page', '/docs/intro'],
  ['an API page (generated)', '/docs/api/apps/create'],
  ['a blog post', '/blog/first-meet-ferry'],
  ['the home page', '/'],
]) {
  test(`${kind} names its card for Open Graph and X in its HTML`, async ({ request }) => {
    const html = await (await request.get(path!)).text()
    const image = `${siteConfig.url}${socialImagePath(path!)}`
    expect(meta(html, 'property', 'og:image')).toBe(image)
    expect(meta(html, 'property', 'og:image:width')).toBe('1200')
    expect(meta(html, 'property', 'og:image:height')).toBe('630')
    expect(meta(html, 'name', 'twitter:card')).toBe('summary_large_image')
    expect(meta(html, 'name', 'twitter:image')).toBe(image)
  })
}

test('the cards rendered beside the compile are the ones the built pages show (none left to render after it)', () => {
  const built = new Map(
    sitemapPaths().map((path) => {
      const file = join(out, path === '/' ? 'index.html' : `${path}.html`)
      return [path, ogTitle(readFileSync(existsSync(file) ? file : join(out, path, 'index.html'), 'utf8'))]
    }),
  )
  const fromSources = new Map(
    sourcePages(join(import.meta.dirname, '..', 'pages')).map((p) => [p.route, p.documentTitle]),
  )
  for (const [path, title] of built) expect({ path, title: fromSources.get(path) }).toEqual({ path, title })
})
