/** The prefilled issues of lib/feedback/issue-links.ts: they name the page, section, version and snippet. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { contractBugUrl, pageFeedbackUrl, SNIPPET_LIMIT, snippetProblemUrl } from '../../lib/feedback/issue-links.ts'
import { siteConfig } from '../../site.config.ts'

const page = {
  url: 'https://ferry.example.org/docs/rollouts#pause',
  title: 'Rollouts',
  section: 'Pause',
  version: 'Next (main)',
}
const parse = (href: string) => {
  const url = new URL(href)
  assert.equal(`${url.origin}${url.pathname}`, siteConfig.newIssue)
  return {
    title: url.searchParams.get('title'),
    body: url.searchParams.get('body') ?? '',
    labels: url.searchParams.get('labels'),
  }
}

test('page feedback names the page, section and version', () => {
  const { title, body } = parse(pageFeedbackUrl(page, false))
  assert.equal(title, 'Docs feedback: "Rollouts" was not helpful')
  assert.match(
    body,
    /^Page: https:\/\/ferry\.example\.org\/docs\/rollouts#pause\nSection: Pause\nDocs version: Next \(main\)\nHelpful: no\n/,
  )
})

test('a snippet is fenced so its own backticks cannot close the fence, and a long one is cut', () => {
  const { title, body } = parse(snippetProblemUrl(page, 'echo ```\n', 'bash'))
  assert.equal(title, 'Problem in a snippet: Rollouts › Pause')
  assert.ok(body.includes('````bash\necho ```\n````'), body)
  const long = parse(snippetProblemUrl(page, 'x'.repeat(SNIPPET_LIMIT + 500))).body
  assert.ok(long.includes(`first ${SNIPPET_LIMIT} characters`))
  assert.ok(!long.includes('x'.repeat(SNIPPET_LIMIT + 1)))
})

test('a contract bug lists each problem by its path', () => {
  const { title, body, labels } = parse(
    contractBugUrl(page, {
      operationId: 'createApp',
      request: 'POST /v1/apps',
      status: 201,
      problems: ['/slug: must be string', '/name: is required'],
    }),
  )
  assert.equal(title, 'Contract bug: createApp answered 201 unlike the contract')
  assert.equal(labels, 'contract-bug')
  assert.match(body, /- \/slug: must be string\n- \/name: is required/)
})
