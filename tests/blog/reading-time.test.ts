import assert from 'node:assert/strict'
import { test } from 'node:test'
import { readingTime } from '../../lib/blog/reading-time'
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
