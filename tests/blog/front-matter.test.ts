import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { FrontMatterFieldError, validateFrontMatter } from '../../lib/blog/front-matter'
import { parsePost } from '../../lib/blog/posts'
import { readFixture } from './helpers'

const valid = {
  title: 'A post',
  date: new Date('2026-11-22T00:00:00Z'),
  authors: ['ferry-team'],
  tags: ['ferry', 'api'],
  description: 'Something.',
}

describe('validateFrontMatter', () => {
  test('accepts a YAML Date and normalises it to YYYY-MM-DD', () => {
    assert.deepEqual(validateFrontMatter(valid), { ...valid, date: '2026-11-22' })
  })

  test('accepts a quoted date string', () => {
    assert.equal(validateFrontMatter({ ...valid, date: '2026-11-22' }).date, '2026-11-22')
  })

  const rejects: [string, Record<string, unknown>, string, RegExp][] = [
    ['missing date', { ...valid, date: undefined }, 'date', /missing/],
    ['date with a time', { ...valid, date: new Date('2026-11-22T10:30:00Z') }, 'date', /without a time/],
    ['date in another format', { ...valid, date: '22/11/2026' }, 'date', /YYYY-MM-DD/],
    ['impossible calendar date', { ...valid, date: '2026-02-30' }, 'date', /real calendar date/],
    ['unknown author', { ...valid, authors: ['ferry-team', 'someone'] }, 'authors', /unknown author "someone"/],
    ['empty authors', { ...valid, authors: [] }, 'authors', /non-empty/],
    ['unknown tag', { ...valid, tags: ['kubernetes'] }, 'tags', /unknown tag "kubernetes"/],
    ['duplicate tag', { ...valid, tags: ['api', 'api'] }, 'tags', /twice/],
    ['missing title', { ...valid, title: undefined }, 'title', /missing/],
    ['blank description', { ...valid, description: '  ' }, 'description', /non-empty/],
    [
      'unknown key (typo)',
      { ...valid, author: 'ferry-team' },
      'author',
      /not a known field \(allowed: title, date, authors, tags, description\)/,
    ],
    [
      'authors given as one string',
      { ...valid, authors: 'ferry-team' },
      'authors',
      /non-empty list of ids, got "ferry-team"/,
    ],
    ['a tag that is not a string', { ...valid, tags: ['api', 7] }, 'tags', /must contain strings, got 7/],
    ['a title that is a number', { ...valid, title: 2026 }, 'title', /non-empty string, got 2026/],
  ]
  for (const [name, given, field, message] of rejects) {
    test(`rejects ${name}, naming field "${field}"`, () => {
      const data = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined))
      assert.throws(
        () => validateFrontMatter(data),
        (error: unknown) => {
          assert.ok(error instanceof FrontMatterFieldError)
          assert.equal(error.field, field)
          assert.match(error.message, message)
          return true
        },
      )
    })
  }

  test('front matter that is not a mapping is rejected as a whole', () => {
    for (const data of [null, ['title'], 'title: x']) {
      assert.throws(
        () => validateFrontMatter(data),
        (error: unknown) =>
          error instanceof FrontMatterFieldError && error.field === '(root)' && /YAML mapping/.test(error.message),
      )
    }
  })

  test('a failing list item is named by its index', () => {
    const failure = (data: Record<string, unknown>) => {
      try {
        validateFrontMatter(data)
      } catch (error) {
        return error instanceof FrontMatterFieldError ? error.path : undefined
      }
      return undefined
    }
    assert.deepEqual(failure({ ...valid, authors: ['ferry-team', 'someone'] }), ['authors', 1])
    assert.deepEqual(failure({ ...valid, tags: ['api', 'ferry', 'api'] }), ['tags', 2])
    assert.deepEqual(failure({ ...valid, tags: [] }), ['tags'])
  })

  test('trims the title and description it returns', () => {
    const parsed = validateFrontMatter({ ...valid, title: '  A post ', description: ' Something. ' })
    assert.equal(parsed.title, 'A post')
    assert.equal(parsed.description, 'Something.')
  })
})

describe('parsePost names the file, the line and the field', () => {
  // A missing field has no line to point at.
  const cases: [string, string, string, RegExp][] = [
    ['missing-date.mdx', '', 'date', /is missing/],
    ['invalid-date.mdx', ':3', 'date', /real calendar date/],
    ['unknown-author.mdx', ':4', 'authors', /unknown author "jane-doe"/],
    ['unknown-tag.mdx', ':5', 'tags', /unknown tag "kubernetes"/],
    ['title-mismatch.mdx', ':2', 'title', /H1 "Fixture post" must equal the title "Another title"/],
  ]
  for (const [fixture, line, field, detail] of cases) {
    test(`${fixture} fails with path=…${line} and field=${field}`, () => {
      const { file, source } = readFixture(fixture)
      assert.throws(
        () => parsePost(file, source),
        (error: unknown) => {
          assert.ok(error instanceof Error)
          assert.ok(
            error.message.startsWith(
              `front matter invalid: path=tests/blog/fixtures/${fixture}${line} field=${field}: `,
            ),
            error.message,
          )
          assert.match(error.message, detail)
          return true
        },
      )
    })
  }

  test("the line is the failing list item's, in a block list", () => {
    const { file, source } = readFixture('valid.mdx')
    const blockList = source.replace('tags: [ferry]', 'tags:\n  - ferry\n  - api\n  - kubernetes')
    assert.throws(
      () => parsePost(file, blockList),
      /^Error: front matter invalid: path=tests\/blog\/fixtures\/valid\.mdx:8 field=tags: unknown tag "kubernetes"/,
    )
  })

  test('a misspelt key is pointed at on its line', () => {
    const { file, source } = readFixture('valid.mdx')
    assert.throws(
      () => parsePost(file, source.replace('authors: [ferry-team]', 'authors: [ferry-team]\nautor: someone')),
      /path=tests\/blog\/fixtures\/valid\.mdx:5 field=autor: is not a known field/,
    )
  })

  test('YAML that does not parse is reported with its line', () => {
    const { file, source } = readFixture('valid.mdx')
    assert.throws(
      () => parsePost(file, source.replace('tags: [ferry]', 'tags: [ferry')),
      /front matter invalid: path=tests\/blog\/fixtures\/valid\.mdx:6 field=\(yaml\): Flow sequence/,
    )
  })

  test('keeps the validation error as cause', () => {
    const { file, source } = readFixture('unknown-tag.mdx')
    try {
      parsePost(file, source)
      assert.fail('expected parsePost to throw')
    } catch (error) {
      assert.ok(error instanceof Error && error.cause instanceof FrontMatterFieldError)
      assert.equal(error.cause.field, 'tags')
    }
  })

  test('a valid fixture parses into an indexed post', () => {
    const { file, source } = readFixture('valid.mdx')
    const post = parsePost(file, source)
    assert.equal(post.slug, 'valid')
    assert.equal(post.route, '/blog/valid')
    assert.equal(post.date, '2026-11-22')
    assert.deepEqual(post.authors, ['ferry-team'])
    assert.equal(post.readingTime.minutes, 1)
  })

  test('a post without <PostHeader /> under its H1 is rejected', () => {
    const { file, source } = readFixture('valid.mdx')
    assert.throws(
      () => parsePost(file, source.replace('<PostHeader />', '')),
      /post invalid: path=tests\/blog\/fixtures\/valid\.mdx:11: /,
    )
  })
})
