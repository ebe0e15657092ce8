import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { posts } from '../../lib/blog/data.ts'
import { formatDate } from '../../lib/blog/collections.ts'
import { cleanCodeMeta, mdxToMarkdown } from '../../lib/markdown-twins/mdx-to-markdown.ts'
import { MarkdownTwinError } from '../../lib/markdown-twins/twin-error.ts'

const fixtures = join(import.meta.dirname, 'fixtures')
const read = (name: string) => readFileSync(join(fixtures, name), 'utf8')
const SITE = 'https://ferry.test'
const options = (file: string, title = 'Fixture page') => ({
  file: `tests/llms/fixtures/${file}`,
  title,
  siteUrl: SITE,
  route: '/docs/getting-started/fixture',
  twinRoutes: new Set(['/docs/intro', '/docs/updaters', '/docs/getting-started/logging']),
})

/** The Markdown outside code blocks and code spans, where no JSX or import may remain. */
function prose(markdown: string): string {
  return markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '').replace(/(`+)[^`][\s\S]*?\1/g, '')
}

function lineOf(source: string, needle: string): number {
  return source.slice(0, source.indexOf(needle)).split('\n').length
}

const converted = mdxToMarkdown(read('components.mdx'), options('components.mdx'))

test('front matter, imports and comments are gone; the title is the only H1', () => {
  assert.doesNotMatch(converted, /^---$/m)
  assert.doesNotMatch(converted, /description:/)
  assert.doesNotMatch(prose(converted), /^import /m)
  assert.doesNotMatch(converted, /editor's comment/)
  assert.deepEqual(converted.match(/^# .*$/gm), ['# Fixture page'])
  assert.ok(converted.startsWith('# Fixture page\n'))
})

test('no JSX tag is left outside code blocks', () => {
  assert.doesNotMatch(prose(converted), /<\/?[A-Za-z][\w.]*[\s/>]/)
})

test('a Callout becomes a blockquote labelled with its type', () => {
  assert.match(converted, /^> \*\*Warning:\*\* Back up the \*\*data directory\*\* before you upgrade\.$/m)
  assert.match(converted, /^> \*\*Note:\*\* Ferry never phones home\.$/m)
})

test('Tabs become one section per tab, one heading level below the section they are in', () => {
  const install = converted.slice(converted.indexOf('## Install'), converted.indexOf('## Upgrade'))
  assert.match(install, /^### npm\n\n```bash\nnpm run server\n```$/m)
  assert.match(install, /^### Docker\n\n```yaml filename="compose.yaml"\nservices:/m)
  assert.ok(install.indexOf('### npm') < install.indexOf('### Docker'))
})

test('code fence meta keeps the file name and drops display words such as runnable, copy and line highlights', () => {
  assert.doesNotMatch(converted, /runnable|copy|\{2\}/)
  assert.equal(cleanCodeMeta('runnable copy'), null)
  assert.equal(cleanCodeMeta("showLineNumbers filename='a.ts' {1,3}"), 'filename="a.ts"')
  assert.equal(cleanCodeMeta('title="Request example"'), 'filename="Request example"')
})

test('code inside fences is untouched, import lines included', () => {
  assert.match(converted, /^```python\nimport requests\n```$/m)
})

test('Steps number their h3 headings; Cards become a list of links', () => {
  assert.match(converted, /^### Step 1: Stop the server$/m)
  assert.match(converted, /^### Step 2: Start the new version$/m)
  assert.match(converted, /^- \[Updaters\]\(https:\/\/ferry\.test\/docs\/updaters\.md\)$/m)
  assert.match(converted, /^- \[Source code\]\(https:\/\/github\.com\/ferry-updates\/ferry\)$/m)
})

test('site links become absolute and point at the twin when the page has one', () => {
  assert.match(converted, /\[introduction\]\(https:\/\/ferry\.test\/docs\/intro\.md#how-an-update-check-works\)/)
  assert.match(converted, /\[logging\]\(https:\/\/ferry\.test\/docs\/getting-started\/logging\.md\)/)
  assert.match(converted, /\[demo\]\(https:\/\/ferry\.test\/demo\)/)
  assert.match(converted, /Press `Ctrl`\+`C` to stop\./)
})

test('a page without an H1 gets its title as H1', () => {
  const markdown = mdxToMarkdown('Just text.\n', options('no-h1.mdx', 'Given title'))
  assert.equal(markdown, '# Given title\n\nJust text.\n')
})

test('an unknown JSX component fails with the file, line and column of the tag and names the component', () => {
  const source = read('unknown-component.mdx')
  assert.throws(
    () => mdxToMarkdown(source, options('unknown-component.mdx', 'Unknown component')),
    (error: unknown) => {
      assert.ok(error instanceof MarkdownTwinError)
      assert.equal(error.file, 'tests/llms/fixtures/unknown-component.mdx')
      assert.equal(error.line, lineOf(source, '<Chart'))
      assert.equal(error.column, 1)
      assert.match(
        error.message,
        new RegExp(`^tests/llms/fixtures/unknown-component\\.mdx:${error.line}:1: <Chart> has no Markdown rendering`),
      )
      return true
    },
  )
})

test('a JavaScript expression fails with its line instead of leaking as {…}', () => {
  const source = read('expression.mdx')
  assert.throws(
    () => mdxToMarkdown(source, options('expression.mdx', 'Expression')),
    (error: unknown) => {
      assert.ok(error instanceof MarkdownTwinError)
      assert.equal(error.line, lineOf(source, '{new Date'))
      assert.match(error.message, /new Date\(\)\.getFullYear\(\)/)
      return true
    },
  )
})

test('MDX that does not parse fails with the file and the place the parser stopped', () => {
  assert.throws(
    () => mdxToMarkdown(read('invalid.mdx'), options('invalid.mdx', 'Invalid')),
    /^MarkdownTwinError: tests\/llms\/fixtures\/invalid\.mdx:\d+:\d+: not valid MDX/,
  )
})

test('Tabs whose items and panes disagree fail at the Tabs tag', () => {
  const source = '# T\n\n<Tabs items={["a", "b"]}>\n  <Tabs.Tab>only one</Tabs.Tab>\n</Tabs>\n'
  assert.throws(
    () => mdxToMarkdown(source, options('tabs.mdx', 'T')),
    /tabs\.mdx:3:1: <Tabs> has 2 items but 1 <Tabs\.Tab> children/,
  )
})

test("a post's PostHeader becomes its date, reading time, authors and tags line", () => {
  const post = posts[0]!
  const source = readFileSync(join(import.meta.dirname, '../..', post.file), 'utf8')
  const markdown = mdxToMarkdown(source, { ...options(post.file, post.title), route: post.route, post })
  const line = markdown.split('\n')[2]!
  assert.ok(line.startsWith(`_${formatDate(post.date)} · ${post.readingTime.minutes} min read · By `), line)
  assert.doesNotMatch(prose(markdown), /PostHeader|^import /m)
  assert.throws(
    () => mdxToMarkdown(source, { ...options(post.file, post.title), route: post.route }),
    /<PostHeader> is only valid in a blog post/,
  )
})

test('a Nextra custom heading id ([#id]) survives as {#id}, so links to that anchor keep their target', () => {
  const markdown = mdxToMarkdown('# T\n\n### 400 Request validation failed [#validation]\n', options('ids.mdx', 'T'))
  assert.match(markdown, /^### 400 Request validation failed \{#validation\}$/m)
  assert.doesNotMatch(markdown, /\\\[/)
})
