/**
 * Docs as tests: every page's runnable blocks run in order in bash against a freshly started
 * Ferry server, and what they print must match the output blocks the page shows.
 * FERRY_DOCS_PAGES=pages/docs/a.mdx,pages/docs/b.mdx runs only those pages (`npm run test:docs -- <page>`).
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { guidePages, pageBlocks } from '../../lib/docs-runner/pages.ts'
import { PageRun } from '../../lib/docs-runner/run-page.ts'

const root = join(import.meta.dirname, '..', '..')
const selected = process.env.FERRY_DOCS_PAGES?.split(',').filter(Boolean) ?? []
const runnablePages = guidePages(root)
  .map((page) => ({ page, blocks: pageBlocks(root, page).filter((b) => b.runnable) }))
  .filter((p) => p.blocks.length > 0)
/** What the runner put in a page's checkout (and its shell's state in .docs-runner/). */
const CHECKOUT = new Set([
  'package.json',
  'tsconfig.json',
  '.env.example',
  'server',
  'scripts',
  'lib',
  'public',
  'node_modules',
  '.docs-runner',
  'json-pointer',
  'artifact-files',
  'contract-check',
])

/** Entries a page's blocks left in its checkout that this repository's .gitignore does not cover. */
function unignoredLeftovers(workdir: string): string[] {
  const left = readdirSync(workdir, { withFileTypes: true })
    .filter((e) => !CHECKOUT.has(e.name))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
  if (!left.length) return []
  const ignored = spawnSync('git', ['-C', root, 'check-ignore', '--no-index', '--stdin'], {
    input: left.join('\n'),
    encoding: 'utf8',
  }).stdout.split('\n')
  return left.filter((name) => !ignored.includes(name))
}

const pagesToRun = selected.length ? runnablePages.filter((p) => selected.includes(p.page)) : runnablePages

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

  for (const { page, blocks } of pagesToRun) {
    test(
      `${page}: ${blocks.length} runnable blocks run in order and print what the page shows`,
      { timeout: 240_000 },
      async () => {
        const run = new PageRun(root, page)
        try {
          for (const block of blocks) {
            const failure = await run.runBlock(block)
            assert.equal(failure, undefined, failure)
          }
          assert.deepEqual(
            unignoredLeftovers(run.workdir),
            [],
            `${page} leaves files in the checkout that .gitignore does not cover: keep them in scratch/<page>/ (a page's own folder, local-development.mdx)`,
          )
        } finally {
          await run.stop()
        }
      },
    )
  }
})
