import assert from 'node:assert/strict'
import { test } from 'node:test'
import { CURRENT, parseDocsPath, pathInVersion, type DocsVersion } from '../lib/docs-versions.ts'
import { markUnsearchable, rewriteDocsLinks, rewriteRelativeImports } from '../scripts/docs-version.ts'

const known: DocsVersion[] = [
  { id: '0.1', label: '0.1', pages: ['intro', 'getting-started', 'getting-started/logging'] },
]

test('parseDocsPath tells the version and the page', () => {
  assert.deepEqual(parseDocsPath('/docs/intro', known), { version: CURRENT, page: 'intro' })
  assert.deepEqual(parseDocsPath('/docs/0.1/getting-started/logging?x=1#top', known), {
    version: '0.1',
    page: 'getting-started/logging',
  })
  assert.deepEqual(parseDocsPath('/docs', known), { version: CURRENT, page: '' })
  assert.equal(parseDocsPath('/blog/first-meet-ferry', known), null)
  assert.equal(parseDocsPath('/docsx', known), null)
})

test('pathInVersion keeps the page, falls back to the first page, and never versions the API reference', () => {
  assert.equal(pathInVersion('getting-started/logging', '0.1', known), '/docs/0.1/getting-started/logging')
  assert.equal(pathInVersion('telemetry', '0.1', known), '/docs/0.1/intro')
  assert.equal(pathInVersion('api/apps/create', '0.1', known), '/docs/api/apps/create')
  assert.equal(pathInVersion('intro', CURRENT, known), '/docs/intro')
  assert.equal(pathInVersion('intro', '9.9', known), '/docs/intro')
})

test('rewriteDocsLinks moves guide links into the version and leaves API links alone', () => {
  const source =
    'see [a](/docs/intro) [b](/docs/api/apps/create) [c](/docs) <a href="/docs/telemetry#x">x</a> [d](/docs/apis) [e](/docs/api) [f](/blog/x)'
  assert.equal(
    rewriteDocsLinks(source, '0.1'),
    'see [a](/docs/0.1/intro) [b](/docs/api/apps/create) [c](/docs/0.1) <a href="/docs/0.1/telemetry#x">x</a> [d](/docs/0.1/apis) [e](/docs/api) [f](/blog/x)',
  )
})

test('rewriteRelativeImports keeps imports pointing at the same module one folder deeper', () => {
  assert.equal(
    rewriteRelativeImports(
      "import { A } from '../../components/a'",
      '/r/pages/docs/intro.mdx',
      '/r/pages/docs/0.1/intro.mdx',
    ),
    "import { A } from '../../../components/a'",
  )
})

test('markUnsearchable keeps front matter and hides the copy from search', () => {
  assert.equal(
    markUnsearchable('---\ntitle: A\n---\n\n# A\n', '0.1'),
    '---\ntitle: A\nsearchable: false\ndocsVersion: "0.1"\n---\n\n# A\n',
  )
  assert.match(markUnsearchable('# A\n', '0.1'), /^---\nsearchable: false/)
})
