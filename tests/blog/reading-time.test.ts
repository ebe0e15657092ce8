import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { posts } from '../../lib/blog/data'
import { proseWords, readingTime } from '../../lib/blog/reading-time'
import { REPO_ROOT } from './helpers'
import { formatReadingTime } from '../../lib/blog/collections'

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ')

test('counts words of the body', () => {
  assert.equal(readingTime(words(321)).words, 321)
})

test('rounds minutes up at 200 words per minute, never below 1', () => {
  assert.equal(readingTime('').minutes, 1)
  assert.equal(readingTime(words(200)).minutes, 1)
  assert.equal(readingTime(words(201)).minutes, 2)
  assert.equal(readingTime(words(450)).minutes, 3)
})

test('ignores MDX import/export lines and self-closing component lines', () => {
  const body = [
    "import { PostHeader } from '../../components/blog/post-header'",
    'export const meta = { a: 1 }',
    '',
    '# Title here',
    '',
    '<PostHeader />',
    '',
    'Four words of prose.',
  ].join('\n')
  assert.equal(readingTime(body).words, 6)
})

test('formats as "N min read"', () => {
  assert.equal(formatReadingTime({ minutes: 3, words: 500 }), '3 min read')
})

describe('proseWords', () => {
  test('counts prose, not code blocks, their output, imports or component lines', () => {
    const body = [
      "import { PostHeader } from '../../components/blog/post-header'",
      '',
      '# Two words',
      '',
      '<PostHeader />',
      '',
      'Three more words.',
      '',
      '```bash runnable',
      'curl -s http://127.0.0.1:8080/v1/health | jq .',
      '```',
      '',
      '````markdown',
      '```text output',
      'ok',
      '```',
      '````',
      '',
      'And four words here.',
    ].join('\n')
    assert.equal(proseWords(body), 9)
  })

  test('every post is an article of 600 to 1200 words of prose', () => {
    for (const post of posts) {
      const body = readFileSync(path.join(REPO_ROOT, post.file), 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '')
      const words = proseWords(body)
      assert.ok(words >= 600 && words <= 1200, `${post.file}: ${words} words of prose, outside 600–1200`)
    }
  })
})
