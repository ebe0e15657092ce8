import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { createSearch, type SearchData } from '../../components/search/search-index.ts'
import { docsFrontMatterProblems } from '../../lib/docs-front-matter.ts'
import { addSearchKeywords } from '../../lib/search-keywords.ts'

const page = (title: string, data: Record<string, string>, keywords?: string[]) => ({ title, data, keywords })
const data: SearchData = {
  '/blog/staged-rollouts': page('Staged rollouts in practice', {
    '': 'A rollout story.\nEvery rollout we ran.\nRollout after rollout.\nMore rollout notes.',
  }),
  '/docs/api/apps/pause-version': page('Pause a rollout', { '': 'Pauses the rollout of a version.' }),
  '/docs/rollouts': page('Rollouts', { '': 'A rollout offers a version to a share of installs.' }),
  '/docs/rollout-buckets': page('Rollout buckets', { '': 'Buckets of devices.' }),
  '/docs/publishing': page('Publishing from CI', {
    '': 'Upload from your pipeline.',
    'drafts-promote-and-rollout#Drafts, promote and rollout': 'Promote a draft when it is ready.',
  }),
  '/docs/telemetry': page('Telemetry', { '': 'Counts follow each rollout and promote step.\nPromote again.' }),
  '/docs/updaters': page('Updaters', { '': 'electron-updater reads latest.yml.' }, ['latest.yml', 'RELEASES']),
  '/docs/migrating/static-folder': page('From a static latest.yml folder', { '': 'Your latest.yml moves to Ferry.' }),
}
const search = createSearch(data)
const routes = (q: string) => search(q).map((p) => p.route)

test('a title match ranks above a heading match, which ranks above text', () => {
  assert.deepEqual(routes('promote'), ['/docs/publishing', '/docs/telemetry'])
})

test('for the same match, guides come before the API reference and blog posts; then the title the words cover most', () => {
  assert.deepEqual(routes('rollout'), [
    '/docs/rollouts',
    '/docs/rollout-buckets',
    '/docs/api/apps/pause-version',
    '/blog/staged-rollouts',
    '/docs/publishing',
    '/docs/telemetry',
  ])
})

test("a page's search keywords count as its title", () => {
  assert.deepEqual(routes('latest.yml'), ['/docs/updaters', '/docs/migrating/static-folder'])
  assert.deepEqual(routes('releases'), ['/docs/updaters'])
})

test('every word must match, each as the start of a word; hits name the heading and its text', () => {
  assert.deepEqual(routes('rollout buckets'), ['/docs/rollout-buckets'])
  assert.deepEqual(routes('ollout'), [])
  assert.deepEqual(routes('   '), [])
  const [publishing] = search('drafts promote')
  assert.equal(publishing?.section, 'Docs')
  assert.deepEqual(publishing?.hits[0], {
    url: '/docs/publishing#drafts-promote-and-rollout',
    title: 'Drafts, promote and rollout',
    excerpt: 'Promote a draft when it is ready.',
  })
})

test('postbuild writes front matter keywords into the search index; a keywords field that is not a list of text is refused', () => {
  const root = mkdtempSync(join(tmpdir(), 'ferry-keywords-'))
  mkdirSync(join(root, 'pages', 'docs'), { recursive: true })
  mkdirSync(join(root, 'out', '_next', 'static', 'chunks'), { recursive: true })
  writeFileSync(
    join(root, 'pages', 'docs', 'updaters.mdx'),
    '---\ntitle: Updaters\nkeywords: [latest.yml]\n---\n\n# Updaters\n',
  )
  writeFileSync(join(root, 'pages', 'docs', 'intro.mdx'), '---\ntitle: Introduction\n---\n\n# Introduction\n')
  const index = join(root, 'out', '_next', 'static', 'chunks', 'nextra-data-en-US.json')
  writeFileSync(
    index,
    JSON.stringify({
      '/docs/updaters': { title: 'Updaters', data: {} },
      '/docs/intro': { title: 'Introduction', data: {} },
    }),
  )
  assert.equal(addSearchKeywords(join(root, 'out'), join(root, 'pages')), 1)
  const written = JSON.parse(readFileSync(index, 'utf8')) as SearchData
  assert.deepEqual(written['/docs/updaters']?.keywords, ['latest.yml'])
  assert.equal(written['/docs/intro']?.keywords, undefined)
  assert.deepEqual(docsFrontMatterProblems({ title: 'Updaters', keywords: ['latest.yml'] }), [])
  assert.deepEqual(
    docsFrontMatterProblems({ title: 'Updaters', keywords: 'latest.yml' }).map((p) => p.field),
    ['keywords'],
  )
})
