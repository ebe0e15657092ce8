/**
 * @module Schema Object → table rows (OpenAPI 3.1 §4.8.24, JSON Schema 2020-12).
 * Walks a schema with its JSON pointer, following `$ref`s, flattening objects and arrays
 * into dotted rows so nested bodies read as one table.
 */
import type { Context, Json } from '../context.ts'
import { escapeToken } from '../../../contract/json-pointer.ts'
import type { SchemaRow } from '../model.ts'

export type Direction = 'request' | 'response'

const MAX_DEPTH = 8

export function formatValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

interface Flat {
  schema: Json
  refName?: string
  nullable: boolean
}

/** Follows `$ref`s, merges `allOf`, and unwraps `oneOf: [X, {type: null}]` into a nullable X. */
export function flatten(ctx: Context, schema: unknown, pointer: string): Flat {
  const { node, refName } = ctx.resolve<Json>(schema, pointer)
  let flat: Flat = { schema: { ...node }, refName, nullable: false }
  const allOf = node.allOf as unknown[] | undefined
  if (allOf) {
    const merged: Json = {
      ...node,
      properties: { ...(node.properties as Json) },
      required: [...((node.required as string[]) ?? [])],
    }
    delete merged.allOf
    allOf.forEach((part, i) => {
      const sub = flatten(ctx, part, `${pointer}/allOf/${i}`)
      for (const [key, value] of Object.entries(sub.schema)) {
        if (key === 'properties') Object.assign(merged.properties as Json, value)
        else if (key === 'required') (merged.required as string[]).push(...(value as string[]))
        else if (!(key in merged)) merged[key] = value
      }
      if (allOf.length === 1 && !refName) flat.refName = sub.refName
    })
    flat = { ...flat, schema: merged }
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const variants = flat.schema[key] as unknown[] | undefined
    if (!variants || variants.length !== 2) continue
    const nullIndex = variants.findIndex((v) => (v as Json).type === 'null')
    if (nullIndex < 0) continue
    const other = flatten(ctx, variants[1 - nullIndex], `${pointer}/${key}/${1 - nullIndex}`)
    const { [key]: _drop, ...rest } = flat.schema
    flat = { schema: { ...other.schema, ...rest }, refName: other.refName, nullable: true }
  }
  const type = flat.schema.type
  if (Array.isArray(type) && type.includes('null')) {
    const others = type.filter((t) => t !== 'null')
    flat = { ...flat, schema: { ...flat.schema, type: others.length === 1 ? others[0] : others }, nullable: true }
  }
  return flat
}

export function typeLabel(ctx: Context, flat: Flat, pointer: string): string {
  const { schema } = flat
  let label: string
  if (schema.type === 'array') {
    const item = flatten(ctx, schema.items ?? {}, `${pointer}/items`)
    label = `array of ${item.refName ?? typeLabel(ctx, item, `${pointer}/items`)}`
  } else if (Array.isArray(schema.type)) label = schema.type.join(' | ')
  else if (typeof schema.type === 'string') label = schema.type
  else if (schema.oneOf || schema.anyOf) {
    const key = schema.oneOf ? 'oneOf' : 'anyOf'
    label = (schema[key] as unknown[])
      .map((v, i) => {
        const f = flatten(ctx, v, `${pointer}/${key}/${i}`)
        return f.refName ?? typeLabel(ctx, f, `${pointer}/${key}/${i}`)
      })
      .join(' | ')
  } else if (schema.properties) label = 'object'
  else label = 'any'
  return flat.nullable ? `${label} | null` : label
}

function constraintsOf(schema: Json): string[] {
  const out: string[] = []
  const unit =
    schema.type === 'string'
      ? ' chars'
      : schema.type === 'array'
        ? ' items'
        : schema.type === 'object'
          ? ' members'
          : ''
  const pairs: [string, string, string][] = [
    ['minimum', '>=', ''],
    ['maximum', '<=', ''],
    ['exclusiveMinimum', '>', ''],
    ['exclusiveMaximum', '<', ''],
    ['minLength', '>=', unit],
    ['maxLength', '<=', unit],
    ['minItems', '>=', unit],
    ['maxItems', '<=', unit],
    ['minProperties', '>=', unit],
    ['maxProperties', '<=', unit],
  ]
  for (const [key, op, suffix] of pairs) if (typeof schema[key] === 'number') out.push(`${op} ${schema[key]}${suffix}`)
  if (typeof schema.pattern === 'string') out.push(`pattern ${schema.pattern}`)
  if (schema.uniqueItems === true) out.push('unique items')
  return out
}

