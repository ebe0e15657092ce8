/** What `npm run dev` shows for a page (lib/dev-checks): each problem at its file:line:column, nothing for a clean page. */
import assert from 'node:assert/strict'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { checkPage } from '../../lib/dev-checks/check-page.ts'
import { formatProblems } from '../../lib/dev-checks/problem.ts'

const root = join(import.meta.dirname, '..', '..')

/** The fixture's overlay text as if it were the page at `as` in this repository. */
function overlay(fixture: string, as: string): string {
  const source = readFileSync(join(import.meta.dirname, 'fixtures', fixture), 'utf8')
  const problems = checkPage(root, as, source)
  return problems.length ? formatProblems(as, problems) : ''
}

test('a clean guide has no problems: page links, relative links, dynamic routes and files all resolve', () => {
  assert.equal(overlay('clean-guide.mdx', 'pages/docs/clean-guide.mdx'), '')
})

test('a markdown link to a route no page serves is named at its line and column', () => {
  const text = overlay('broken-link.mdx', 'pages/docs/broken-link.mdx')
  assert.match(text, /^1 problem in pages\/docs\/broken-link\.mdx:$/m)
  assert.match(
    text,
    /^pages\/docs\/broken-link\.mdx:9:20 {2}broken link \/docs\/nope: no page or file at \/docs\/nope/m,
  )
})

test('a code block that does not parse is named at the line bash reports', () => {
  const text = overlay('broken-block.mdx', 'pages/docs/broken-block.mdx')
  assert.match(text, /^pages\/docs\/broken-block\.mdx:11:1 {2}bash block at line 8: bash -n: .*syntax error/m)
})

test('a docs page whose front matter fails lib/docs-front-matter.ts is named at the field', () => {
  const text = overlay('bad-docs-front-matter.mdx', 'pages/docs/bad-docs-front-matter.mdx')
  assert.match(
    text,
    /^pages\/docs\/bad-docs-front-matter\.mdx:3:1 {2}front matter field "description" must be a non-empty string, got 42$/m,
  )
})

test('docs front matter that is not YAML is named at the line the parser stops', () => {
  const source = '---\ntitle: [unclosed\n---\n\n# Title\n'
  const [problem] = checkPage(root, 'pages/docs/x.mdx', source)
  assert.equal(problem?.line, 2)
  assert.match(problem?.message ?? '', /^front matter is not valid YAML: /)
})

test('a post is validated by lib/blog: an unknown tag is named at its list item', () => {
  const text = overlay('bad-post.mdx', 'pages/blog/bad-post.mdx')
  assert.match(text, /^pages\/blog\/bad-post\.mdx:5:21 {2}front matter field "tags" unknown tag "secrity" \(known: /m)
})

test('a post missing a field is named at the front matter', () => {
  const source = readFileSync(join(import.meta.dirname, 'fixtures', 'bad-post.mdx'), 'utf8').replace(
    'tags: [development, secrity]\n',
    '',
  )
  const [problem] = checkPage(root, 'pages/blog/bad-post.mdx', source)
  assert.deepEqual(problem && { line: problem.line, message: problem.message }, {
    line: 1,
    message: 'front matter field "tags" is missing',
  })
})

test('every page of the site passes: the dev server shows nothing on pages the build accepts', () => {
  const pages = readdirSync(join(root, 'pages'), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.mdx?$/.test(f))
    .map((f) => `pages/${f}`)
  assert.ok(pages.length > 100)
  const failing = pages.filter((page) => checkPage(root, page, readFileSync(join(root, page), 'utf8')).length > 0)
  assert.deepEqual(failing, [])
})
