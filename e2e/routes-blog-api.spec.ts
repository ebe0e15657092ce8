import { expect, test } from '@playwright/test'
import { tags } from '../lib/blog/tags'
import { authors } from '../lib/blog/authors'
import posts from '../lib/blog/posts.generated.json' with { type: 'json' }
import { API_SLUGS, BLOG_POSTS, BLOG_TAGS, DOCS_ROUTES } from '../tests/site-spec-routes'

const specPosts = BLOG_POSTS
/** The sample tabs of an API operation page, in order (lib/codegen/samples.ts). */
const SAMPLE_LANGUAGES = ['curl', 'JavaScript', 'Python', 'Go', 'Java', 'C#', 'PHP', 'Ruby', 'Rust']
const specTags = BLOG_TAGS

test('every route of the site spec answers 200 with a heading', async ({ request }) => {
  const routes = [
    '/',
    '/demo',
    '/markdown-page',
    '/search',
    '/blog',
    '/blog/archive',
    '/blog/authors',
    '/blog/tags',
    ...authors.map((a) => `/blog/authors/${a.id}`),
    ...specTags.map((t) => `/blog/tags/${t}`),
    ...specPosts.map((p) => `/blog/${p}`),
    ...DOCS_ROUTES,
    '/docs/api',
    ...Object.entries(API_SLUGS).flatMap(([folder, slugs]) => slugs.map((s) => `/docs/api/${folder}/${s}`)),
  ]
  expect(tags.map((t) => t.id).sort()).toEqual(specTags)
  for (const route of routes) {
    const response = await request.get(route)
    expect(response.status(), route).toBe(200)
    expect(await response.text(), route).toMatch(/<h1[\s>]/)
  }
})

test.describe('blog', () => {
  test('the list shows every post newest first with date, reading time, authors and tags', async ({ page }) => {
    await page.goto('/blog')
    const items = page.locator('main article')
    await expect(items).toHaveCount(specPosts.length)
    const first = items.first()
    await expect(first).toContainText(/min read/)
    await expect(first).toContainText(/2026/)
    await expect(first.locator('a[href^="/blog/tags/"]').first()).toBeVisible()
    await expect(first.locator('a[href^="/blog/authors/"]').first()).toBeVisible()
    const expectedOrder = posts.posts.map((p: { slug: string }) => `/blog/${p.slug}`)
    const shown = await items.locator('h2 a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))
    expect(shown).toEqual(expectedOrder)
  })

  test('each "Read the post" link is named by the words it shows, then the post it opens', async ({ page }) => {
    await page.goto('/blog')
    for (const post of posts.posts as { slug: string; title: string }[]) {
      // Voice control users say what they see ("click Read the post"); screen readers also hear which post.
      const link = page.getByRole('link', { name: `Read the post “${post.title}”`, exact: true })
      await expect(link).toHaveAttribute('href', `/blog/${post.slug}`)
      await expect(link).toHaveText(/^Read the post\b/)
    }
  })

  test('a post shows its reading time under the title, the same as on the list', async ({ page }) => {
    const post = posts.posts.find((p: { slug: string }) => p.slug === 'first-meet-ferry')!
    await page.goto('/blog/first-meet-ferry')
    await expect(page.locator('main')).toContainText(`${post.readingTime.minutes} min read`)
    await page.goto('/blog')
    await expect(page.locator('main article', { hasText: post.title })).toContainText(
      `${post.readingTime.minutes} min read`,
    )
  })

  test('the blog sidebar lists all posts grouped by year', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto('/blog/first-meet-ferry')
    const sidebar = page.locator('aside.nextra-sidebar-container')
    await expect(sidebar.getByText('2026', { exact: true })).toBeVisible()
    for (const slug of specPosts) await expect(sidebar.locator(`a[href="/blog/${slug}"]`)).toHaveCount(1)
  })

  test('tag and author pages list their posts; the tag index counts them', async ({ page }) => {
    await page.goto('/blog/tags/ferry')
    await expect(page).toHaveTitle(/Ferry/)
    await expect(page.locator('main a[href="/blog/first-meet-ferry"]').first()).toBeVisible()
    await page.goto('/blog/tags')
    for (const tag of specTags) await expect(page.locator(`main a[href="/blog/tags/${tag}"]`)).toHaveCount(1)
    await page.goto(`/blog/authors/${authors[0]!.id}`)
    await expect(page.locator('main a[href^="/blog/"]').first()).toBeVisible()
  })

  test('RSS 2.0 and Atom feeds list every post with absolute links', async ({ request }) => {
    const rss = await (await request.get('/blog/rss.xml')).text()
    expect(rss).toContain('<rss version="2.0"')
    expect(rss.match(/<item>/g)?.length).toBe(specPosts.length)
    expect(rss).toMatch(/<link>https:\/\/[^<]+\/blog\/first-meet-ferry<\/link>/)
    const atom = await (await request.get('/blog/atom.xml')).text()
    expect(atom).toContain('<feed xmlns="http://www.w3.org/2005/Atom"')
    expect(atom.match(/<entry>/g)?.length).toBe(specPosts.length)
  })
})

