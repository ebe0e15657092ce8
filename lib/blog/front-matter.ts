/** @module The blog post front-matter schema and its validator; the one place that says what a post must declare. */
import { authorIds as knownAuthorIds } from './authors'
import { tagIds as knownTagIds } from './tags'

export interface BlogFrontMatter {
  title: string
  /** Calendar date, `YYYY-MM-DD`. */
  date: string
  authors: string[]
  tags: string[]
  description: string
}

export const FRONT_MATTER_FIELDS = ['title', 'date', 'authors', 'tags', 'description'] as const
export type FrontMatterField = (typeof FRONT_MATTER_FIELDS)[number]

/** A validation failure that knows which field it is about. */
export class FrontMatterFieldError extends Error {
  readonly field: string
  constructor(field: string, message: string) {
    super(message)
    this.name = 'FrontMatterFieldError'
    this.field = field
  }
}

export interface FrontMatterContext {
  authorIds: readonly string[]
  tagIds: readonly string[]
}

export const defaultFrontMatterContext: FrontMatterContext = {
  authorIds: knownAuthorIds,
  tagIds: knownTagIds,
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/

function nonEmptyString(data: Record<string, unknown>, field: FrontMatterField): string {
  const value = data[field]
  if (value === undefined) throw new FrontMatterFieldError(field, 'is missing')
  if (typeof value !== 'string' || value.trim() === '') {
    throw new FrontMatterFieldError(field, `must be a non-empty string, got ${JSON.stringify(value)}`)
  }
  return value.trim()
}

/** YAML turns `2026-11-22` into a Date at UTC midnight; a quoted string stays a string. Both are accepted. */
function calendarDate(value: unknown): string {
  if (value === undefined) throw new FrontMatterFieldError('date', 'is missing')
  let text: string
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new FrontMatterFieldError('date', 'is not a valid date')
    const iso = value.toISOString()
    if (!iso.endsWith('T00:00:00.000Z')) {
      throw new FrontMatterFieldError('date', `must be a calendar date YYYY-MM-DD without a time, got ${iso}`)
    }
    text = iso.slice(0, 10)
  } else if (typeof value === 'string') {
    text = value.trim()
  } else {
    throw new FrontMatterFieldError('date', `must be a date YYYY-MM-DD, got ${JSON.stringify(value)}`)
  }
  const m = DATE_RE.exec(text)
  if (!m) throw new FrontMatterFieldError('date', `must be YYYY-MM-DD, got ${JSON.stringify(text)}`)
  const [, y, mo, d] = m
  const parsed = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)))
  if (parsed.toISOString().slice(0, 10) !== text) {
    throw new FrontMatterFieldError('date', `is not a real calendar date: ${text}`)
  }
  return text
}

function idList(data: Record<string, unknown>, field: 'authors' | 'tags', known: readonly string[]): string[] {
  const value = data[field]
  if (value === undefined) throw new FrontMatterFieldError(field, 'is missing')
  if (!Array.isArray(value) || value.length === 0) {
    throw new FrontMatterFieldError(field, `must be a non-empty list of ids, got ${JSON.stringify(value)}`)
  }
  const seen = new Set<string>()
  for (const id of value) {
    if (typeof id !== 'string') throw new FrontMatterFieldError(field, `must contain strings, got ${JSON.stringify(id)}`)
    if (!known.includes(id)) {
      const what = field === 'authors' ? 'author' : 'tag'
      throw new FrontMatterFieldError(field, `unknown ${what} "${id}" (known: ${known.join(', ')})`)
    }
    if (seen.has(id)) throw new FrontMatterFieldError(field, `lists "${id}" twice`)
    seen.add(id)
  }
  return [...seen]
}

/**
 * Validates a post's parsed front matter and returns it normalised (date as `YYYY-MM-DD`).
 * Throws a {@link FrontMatterFieldError} naming the first offending field; unknown keys are
 * rejected so that a typo such as `author:` cannot pass silently.
 */
export function validateFrontMatter(
  data: unknown,
  ctx: FrontMatterContext = defaultFrontMatterContext,
): BlogFrontMatter {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new FrontMatterFieldError('(root)', 'front matter must be a YAML mapping')
  }
  const record = data as Record<string, unknown>
  for (const key of Object.keys(record)) {
    if (!(FRONT_MATTER_FIELDS as readonly string[]).includes(key)) {
      throw new FrontMatterFieldError(key, `is not a known field (allowed: ${FRONT_MATTER_FIELDS.join(', ')})`)
    }
  }
  return {
    title: nonEmptyString(record, 'title'),
    date: calendarDate(record.date),
    authors: idList(record, 'authors', ctx.authorIds),
    tags: idList(record, 'tags', ctx.tagIds),
    description: nonEmptyString(record, 'description'),
  }
}
