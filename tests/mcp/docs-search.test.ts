/** search_docs' ranking, on small pages whose answer is known. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { DocsSearch, queryWords } from '../../mcp/docs-search.ts'

const page = (route: string, title: string, markdown: string) => ({ route, title, section: 'docs', markdown })
const search = new DocsSearch([
  page(
    '/docs/rollouts',
    'Rollouts',
    '# Rollouts\n\nIntro.\n\n## Ramp a version\n\nA ramp raises the rollout step by step.\n\n## Pause\n\nPause a rollout.\n\n## Pull\n\nPull a rollout.',
  ),
  page('/docs/ramps', 'Ramps', '# Ramps\n\nA ramp, many ramps: ramp ramp ramp ramp.'),
  page('/docs/code', 'Code', '# Code\n\n```bash\n# ramp rollout in a comment\n```\n'),
])

test('a section holding every word outranks one repeating some of them', () => {
  const hits = search.search('ramp rollout', 10)
  assert.deepEqual(hits[0] && [hits[0].route, hits[0].heading], ['/docs/rollouts', 'Ramp a version'])
  assert.ok(hits.findIndex((h) => h.route === '/docs/ramps') > 0)
})

test('at most two sections per page; a # line in a code block is not a heading', () => {
  const hits = search.search('rollout', 10)
  assert.equal(hits.filter((h) => h.route === '/docs/rollouts').length, 2)
  assert.deepEqual(
    hits.filter((h) => h.route === '/docs/code').map((h) => h.heading),
    ['Code'],
  )
})

test('one-letter words and punctuation are not searched for', () => {
  assert.deepEqual(queryWords('a Ramp, x-ferry-device-id 1.2.0 !'), ['ramp', 'x-ferry-device-id', '1.2.0'])
  assert.deepEqual(search.search('a !', 5), [])
})
