/**
 * `npm run test:docs [-- page…]` runs the runnable blocks of the given pages (all guides and
 * posts without one) through tests/docs/runnable.test.ts, which reads the selection from
 * FERRY_DOCS_PAGES. A failure names the block as `pages/…mdx:LINE: command`; the exit status is non-zero.
 */
import { spawnSync } from 'node:child_process'
import { relative, resolve } from 'node:path'
import { guidePages, pageBlocks } from '../lib/docs-runner/pages.ts'

const root = resolve(import.meta.dirname, '..')
const known = guidePages(root)
const pages = process.argv.slice(2).map((arg) => relative(root, resolve(arg)).split('\\').join('/'))
for (const page of pages) {
  if (!known.includes(page)) {
    console.error(`test:docs: ${page} is not a guide or post the docs tests run (lib/docs-runner/pages.ts)`)
    process.exit(2)
  }
  if (!pageBlocks(root, page).some((b) => b.runnable)) {
    console.error(`test:docs: ${page} has no runnable blocks (\`\`\`bash runnable); nothing to run`)
    process.exit(2)
  }
}
const run = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', 'tests/docs/runnable.test.ts'],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FERRY_DOCS_PAGES: pages.join(',') },
  },
)
process.exit(run.status ?? 1)
