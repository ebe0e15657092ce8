import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { type BlogPost, countAuthors, countTags, formatDate, groupByYear, sortPosts } from '../../lib/blog/collections'

function post(slug: string, date: string, extra: Partial<BlogPost> = {}): BlogPost {
  return {
    slug,
    route: `/blog/${slug}`,
    file: `pages/blog/${slug}.mdx`,
    title: slug,
    date,
    authors: ['ferry-team'],
    tags: ['ferry'],
    description: slug,
    readingTime: { minutes: 1, words: 10 },
    ...extra,
  }
}

describe('sortPosts', () => {
  test('newest first across days, months and years', () => {
    const sorted = sortPosts([
      post('a', '2025-12-31'),
      post('b', '2026-11-22'),
      post('c', '2026-01-05'),
      post('d', '2026-11-03'),
    ])
    assert.deepEqual(
      sorted.map((p) => p.slug),
      ['b', 'd', 'c', 'a'],
    )
  })

  test('same-day posts are ordered by title, independent of input order', () => {
    const a = [post('x', '2026-11-22', { title: 'Zeta' }), post('y', '2026-11-22', { title: 'Alpha' })]
    assert.deepEqual(
      sortPosts(a).map((p) => p.title),
      ['Alpha', 'Zeta'],
    )
    assert.deepEqual(
      sortPosts([...a].reverse()).map((p) => p.title),
      ['Alpha', 'Zeta'],
    )
  })

  test('does not mutate its input', () => {
    const input = [post('old', '2025-01-01'), post('new', '2026-01-01')]
    sortPosts(input)
    assert.deepEqual(
      input.map((p) => p.slug),
      ['old', 'new'],
    )
  })
})

describe('groupByYear', () => {
  test('one group per year, newest year first, newest post first inside', () => {
    const groups = groupByYear([
      post('a', '2024-03-01'),
      post('b', '2026-02-01'),
      post('c', '2026-11-22'),
      post('d', '2024-12-01'),
    ])
    assert.deepEqual(
      groups.map((g) => [g.year, g.posts.map((p) => p.slug)]),
      [
        ['2026', ['c', 'b']],
        ['2024', ['d', 'a']],
      ],
    )
  })

  test('no posts, no groups', () => {
    assert.deepEqual(groupByYear([]), [])
  })
})

describe('counts', () => {
  const posts = [
    post('a', '2026-01-01', { tags: ['api', 'ferry'] }),
    post('b', '2026-01-02', { tags: ['api'], authors: ['ferry-docs'] }),
  ]
  test('countTags counts per tag in the given order, zero included', () => {
    assert.deepEqual(countTags(posts, ['api', 'ferry', 'team']), [
      { id: 'api', count: 2 },
      { id: 'ferry', count: 1 },
      { id: 'team', count: 0 },
    ])
  })
  test('countAuthors counts per author', () => {
    assert.deepEqual(countAuthors(posts, ['ferry-team', 'ferry-docs']), [
      { id: 'ferry-team', count: 1 },
      { id: 'ferry-docs', count: 1 },
    ])
  })
})

test('formatDate is UTC-based, so it cannot shift a day with the time zone', () => {
  assert.equal(formatDate('2026-11-22'), 'November 22, 2026')
  assert.equal(formatDate('2026-01-01'), 'January 1, 2026')
})
