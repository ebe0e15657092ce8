import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { test } from 'node:test'
import { posts } from '../../lib/blog/data.ts'
import { versions } from '../../lib/docs-versions.ts'
import { buildLlmsFull, buildLlmsTxt } from '../../lib/llms/llms-txt.ts'
import { optionalLinks } from '../../lib/llms/write-llms.ts'
import { buildTwins } from '../../lib/markdown-twins/twins.ts'

const root = join(import.meta.dirname, '../..')
const site = {
  name: 'Ferry',
  url: 'https://ferry.test',
  tagline: 'A self-hosted update server',
  description: 'Ferry answers update checks.',
}
const twins = await buildTwins({ root, siteUrl: site.url })
const llms = buildLlmsTxt(twins, site, optionalLinks())
const full = buildLlmsFull(twins, site)

/** Routes of the MDX pages under pages/docs, found by listing files, not through lib/markdown-twins. */
function docsRoutes(dir = join(root, 'pages/docs')): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.mdx?$/.test(e.name))
    .map(
      (e) =>
        '/' +
        relative(join(root, 'pages'), join(e.parentPath, e.name))
          .replace(/\.mdx?$/, '')
          .replace(/\/index$/, ''),
    )
}

/** llms.txt per llmstxt.org: H1, blockquote, free text, then H2 sections of `- [name](url): notes` lists. */
function parseLlmsTxt(text: string) {
  const lines = text.trimEnd().split('\n')
  assert.match(lines[0]!, /^# \S/)
  assert.equal(lines[1], '')
  assert.match(lines[2]!, /^> \S/)
  const sections = new Map<string, { title: string; url: string; description?: string }[]>()
  let current: string | undefined
  for (const line of lines.slice(3)) {
    const heading = /^## (.+)$/.exec(line)
    if (heading) sections.set((current = heading[1]!), [])
    else if (current !== undefined && line !== '') {
      const item = /^- \[((?:[^\]\\]|\\.)+)\]\((\S+)\)(?:: (.+))?$/.exec(line)
      assert.ok(item, `not a link item: ${line}`)
      sections.get(current)!.push({ title: item[1]!, url: item[2]!, description: item[3] })
    }
  }
  return sections
}

const sections = parseLlmsTxt(llms)

test('llms.txt opens with the site name and a summary, then Docs, API reference, Blog and Optional', () => {
  assert.ok(llms.startsWith('# Ferry\n\n> Ferry: A self-hosted update server. Ferry answers update checks.\n'))
  assert.deepEqual([...sections.keys()], ['Docs', 'API reference', 'Blog', 'Optional'])
})

test('every docs page, API page and post is listed once by the absolute URL of its .md twin', () => {
  const listed = [...sections.values()].flat().map((i) => i.url)
  assert.equal(new Set(listed).size, listed.length, 'no page is listed twice')
  for (const route of docsRoutes())
    assert.ok(listed.includes(`https://ferry.test${route}.md`), `${route} is missing from llms.txt`)
  for (const post of posts)
    assert.ok(
      sections.get('Blog')!.some((i) => i.url === `https://ferry.test${post.route}.md`),
      `${post.route} is missing`,
    )
  assert.ok(sections.get('API reference')!.every((i) => i.url.startsWith('https://ferry.test/docs/api')))
  assert.ok(
    sections
      .get('Docs')!
      .every((i) => /^https:\/\/ferry\.test\/docs\/.+\.md$/.test(i.url) && !i.url.includes('/docs/api')),
  )
})

test('titles and descriptions are the ones the pages declare; posts are newest first', () => {
  const blog = sections.get('Blog')!
  assert.deepEqual(
    blog.map((i) => i.title),
    posts.map((p) => p.title),
  )
  assert.deepEqual(
    blog.map((i) => i.description),
    posts.map((p) => p.description.replace(/\s+/g, ' ')),
  )
  const docs = sections.get('Docs')!
  assert.equal(docs[0]!.title, 'Introduction', 'the sidebar starts with the introduction')
  assert.ok(
    docs.every((i) => i.description),
    'every docs page has a description',
  )
})

test('frozen docs versions are only in Optional, and llms-full.txt leaves them out', () => {
  for (const version of versions) {
    const prefix = `https://ferry.test/docs/${version.id}/`
    assert.ok(sections.get('Optional')!.some((i) => i.url.startsWith(prefix)))
    assert.ok(!sections.get('Docs')!.some((i) => i.url.startsWith(prefix)))
    assert.ok(!full.includes(`URL: ${prefix}`))
  }
})

test('llms-full.txt holds every current docs and API page in full, each after a separator naming its URLs', () => {
  const included = twins.filter((t) => t.section === 'docs' || t.section === 'api')
  const blocks = full.split(/^={80}\n/m)
  for (const twin of included) {
    const block = blocks.findIndex((b) =>
      b.startsWith(
        `Page: ${twin.title}\nURL: https://ferry.test${twin.route}\nMarkdown: https://ferry.test${twin.path}\n`,
      ),
    )
    assert.ok(block > 0, `${twin.route} has no separator block`)
    assert.equal(blocks[block + 1]!.trim(), twin.markdown.trim(), `${twin.route} is not in full`)
  }
  assert.equal(blocks.filter((b) => b.startsWith('Page: ')).length, included.length)
  assert.ok(
    !twins.filter((t) => t.section === 'blog').some((t) => full.includes(`URL: https://ferry.test${t.route}\n`)),
  )
})
