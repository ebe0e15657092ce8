/** @module The blog post front-matter schema (JSON Schema, checked by ajv) and its validator; the one place that says what a post must declare. */
import Ajv, { type ErrorObject, type JSONSchemaType, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import { authorIds as knownAuthorIds } from './authors.ts'
import { tagIds as knownTagIds } from './tags.ts'

export interface BlogFrontMatter {
  title: string
  /** Calendar date, `YYYY-MM-DD`. */
  date: string
  authors: string[]
  tags: string[]
  description: string
}

export const FRONT_MATTER_FIELDS = ['title', 'date', 'authors', 'tags', 'description'] as const

/** Where in the front matter a failure is: a field, then an index into its list (`['tags', 1]`). */
export type FrontMatterPath = readonly [string, ...number[]]

/** A validation failure that knows which field (and list item) it is about. */
export class FrontMatterFieldError extends Error {
  readonly field: string
  readonly path: FrontMatterPath
  constructor(field: string, message: string, path: FrontMatterPath = [field]) {
    super(message)
    this.name = 'FrontMatterFieldError'
    this.field = field
    this.path = path
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

function frontMatterSchema(ctx: FrontMatterContext): JSONSchemaType<BlogFrontMatter> {
  const text = { type: 'string', pattern: '\\S' } as const
  const ids = (known: readonly string[]) =>
    ({ type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: [...known] } }) as const
  return {
    type: 'object',
    required: [...FRONT_MATTER_FIELDS],
    // A typo such as `author:` must not pass silently.
    additionalProperties: false,
    properties: {
      title: text,
      // `format: date` (ajv-formats) rejects days that do not exist, such as 2026-02-30.
      date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', format: 'date' },
      authors: ids(ctx.authorIds),
      tags: ids(ctx.tagIds),
      description: text,
    },
  }
}

const ajv = new Ajv({ allErrors: false })
addFormats(ajv, ['date'])
const validators = new WeakMap<FrontMatterContext, ValidateFunction<BlogFrontMatter>>()

function validatorFor(ctx: FrontMatterContext): ValidateFunction<BlogFrontMatter> {
  let validate = validators.get(ctx)
  if (!validate) {
    validate = ajv.compile(frontMatterSchema(ctx))
    validators.set(ctx, validate)
  }
  return validate
}

/** YAML 1.1 parsers turn `2026-11-22` into a Date at UTC midnight; the schema sees the text the author meant. */
function withDateText(data: unknown): unknown {
  if (typeof data !== 'object' || data === null || !('date' in data) || !(data.date instanceof Date)) return data
  const date = data.date
  const iso = Number.isNaN(date.getTime()) ? 'an invalid date' : date.toISOString()
  return { ...data, date: iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso }
}

const show = (value: unknown) => JSON.stringify(value)

/** The first ajv error, said in the author's terms, naming the field (and list item) it is about. */
function explain(error: ErrorObject, data: Record<string, unknown>, ctx: FrontMatterContext): FrontMatterFieldError {
  const [field, index] = error.instancePath.split('/').slice(1)
  if (field === undefined) {
    if (error.keyword === 'required')
      return new FrontMatterFieldError(error.params.missingProperty as string, 'is missing')
    if (error.keyword === 'additionalProperties') {
      const key = error.params.additionalProperty as string
      return new FrontMatterFieldError(key, `is not a known field (allowed: ${FRONT_MATTER_FIELDS.join(', ')})`)
    }
    return new FrontMatterFieldError('(root)', 'front matter must be a YAML mapping')
  }
  const value = data[field]
  if (field === 'date') {
    if (error.keyword === 'format')
      return new FrontMatterFieldError(field, `is not a real calendar date: ${value as string}`)
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
      return new FrontMatterFieldError(field, `must be a calendar date YYYY-MM-DD without a time, got ${value}`)
    }
    return new FrontMatterFieldError(field, `must be YYYY-MM-DD, got ${show(value)}`)
  }
  if (field === 'authors' || field === 'tags') {
    const list = value as unknown[]
    if (error.keyword === 'enum' && index !== undefined) {
      const [what, known] = field === 'authors' ? ['author', ctx.authorIds] : ['tag', ctx.tagIds]
      return new FrontMatterFieldError(
        field,
        `unknown ${what} ${show(list[Number(index)])} (known: ${known.join(', ')})`,
        [field, Number(index)],
      )
    }
    if (error.keyword === 'type' && index !== undefined) {
      return new FrontMatterFieldError(field, `must contain strings, got ${show(list[Number(index)])}`, [
        field,
        Number(index),
      ])
    }
    if (error.keyword === 'uniqueItems') {
      // ajv reports the two indices in an order that depends on the items' type: point at the later one.
      const repeat = Math.max(error.params.i as number, error.params.j as number)
      return new FrontMatterFieldError(field, `lists ${show(list[repeat])} twice`, [field, repeat])
    }
    return new FrontMatterFieldError(field, `must be a non-empty list of ids, got ${show(value)}`)
  }
  return new FrontMatterFieldError(field, `must be a non-empty string, got ${show(value)}`)
}

/**
 * Validates a post's parsed front matter against the schema and returns it normalised (date as
 * `YYYY-MM-DD`, title and description trimmed). Throws a {@link FrontMatterFieldError} naming the
 * first offending field.
 */
export function validateFrontMatter(
  data: unknown,
  ctx: FrontMatterContext = defaultFrontMatterContext,
): BlogFrontMatter {
  const input = withDateText(data)
  const validate = validatorFor(ctx)
  if (!validate(input)) throw explain(validate.errors![0]!, input as Record<string, unknown>, ctx)
  return {
    title: input.title.trim(),
    date: input.date,
    authors: [...input.authors],
    tags: [...input.tags],
    description: input.description.trim(),
  }
}
