/**
 * Docs as tests: every guide's and post's runnable blocks run in bash against a freshly started
 * Ferry server, and what they print must match the output blocks the page shows. The pages run
 * one after another in ONE checkout, in sidebar order, as a reader follows them: a page fails
 * when it breaks, when an earlier page broke it (it is then run alone to say which), or when it
 * leaves files in the checkout that .gitignore does not cover. A page that starts a server tells the
 * reader to stop it right after its last command (lib/docs-runner/stop-server.ts), and the runner
 * stops it there: every guide's server listens on port 8080.
 * FERRY_DOCS_PAGES=pages/docs/a.mdx,pages/docs/b.mdx runs only those pages (`npm run test:docs -- <page>`).
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { DocsCheckout } from '../../lib/docs-runner/checkout.ts'
import type { CodeBlock } from '../../lib/docs-runner/extract.ts'
import { pageBlocks } from '../../lib/docs-runner/pages.ts'
import { PageRun } from '../../lib/docs-runner/run-page.ts'
import { pagesInSidebarOrder } from '../../lib/docs-runner/sidebar.ts'
import { missingStopLine } from '../../lib/docs-runner/stop-server.ts'

const root = join(import.meta.dirname, '..', '..')
const selected = process.env.FERRY_DOCS_PAGES?.split(',').filter(Boolean) ?? []
const runnablePages = (await pagesInSidebarOrder(root))
  .map((page) => ({ page, blocks: pageBlocks(root, page).filter((b) => b.runnable) }))
  .filter((p) => p.blocks.length > 0)
const pagesToRun = selected.length ? runnablePages.filter((p) => selected.includes(p.page)) : runnablePages

/** Runs the page's blocks in `checkout` (a fresh one of its own without); resolves to the first failure. */
async function runPage(page: string, blocks: CodeBlock[], checkout?: DocsCheckout): Promise<string | undefined> {
  const run = new PageRun(root, page, checkout)
  try {
    for (const block of blocks) {
      const failure = await run.runBlock(block)
      if (failure) return failure
    }
    return undefined
  } finally {
    await run.stop()
  }
}

describe('runnable blocks', () => {
  const gettingStarted = 'pages/docs/getting-started.mdx'
  test(
    'getting-started takes an empty server to a verified download, every step runnable',
    { skip: selected.length > 0 && !selected.includes(gettingStarted) },
    () => {
      const page = runnablePages.find((p) => p.page === gettingStarted)
      assert.ok(page, 'getting-started.mdx has no runnable blocks')
      assert.ok(
        page.blocks[0]?.startsServer,
        'the first runnable block must start the server (```bash runnable=server)',
      )
      const steps: Array<[string, RegExp]> = [
        ['sign up', /\/v1\/auth\/signup/],
        ['log in', /\/v1\/auth\/login/],
        ['create a channel', /\/v1\/channels/],
        ['create a platform', /\/v1\/platforms/],
        ['create an architecture', /\/v1\/archs/],
        ['create an app', /\/v1\/apps\b/],
        ['upload a version', /-F\s+['"]?files=@/],
        ['publish it', /-X\s+PATCH/],
        ['check for an update', /\/update\?/],
        ['download an artifact', /downloadUrl/],
        ['verify its hash', /sha512sum|sha256sum/],
      ]
      let from = 0
      for (const [step, pattern] of steps) {
        const at = page.blocks.findIndex((b, i) => i >= from && pattern.test(b.code))
        assert.ok(
          at !== -1,
          `getting-started.mdx: no runnable block to ${step} at or after line ${page.blocks[from]?.line ?? 0}`,
        )
        from = at
      }
      assert.ok(page.blocks.filter((b) => b.expected).length >= 8, 'most getting-started steps must show their output')
    },
  )

  describe('every guide and post, one after another in one checkout, in sidebar order', () => {
    let checkout: DocsCheckout
    const ran: string[] = []
    let leftBefore = new Set<string>()
    before(() => {
      checkout = new DocsCheckout(root, 'guides')
    })
    after(() => checkout.remove())

    for (const { page, blocks } of pagesToRun) {
      test(
        `${page}: ${blocks.length} runnable blocks run in order and print what the page shows`,
        { timeout: 480_000 },
        async () => {
          const earlier = [...ran]
          ran.push(page)
          // The runner stops the page's server after its last block, where the page tells the reader to.
          const unstopped = missingStopLine(readFileSync(join(root, page), 'utf8'), blocks)
          assert.equal(unstopped, undefined, unstopped)
          const failure = await runPage(page, blocks, checkout)
          const left = checkout.leftovers()
          const added = left.filter((entry) => !leftBefore.has(entry))
          leftBefore = new Set(left)
          if (failure) {
            const alone = earlier.length ? await runPage(page, blocks) : failure
            assert.fail(
              alone
                ? failure
                : `${failure}\n\n${page} passes in a checkout of its own: one of the pages before it in this checkout broke it (${earlier.join(', ')})`,
            )
          }
          assert.deepEqual(
            added,
            [],
            `${page} leaves files in the checkout that .gitignore does not cover (git status): keep them in scratch/<page>/ (a page's own folder, writing-docs.mdx)`,
          )
        },
      )
    }
  })
})