test.describe('API reference', () => {
  test('an operation page shows method, path, permission, parameters and nine code samples', async ({ page }) => {
    await page.goto('/docs/api/apps/upload')
    await expect(page.locator('main')).toContainText('POST')
    await expect(page.locator('main')).toContainText('/v1/apps/{app}/versions')
    await expect(page.locator('main')).toContainText('apps.upload')
    for (const tab of SAMPLE_LANGUAGES) await expect(page.getByRole('tab', { name: tab, exact: true })).toBeVisible()
    await page.getByRole('tab', { name: 'Python' }).click()
    await expect(page.getByRole('tabpanel').filter({ visible: true })).toContainText('requests.request')
    await page.getByRole('tab', { name: 'Rust' }).click()
    await expect(page.getByRole('tabpanel').filter({ visible: true })).toContainText('multipart::Form::new()')
  })

  for (const width of [360, 1280]) {
    test(`at ${width} px the nine sample tabs wrap inside their column, all in view`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 })
      await page.goto('/docs/api/apps/upload')
      const list = page.locator('[data-ferry-tabs] [role="tablist"]').first()
      const listBox = (await list.boundingBox())!
      for (const tab of SAMPLE_LANGUAGES) {
        const box = (await list.getByRole('tab', { name: tab, exact: true }).boundingBox())!
        expect(box.x, tab).toBeGreaterThanOrEqual(listBox.x - 0.5)
        expect(box.x + box.width, tab).toBeLessThanOrEqual(listBox.x + listBox.width + 0.5)
      }
      expect(await list.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
    })
  }

  test('the reference root links the spec downloads and they are served', async ({ page, request }) => {
    await page.goto('/docs/api')
    for (const href of ['/openapi.yaml', '/openapi.json', '/ferry.postman_collection.json']) {
      await expect(page.locator(`main a[href="${href}"]`).first()).toBeVisible()
      expect((await request.get(href)).status(), href).toBe(200)
    }
    const spec = await (await request.get('/openapi.json')).json()
    expect(spec.openapi).toBe('3.1.0')
  })

  test("the demo's console link opens the same operation on /demo", async ({ page }) => {
    await page.goto('/docs/api/apps/create')
    await page.getByRole('link', { name: /in the demo's console/ }).click()
    await expect(page).toHaveURL(/\/demo#\/apps\/createApp$/)
    const operation = page.locator('#operations-apps-createApp')
    await expect(operation).toBeVisible({ timeout: 20_000 })
    await expect(operation.locator('.opblock-body')).toBeVisible()
  })

  test('on a wide screen the examples stay beside the description, with the contents above them', async ({ page }) => {
    await page.setViewportSize({ width: 1400, height: 900 })
    await page.goto('/docs/api/apps/create')
    const column = page.getByRole('complementary', { name: 'Examples and contents' })
    const examples = column.getByRole('heading', { name: /^Examples/ })
    const main = page.locator('.ferry-op-main')
    const [mainBox, columnBox] = [await main.boundingBox(), await column.boundingBox()]
    expect(columnBox!.x).toBeGreaterThan(mainBox!.x + mainBox!.width)
    // Far down the responses, the request samples and the response example are still in view.
    await page.getByRole('heading', { name: '503 Service Unavailable' }).scrollIntoViewIfNeeded()
    await expect(examples).toBeInViewport()
    await expect(column.getByRole('tab', { name: 'curl' })).toBeInViewport()
    await expect(column.locator('figure, div.nextra-code').filter({ hasText: '201 response example' })).toBeVisible()
    // The theme's table of contents gives way; the column's own contents reach every section.
    await expect(page.locator('.nextra-toc')).toBeHidden()
    await column.getByText('On this page').click()
    await column.getByRole('link', { name: '409 Conflict' }).click()
    await expect(page).toHaveURL(/#409-conflict$/)
    await expect(page.getByRole('heading', { name: '409 Conflict' })).toBeInViewport()
    await expect(column.getByRole('link', { name: 'Edit in openapi/openapi.yaml' })).toBeVisible()
  })

  test('on a narrow screen the examples follow the responses', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 })
    await page.goto('/docs/api/apps/create')
    const responses = await page.getByRole('heading', { name: /^Responses/ }).boundingBox()
    const examples = await page.getByRole('heading', { name: /^Examples/ }).boundingBox()
    expect(examples!.y).toBeGreaterThan(responses!.y)
    await expect(page.locator('.ferry-op-contents')).toBeHidden()
  })
})
