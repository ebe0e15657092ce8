/**
 * Every operation page's Try it, first send, in sandbox mode, as a reader would press it: the
 * contract's example (with the sandbox's own ids filled in) answers 2xx, or the documented 302 of
 * a download. One browser page and one sandbox, moved between pages by client-side navigation;
 * deletions come last so they find what the create examples added (as
 * tests/try-it/examples-on-seed.test.ts checks without a browser).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { NOT_IN_SEED } from '../components/api/try-it/sandbox-examples.ts'

const API = join(import.meta.dirname, '..', 'pages', 'docs', 'api')
const tagOrder = [...readFileSync(join(API, '_meta.ts'), 'utf8').matchAll(/^\s+(\w+): "/gm)].map((m) => m[1]!)

interface OperationPage {
  route: string
  method: string
  operationId: string
  redirects: boolean
}

const pages: OperationPage[] = tagOrder.flatMap((tag) => {
  let files: string[]
  try {
    // Pages by name, as tests/try-it/examples-on-seed.test.ts orders the operations.
    files = readdirSync(join(API, tag))
      .filter((f) => f.endsWith('.mdx'))
      .sort((a, b) => a.slice(0, -4).localeCompare(b.slice(0, -4)))
  } catch {
    return []
  }
  return files.flatMap((file) => {
    const text = readFileSync(join(API, tag, file), 'utf8')
    const method = /<Endpoint method="(\w+)"/.exec(text)?.[1]
    const operationId = /^operationId: "(\w+)"/m.exec(text)?.[1]
    if (!method || !operationId || !text.includes('<TryIt ')) return []
    return [{ route: `/docs/api/${tag}/${file.slice(0, -4)}`, method, operationId, redirects: /^### 302 /m.test(text) }]
  })
})
const walk = [...pages.filter((p) => p.method !== 'DELETE'), ...pages.filter((p) => p.method === 'DELETE')]

test("every operation page: Try it's first send in the sandbox succeeds", async ({ page }) => {
  test.setTimeout(300_000)
  expect(walk.length, 'operation pages found').toBeGreaterThan(40)
  await page.goto(walk[0]!.route)
  const failures: string[] = []
  for (const op of walk) {
    if (new URL(page.url()).pathname !== op.route) {
      await page.evaluate(
        (route) =>
          (window as unknown as { next: { router: { push(r: string): Promise<boolean> } } }).next.router.push(route),
        op.route,
      )
      await expect(page).toHaveURL(new RegExp(`${op.route}$`))
    }
    const section = page.locator(`[data-ferry-try-it="${op.operationId}"]`)
    await section.getByRole('button', { name: 'Try it', exact: true }).click()
    const sendButton = section.getByRole('button', { name: 'Send request' })
    await expect(sendButton).toBeEnabled({ timeout: 30_000 })
    await sendButton.click()
    const status = section.locator('.ferry-try-it-status')
    await expect(status).toBeVisible({ timeout: 30_000 })
    const code = Number(await status.getAttribute('data-status'))
    // An example that needs a record the seed lacks answers its documented 404 (NOT_IN_SEED).
    const ok = NOT_IN_SEED[op.operationId]
      ? code === 404
      : (code >= 200 && code < 300) || (op.redirects && code === 302)
    if (!ok)
      failures.push(
        `${op.route} (${op.operationId}): ${code} ${
          (await section
            .locator('.ferry-try-it-body')
            .textContent()
            .catch(() => '')) ?? ''
        }`.slice(0, 300),
      )
  }
  expect(failures, 'operations whose first send failed').toEqual([])
})
