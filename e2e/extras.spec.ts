import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { siteConfig } from '../site.config'

/** `https://ferry.example.org/docs/intro.md` → `/docs/intro.md` on the test server. */
function localPath(url: string): string {
  expect(url.startsWith(`${siteConfig.url}/`), `${url} is on ${siteConfig.url}`).toBe(true)
  return url.slice(siteConfig.url.length)
}

/** Markdown outside code blocks and code spans: code may say `import` or `<token>`, prose may not. */
function prose(markdown: string): string {
  return markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '').replace(/(`+)[^`][\s\S]*?\1/g, '')
}

function expectCleanMarkdown(markdown: string, where: string) {
  expect(markdown, where).toMatch(/^# \S/)
  expect(prose(markdown), where).not.toMatch(/^import\s|^export\s/m)
  expect(prose(markdown), where).not.toMatch(/<\/?[A-Za-z][\w.]*(\s[^>]*)?\/?>/)
  expect(prose(markdown), where).not.toMatch(/\{\/\*/)
}

test.describe('llms.txt', () => {
  test('/llms.txt and /llms-full.txt are served as plain text with the site and its docs', async ({ request }) => {
    const llms = await request.get('/llms.txt')
    expect(llms.status()).toBe(200)
    expect(llms.headers()['content-type']).toMatch(/^text\/plain/)
    const text = await llms.text()
    expect(text.startsWith(`# ${siteConfig.name}\n\n> `)).toBe(true)
    expect(text.match(/^## .+$/gm)).toEqual(['## Docs', '## API reference', '## Blog', '## Optional'])

    const full = await request.get('/llms-full.txt')
    expect(full.status()).toBe(200)
    expect(full.headers()['content-type']).toMatch(/^text\/plain/)
    const fullText = await full.text()
    expect(fullText).toContain(`URL: ${siteConfig.url}/docs/intro\n`)
    expect(fullText).toContain(`URL: ${siteConfig.url}/docs/api/apps/create\n`)
    expect(fullText).not.toContain(`URL: ${siteConfig.url}/docs/0.1/`)
  })

  test('every link in /llms.txt answers 200, and every docs and post link is a clean Markdown twin', async ({
    request,
  }) => {
    const text = await (await request.get('/llms.txt')).text()
    const links = [...text.matchAll(/^- \[(?:[^\]\\]|\\.)+\]\((\S+)\)/gm)].map((m) => m[1]!)
    expect(links.length).toBeGreaterThan(60)
    for (const url of links) {
      const response = await request.get(localPath(url))
      expect(response.status(), url).toBe(200)
      if (url.endsWith('.md')) {
        expect(response.headers()['content-type'], url).toMatch(/^text\/markdown/)
        expectCleanMarkdown(await response.text(), url)
      }
    }
  })
})

test.describe('Markdown twins', () => {
  for (const route of [
    '/docs/getting-started/local-deploy',
    '/docs/api',
    '/docs/api/apps/create',
    '/blog/first-meet-ferry',
  ]) {
    test(`${route} links its twin in <head>, and the twin has the page's title and content`, async ({
      page,
      request,
    }) => {
      await page.goto(route)
      const alternate = page.locator('head link[rel="alternate"][type="text/markdown"]')
      await expect(alternate).toHaveCount(1)
      const href = await alternate.getAttribute('href')
      expect(href).toBe(`${route}.md`)
      const twin = await request.get(href!)
      expect(twin.status()).toBe(200)
      expect(twin.headers()['content-type']).toMatch(/^text\/markdown/)
      const markdown = await twin.text()
      expectCleanMarkdown(markdown, href!)
      const h1 = (await page.locator('main h1').first().innerText()).trim()
      expect(markdown.split('\n')[0]).toBe(`# ${h1}`)
      const firstH2 = (await page.locator('main h2').first().innerText()).trim()
      expect(markdown).toContain(`## ${firstH2}`)
    })
  }

  test('an API reference twin has the method, path, tables and code samples of its operation', async ({ request }) => {
    const markdown = await (await request.get('/docs/api/apps/create.md')).text()
    expect(markdown).toContain('`POST /v1/apps`')
    expect(markdown).toMatch(/^\| Name \| Type \| Required \| Description \|$/m)
    expect(markdown).toMatch(/^### 201 Created$/m)
    expect(markdown).toMatch(/^### curl\n\n```bash\ncurl /m)
  })

  test('pages that are not docs or posts have no twin', async ({ page }) => {
    for (const route of ['/', '/blog', '/blog/tags/ferry', '/demo']) {
      await page.goto(route)
      await expect(page.locator('head link[type="text/markdown"]'), route).toHaveCount(0)
    }
  })

  test('the sitemap lists pages, not their twins', async ({ request }) => {
    const sitemap = await (await request.get('/sitemap.xml')).text()
    expect(sitemap).toContain(`<loc>${siteConfig.url}/docs/intro</loc>`)
    expect(sitemap).not.toMatch(/\.md<\/loc>|llms/)
  })
})

test.describe('edit link and last update', () => {
  test.use({ viewport: { width: 1280, height: 900 } })

  test('"Edit this page" on a docs page opens its MDX file in the repository', async ({ page }) => {
    await page.goto('/docs/getting-started/local-deploy')
    const edit = page.getByRole('link', { name: 'Edit this page' })
    await expect(edit).toBeVisible()
    await expect(edit).toHaveAttribute(
      'href',
      `${siteConfig.repository}/edit/main/pages/docs/getting-started/local-deploy.mdx`,
    )
    expect(existsSync('pages/docs/getting-started/local-deploy.mdx')).toBe(true)
  })

  test('a blog post edits its MDX; a generated API page points at the OpenAPI contract, not the generated file', async ({
    page,
  }) => {
    await page.goto('/blog/first-meet-ferry')
    await expect(page.getByRole('link', { name: 'Edit this page' })).toHaveAttribute(
      'href',
      `${siteConfig.repository}/edit/main/pages/blog/first-meet-ferry.mdx`,
    )
    await page.goto('/docs/api/apps/create')
    const edit = page.getByRole('link', { name: /openapi\.yaml/ })
    await expect(edit).toHaveAttribute('href', new RegExp(`^${siteConfig.repository}/blob/main/openapi/openapi\\.yaml`))
    await expect(page.locator(`a[href*="pages/docs/api/"]`)).toHaveCount(0)
  })

  test('the last commit of the page source is shown as "Last updated on" with a machine-readable date', async ({
    page,
  }) => {
    const committed = execFileSync('git', ['log', '-1', '--format=%cI', '--', 'pages/docs/intro.mdx'], {
      encoding: 'utf8',
    }).trim()
    expect(committed, 'pages/docs/intro.mdx has git history').not.toBe('')
    await page.goto('/docs/intro')
    const stamp = page.getByText(/^Last updated on /)
    await expect(stamp).toBeVisible()
    const time = stamp.locator('time')
    expect(new Date((await time.getAttribute('datetime'))!).getTime()).toBe(new Date(committed).getTime())
    const shown = new Date(committed).toLocaleDateString('en-US', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    })
    await expect(time).toHaveText(shown)
  })
})
