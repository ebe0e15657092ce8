import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { authorIds } from '../../lib/blog/authors'
import { posts } from '../../lib/blog/data'
import { loadPosts } from '../../lib/blog/posts'
import { blogProblems } from '../../lib/blog/problems'
import { authorStaticPaths, authorStaticProps, tagStaticPaths, tagStaticProps } from '../../lib/blog/routes'
import { tagIds } from '../../lib/blog/tags'
import { REPO_ROOT } from './helpers'

const REQUIRED_TAGS = [
  'analytics',
  'api',
  'auto-update',
  'development',
  'electron',
  'ferry',
  'performance',
  'security',
  'team',
  'telemetry',
]
const REQUIRED_POSTS = [
  'electron-auto-update',
  'fetch-latest-version',
  'first-meet-ferry',
  'local-development',
  'performance-mode',
  'private-apps',
  'team-based-auth',
  'telemetry-insights',
]

describe('blog routes', () => {
  test('exactly the required posts exist, and the index matches the sources', () => {
    assert.deepEqual(posts.map((p) => p.slug).sort(), REQUIRED_POSTS)
    assert.deepEqual(loadPosts('pages/blog', REPO_ROOT), posts)
  })

  test('tag pages are generated for exactly the required tags', () => {
    assert.deepEqual(
      tagStaticPaths()
        .paths.map((p) => p.params.tag)
        .sort(),
      REQUIRED_TAGS,
    )
    assert.equal(tagStaticPaths().fallback, false)
  })

  test('every tag and author used by a post has a page', () => {
    const tagPages = new Set<string>(tagStaticPaths().paths.map((p) => p.params.tag))
    const authorPages = new Set<string>(authorStaticPaths().paths.map((p) => p.params.author))
    for (const post of posts) {
      for (const tag of post.tags) assert.ok(tagPages.has(tag), `${post.file}: tag ${tag} has no page`)
      for (const author of post.authors)
        assert.ok(authorPages.has(author), `${post.file}: author ${author} has no page`)
    }
  })

  test('every tag and every author has at least one post', () => {
    assert.deepEqual(blogProblems(posts, tagIds, authorIds), [])
    assert.match(blogProblems(posts, [...tagIds, 'unused'], authorIds).join('\n'), /tag "unused" .* has no posts/)
  })

  test('dynamic pages pass a title and description to Nextra', () => {
    const tag = tagStaticProps('auto-update').props
    assert.deepEqual(tag.ssg, { tag: 'auto-update' })
    assert.equal(tag.__nextra_dynamic_opts.title, 'Posts tagged “Auto-update”')
    assert.ok(tag.__nextra_dynamic_opts.frontMatter.description.length > 0)
    const author = authorStaticProps('ferry-team').props
    assert.equal(author.__nextra_dynamic_opts.title, 'Posts by Ferry maintainers')
    assert.throws(() => tagStaticProps('nope'), /unknown tag "nope"/)
    assert.throws(() => authorStaticProps(undefined), /unknown author/)
  })

  test('the wrapper pages and author avatars exist', () => {
    for (const file of [
      'pages/blog/index.mdx',
      'pages/blog/archive.mdx',
      'pages/blog/tags.mdx',
      'pages/blog/tags/[tag].mdx',
      'pages/blog/authors.mdx',
      'pages/blog/authors/[author].mdx',
      ...authorIds.map((id) => `public/authors/${id}.svg`),
    ]) {
      assert.ok(existsSync(path.join(REPO_ROOT, file)), `${file} is missing`)
    }
  })
})
