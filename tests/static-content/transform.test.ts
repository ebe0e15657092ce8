/**
 * The static-content transform on pages compiled by Nextra's own compiler, as its loader does:
 * which pages qualify, and that the browser's module keeps the table of contents and front
 * matter but none of the content, while the server's wraps the content in <StaticContent>.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { compileMdx } from 'nextra/compile'
import { clientModule, eligibility, parseModule, serverModule } from '../../lib/static-content/transform.ts'

const root = join(import.meta.dirname, '..', '..')
const COMPONENT = '/repo/components/content/static-content.tsx'

/** What Nextra's loader hands the next loader for a page at pages/<file>. */
async function compiled(file: string, mdx: string): Promise<string> {
  const filePath = join(root, 'pages', file)
  const { result } = await compileMdx(mdx, {
    mdxOptions: { jsx: true, outputFormat: 'program', format: 'detect' },
    defaultShowCopyCode: true,
    filePath,
    isPageImport: true,
    search: { codeblocks: false },
  })
  return `${result}\nexport default HOC_MDXWrapper(MDXLayout, '/x', {}, useTOC)`
}

async function verdict(file: string, mdx: string) {
  const code = await compiled(file, mdx)
  const program = parseModule(code)
  return { code, program, eligibility: eligibility(program, join(root, 'pages', file), root) }
}

const GUIDE = `---
title: A guide
description: Something to read.
---
import Link from 'next/link'
import { Endpoint } from '../../components/api/endpoint'
import { Callout } from 'nextra/components'

# A guide

A paragraph only the HTML should carry.

## First \`step\`

<Endpoint method="GET" path="/v1/health" />

<Callout>Note this.</Callout>

See <Link href="/docs/intro">the intro</Link>.

\`\`\`bash
echo codesentinel
\`\`\`
`

/** Text of the guide's paragraph and code block, as the compiled module spells it. */
const CONTENT_TEXT = ['A paragraph only the HTML should carry', 'codesentinel']

test('a guide of Markdown and static-safe components qualifies; its browser module carries no content', async () => {
  const { code, program, eligibility: result } = await verdict('docs/guide.mdx', GUIDE)
  assert.deepEqual(result, { static: true })
  const client = clientModule(code, program, COMPONENT)
  parseModule(client)
  assert.ok(!client.includes('A paragraph only the HTML should carry'), 'content text left in the browser module')
  assert.ok(!client.includes('echo codesentinel'), 'a code block left in the browser module')
  for (const dropped of ['components/api/endpoint', 'next/link', 'nextra/components'])
    assert.ok(!client.includes(dropped), `${dropped} still imported`)
  assert.match(client, /^import \{ StaticContent \} from "\/repo\/components\/content\/static-content\.tsx";/)
  assert.match(client, /function MDXLayout\(props\) \{\s*return <StaticContent \/>;\s*\}/)
  assert.match(client, /export function useTOC/, 'the table of contents must stay')
  assert.match(client, /const frontMatter = \{/)
  assert.match(client, /"title": "A guide"/)
  // The TOC's heading with inline code still renders with the page's components.
  assert.match(client, /useMDXComponents as _provideComponents/)
})

test("the server module wraps the page's content in <StaticContent> and keeps all of it", async () => {
  const { code, program } = await verdict('docs/guide.mdx', GUIDE)
  const server = serverModule(code, program, COMPONENT)
  parseModule(server)
  for (const text of CONTENT_TEXT) assert.ok(server.includes(text), `${text} missing from the server module`)
  assert.match(server, /return <StaticContent>\{<>/)
  assert.match(server, /<\/>\}<\/StaticContent>;/)
  assert.ok(server.includes('components/api/endpoint'))
})

test('pages that need code in the browser are left as React renders them, with the reason', async () => {
  const cases: Array<[string, string, RegExp]> = [
    [
      'a component not known to be static',
      `import { Dashboard } from '../components/demo/dashboard'\n\n<Dashboard />\n`,
      /imports \.\.\/components\/demo\/dashboard/,
    ],
    [
      "Nextra's stateful Tabs",
      `import { Tabs } from 'nextra/components'\n\n<Tabs items={['a']}><Tabs.Tab>a</Tabs.Tab></Tabs>\n`,
      /imports nextra\/components/,
    ],
    [
      'a data page',
      `export const getStaticProps = () => ({ props: {} })\n\n# Data\n`,
      /exports more than its table of contents/,
    ],
  ]
  cases.push(['the not-found page, shown at any address', '# Page not found\n', /an error page/])
  for (const [name, mdx, reason] of cases) {
    const { eligibility: result } = await verdict(name.startsWith('the not-found') ? '404.mdx' : 'docs/page.mdx', mdx)
    assert.equal(result.static, false, name)
    assert.match(result.static ? '' : result.reason, reason, name)
  }
})

test('an import used by the table of contents too is kept; one used only by the content is not', async () => {
  const mdx = `import { MethodBadge } from '../../components/api/method-badge'\nimport { Endpoint } from '../../components/api/endpoint'\n\n## <MethodBadge method="GET" /> reads\n\n<Endpoint method="GET" path="/" />\n`
  const { code, program, eligibility: result } = await verdict('docs/page.mdx', mdx)
  assert.deepEqual(result, { static: true })
  const client = clientModule(code, program, COMPONENT)
  assert.match(client, /import \{ ?MethodBadge ?\} from ['"]\.\.\/\.\.\/components\/api\/method-badge['"]/)
  assert.ok(!client.includes('components/api/endpoint'))
})
