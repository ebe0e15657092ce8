/**
 * Docs as tests: every page's runnable blocks run in order in bash against a freshly started
 * Ferry server, and what they print must match the output blocks the page shows.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { guidePages, pageBlocks } from '../../lib/docs-runner/pages.ts'
import { PageRun } from '../../lib/docs-runner/run-page.ts'

const root = join(import.meta.dirname, '..', '..')
const runnablePages = guidePages(root)
  .map((page) => ({ page, blocks: pageBlocks(root, page).filter((b) => b.runnable) }))
  .filter((p) => p.blocks.length > 0)

describe('runnable blocks', () => {
  test('getting-started takes an empty server to a verified download, every step runnable', () => {
    const page = runnablePages.find((p) => p.page === 'pages/docs/getting-started.mdx')
    assert.ok(page, 'getting-started.mdx has no runnable blocks')
    assert.ok(page.blocks[0]?.startsServer, 'the first runnable block must start the server (```bash runnable=server)')
    const steps: Array<[string, RegExp]> = [
      ['sign up', /\/v1\/auth\/signup/], ['log in', /\/v1\/auth\/login/], ['create a channel', /\/v1\/channels/],
      ['create a platform', /\/v1\/platforms/], ['create an architecture', /\/v1\/archs/], ['create an app', /\/v1\/apps\b/],
      ['upload a version', /-F\s+['"]?files=@/], ['publish it', /-X\s+PATCH/], ['check for an update', /\/update\?/],
      ['download an artifact', /downloadUrl/], ['verify its hash', /sha512sum|sha256sum/],
    ]
    let from = 0
    for (const [step, pattern] of steps) {
      const at = page.blocks.findIndex((b, i) => i >= from && pattern.test(b.code))
      assert.ok(at !== -1, `getting-started.mdx: no runnable block to ${step} at or after line ${page.blocks[from]?.line ?? 0}`)
      from = at
    }
    assert.ok(page.blocks.filter((b) => b.expected).length >= 8, 'most getting-started steps must show their output')
  })

  for (const { page, blocks } of runnablePages) {
    test(`${page}: ${blocks.length} runnable blocks run in order and print what the page shows`, { timeout: 240_000 }, async () => {
      const run = new PageRun(root, page)
      try {
        for (const block of blocks) {
          const failure = await run.runBlock(block)
          assert.equal(failure, undefined, failure)
        }
      } finally {
        await run.stop()
      }
    })
  }
})