/** The row describing one schema (without its children). */
export function describeSchema(
  ctx: Context,
  schema: unknown,
  pointer: string,
  name: string,
  depth: number,
  required: boolean,
  outerDescription?: string,
): { row: SchemaRow; flat: Flat } {
  const flat = flatten(ctx, schema, pointer)
  const s = flat.schema
  const examples = s.examples as unknown[] | undefined
  const row: SchemaRow = {
    name,
    depth,
    type: typeLabel(ctx, flat, pointer),
    required,
    ...(flat.refName && !['object', 'array'].includes(String(s.type)) ? { schemaName: flat.refName } : {}),
    ...(flat.refName && s.type === 'object' ? { schemaName: flat.refName } : {}),
  }
  const description = outerDescription ?? (s.description as string | undefined)
  if (description) row.description = description.trim()
  if (typeof s.format === 'string') row.format = s.format
  const enumValues = (s.enum ?? (s.const !== undefined ? [s.const] : undefined)) as unknown[] | undefined
  if (enumValues) row.enum = enumValues.map(formatValue)
  if (s.default !== undefined) row.default = formatValue(s.default)
  if (examples?.length && s.type !== 'object') row.example = formatValue(examples[0])
  const constraints = constraintsOf(s)
  if (constraints.length) row.constraints = constraints
  return { row, flat }
}

/**
 * Rows for a body or a nested schema. An object body yields one row per property (depth 0);
 * any other body yields a single `(body)` row.
 */
export function schemaRows(ctx: Context, schema: unknown, pointer: string, direction: Direction): SchemaRow[] {
  const flat = flatten(ctx, schema, pointer)
  if (flat.schema.type === 'object' || flat.schema.properties)
    return propertyRows(ctx, flat.schema, pointer, '', 0, direction)
  return [describeSchema(ctx, schema, pointer, '(body)', 0, true).row]
}

function hidden(schema: Json, direction: Direction): boolean {
  return (
    (direction === 'response' && schema.writeOnly === true) || (direction === 'request' && schema.readOnly === true)
  )
}

function propertyRows(
  ctx: Context,
  objectSchema: Json,
  pointer: string,
  prefix: string,
  depth: number,
  direction: Direction,
): SchemaRow[] {
  if (depth > MAX_DEPTH) throw ctx.spec.errorAt(pointer, `schema nests deeper than ${MAX_DEPTH} levels (recursive?)`)
  const rows: SchemaRow[] = []
  const required = new Set((objectSchema.required as string[] | undefined) ?? [])
  const properties = (objectSchema.properties ?? {}) as Json
  for (const [key, propSchema] of Object.entries(properties)) {
    const propPointer = `${pointer}/properties/${escapeToken(key)}`
    const outerDescription = (propSchema as Json).$ref
      ? undefined
      : ((propSchema as Json).description as string | undefined)
    const { row, flat } = describeSchema(
      ctx,
      propSchema,
      propPointer,
      prefix + key,
      depth,
      required.has(key),
      outerDescription,
    )
    if (hidden(flat.schema, direction)) continue
    rows.push(row)
    rows.push(...childRows(ctx, flat.schema, propPointer, prefix + key, depth + 1, direction))
  }
  return rows
}

function childRows(
  ctx: Context,
  schema: Json,
  pointer: string,
  name: string,
  depth: number,
  direction: Direction,
): SchemaRow[] {
  if (schema.type === 'object' || schema.properties)
    return propertyRows(ctx, schema, pointer, `${name}.`, depth, direction)
  if (schema.type === 'array' && schema.items) {
    const item = flatten(ctx, schema.items, `${pointer}/items`)
    if (item.schema.type === 'object' || item.schema.properties)
      return propertyRows(ctx, item.schema, `${pointer}/items`, `${name}[].`, depth, direction)
  }
  return []
}

/** Row examples taken from the operation's own example body, so a shared `CatalogName` shows `windows` for `platform`. */
export function fillExamples(rows: SchemaRow[], example: unknown): SchemaRow[] {
  if (example === null || typeof example !== 'object') return rows
  return rows.map((row) => {
    let value: unknown = example
    for (const part of row.name.split('.')) {
      const key = part.endsWith('[]') ? part.slice(0, -2) : part
      value = value !== null && typeof value === 'object' ? (value as Json)[key] : undefined
      if (part.endsWith('[]')) value = Array.isArray(value) ? value[0] : undefined
    }
    if (value === undefined || (value !== null && typeof value === 'object')) return row
    const text = formatValue(value)
    return text.length > 80 || text.includes('\n') ? row : { ...row, example: text }
  })
}
