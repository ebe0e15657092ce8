/**
 * fast-check arbitraries derived from the contract's JSON schemas: values that satisfy a schema
 * (types, lengths, enums, patterns, required members, ranges), values that break it in one
 * place, and hostile strings. `known(name, schema)` supplies values that exist in the fuzzed server
 * (slugs, ids, catalog names) so valid requests get past lookups and reach deep handler code.
 */
import fc from 'fast-check'

export type JsonSchema = Record<string, unknown>

/** Strings that have broken parsers, routers, SQL and HTML before. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t',
  '\u0000',
  'a\u0000b',
  '\u0000.exe',
  '\r\n',
  'a\r\nX-Injected: 1',
  '\u202e',
  '\ufeff',
  '\ud800',
  '\udfff',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '..',
  '.',
  '/',
  '//',
  '%2e%2e%2f',
  '..%2F..%2F',
  '%00',
  '%',
  '%zz',
  '%C0%80',
  '%ff',
  "' OR '1'='1",
  "'; DROP TABLE apps; --",
  '" OR ""="',
  '1; SELECT * FROM users',
  'sqlite_master',
  '%_%',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '{{7*7}}',
  '${7*7}',
  '`id`',
  '$(id)',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'true',
  'false',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '-0',
  '1e309',
  '9'.repeat(400),
  '0x10',
  '1_000',
  '１２３',
  '١٢٣',
  'ＡＢＣ',
  'İ',
  'ß',
  'ﬀ',
  '🦀',
  '👩‍👩‍👧‍👦',
  'e\u0301',
  'a'.repeat(256),
  'a'.repeat(257),
  'a'.repeat(5_000),
  'x'.repeat(70_000),
  '🦀'.repeat(3_000),
  'v1.0.0',
  ' 1.0.0',
  '1.0.0 ',
  '1.0.0-01',
  '99999999999999999999.0.0',
  '1.0.0-a..b',
  '1.0.0+',
  '01.0.0',
  'Bearer',
  'Bearer ',
  'Bearer null',
  'Basic YTpi',
  'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
  'eyJhbGciOiJIUzI1NiJ9.e30.',
]

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 2 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom(...HOSTILE_STRINGS), fc.constantFrom(...HOSTILE_STRINGS))
      .map(([a, b]) => a + b),
    weight: 1,
  },
)

/** JSON nested `depth` levels deep, as text (objects and arrays). */
export const deepJson = (depth: number, kind: 'array' | 'object') =>
  kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)

const WRONG_TYPES: readonly unknown[] = [null, true, 0, -1, 1.5, 1e308, '', 'string', [], [1, 'a'], {}, { a: 1 }]

export interface SchemaArbitraries {
  /** Values that satisfy `schema`; `name` (a parameter or member name) picks known values. */
  valid(schema: JsonSchema, name?: string): fc.Arbitrary<unknown>
  /** Values that break `schema` in one place, or hostile values. */
  invalid(schema: JsonSchema): fc.Arbitrary<unknown>
  /** Either, mostly valid: what a fuzzed request member gets. */
  any(schema: JsonSchema, name?: string): fc.Arbitrary<unknown>
}

export function schemaArbitraries(
  components: Record<string, JsonSchema>,
  known: (name: string, schema: JsonSchema) => readonly unknown[],
): SchemaArbitraries {
  function resolve(schema: JsonSchema): JsonSchema {
    const ref = schema.$ref
    if (typeof ref !== 'string') {
      const allOf = schema.allOf
      if (!Array.isArray(allOf)) return schema
      const { allOf: _, ...rest } = schema
      return allOf.reduce<JsonSchema>((merged, part: JsonSchema) => ({ ...resolve(part), ...merged }), rest)
    }
    // `ferry:components#/schemas/X` in the generated table, `#/components/schemas/X` in the spec.
    const target = components[ref.split('/').pop() ?? '']
    if (!target) throw new Error(`unresolvable ${ref}`)
    const { $ref: _, ...rest } = schema
    return { ...resolve(target), ...rest }
  }

  const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined)
  const types = (s: JsonSchema): string[] =>
    Array.isArray(s.type) ? s.type.map(String) : typeof s.type === 'string' ? [s.type] : []

  function validString(s: JsonSchema): fc.Arbitrary<string> {
    const minLength = num(s.minLength) ?? 0
    const maxLength = num(s.maxLength)
    const fits = (v: string) => v.length >= minLength && (maxLength === undefined || v.length <= maxLength)
    if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern)).filter(fits)
    if (s.format === 'email') return fc.emailAddress().filter(fits)
    if (s.format === 'date')
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10))
    if (s.format === 'date-time')
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString())
    const cap = Math.min(maxLength ?? 40, Math.max(minLength, 40))
    return fc
      .oneof(fc.string({ minLength, maxLength: cap }), fc.string({ minLength, maxLength: cap, unit: 'grapheme' }))
      .filter(fits)
  }

  // Arbitraries are built once per schema (and member name): building one, a pattern's above
  // all, costs far more than drawing a value from it.
  const memo = new WeakMap<JsonSchema, Map<string, fc.Arbitrary<unknown>>>()
  function memoized(schema: JsonSchema, key: string, build: () => fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
    let bySchema = memo.get(schema)
    if (!bySchema) memo.set(schema, (bySchema = new Map()))
    let arbitrary = bySchema.get(key)
    if (!arbitrary) bySchema.set(key, (arbitrary = build()))
    return arbitrary
  }

  function valid(schema: JsonSchema, name?: string): fc.Arbitrary<unknown> {
    return memoized(schema, `valid ${name ?? ''}`, () => buildValid(schema, name))
  }

  function buildValid(schema: JsonSchema, name?: string): fc.Arbitrary<unknown> {
    const s = resolve(schema)
    const base = validUnnamed(s)
    const values = name === undefined ? [] : known(name, schema)
    return values.length
      ? fc.oneof({ arbitrary: fc.constantFrom(...values), weight: 3 }, { arbitrary: base, weight: 1 })
      : base
  }

  function validUnnamed(s: JsonSchema): fc.Arbitrary<unknown> {
    if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]))
    if ('const' in s) return fc.constant(s.const)
    for (const key of ['oneOf', 'anyOf'] as const) {
      const options = s[key]
      if (Array.isArray(options)) return fc.oneof(...options.map((o: JsonSchema) => valid(o)))
    }
    const kinds = types(s)
    if (kinds.length > 1) return fc.oneof(...kinds.map((type) => validUnnamed({ ...s, type })))
    switch (kinds[0]) {
      case 'string':
        return validString(s)
      case 'integer':
        return fc.integer({ min: num(s.minimum) ?? -1_000_000, max: num(s.maximum) ?? 1_000_000 })
      case 'number':
        return fc.double({ min: num(s.minimum) ?? -1e6, max: num(s.maximum) ?? 1e6, noNaN: true })
      case 'boolean':
        return fc.boolean()
      case 'null':
        return fc.constant(null)
      case 'array': {
        const items = typeof s.items === 'object' && s.items ? (s.items as JsonSchema) : {}
        const minLength = num(s.minItems) ?? 0
        return fc.array(valid(items), { minLength, maxLength: Math.max(minLength, Math.min(num(s.maxItems) ?? 4, 4)) })
      }
      case 'object':
        return validObject(s)
      default:
        return fc.jsonValue({ maxDepth: 2 })
    }
  }

  function validObject(s: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
    const properties = (s.properties ?? {}) as Record<string, JsonSchema>
    const required = Array.isArray(s.required) ? s.required.map(String) : []
    const model: Record<string, fc.Arbitrary<unknown>> = {}
    for (const [key, schema] of Object.entries(properties)) {
      if (schema.readOnly === true) continue
      model[key] = valid(schema, key)
    }
    const minProperties = num(s.minProperties) ?? 0
    return fc
      .record(model, { requiredKeys: required.filter((k) => k in model) })
      .filter((o) => Object.keys(o).length >= minProperties) as fc.Arbitrary<Record<string, unknown>>
  }

  function invalid(schema: JsonSchema): fc.Arbitrary<unknown> {
    return memoized(schema, 'invalid', () => buildInvalid(schema))
  }

  function buildInvalid(schema: JsonSchema): fc.Arbitrary<unknown> {
    const s = resolve(schema)
    const breakers: fc.Arbitrary<unknown>[] = [fc.constantFrom(...WRONG_TYPES), hostileString]
    const kinds = types(s)
    if (Array.isArray(s.enum))
      breakers.push(fc.constantFrom('not-in-enum', String(s.enum[0]).toUpperCase(), ` ${String(s.enum[0])}`))
    if (kinds.includes('string')) {
      const maxLength = num(s.maxLength)
      const minLength = num(s.minLength)
      if (maxLength !== undefined) breakers.push(fc.constant('a'.repeat(maxLength + 1)))
      if (minLength !== undefined && minLength > 0) breakers.push(fc.constant('a'.repeat(minLength - 1)))
      // A valid value with a hostile prefix or suffix breaks a pattern while staying close to it.
      breakers.push(
        fc.tuple(validString(s), hostileString, fc.boolean()).map(([v, h, before]) => (before ? h + v : v + h)),
      )
    }
    if (kinds.includes('integer') || kinds.includes('number')) {
      const minimum = num(s.minimum)
      const maximum = num(s.maximum)
      breakers.push(
        fc.constantFrom(
          ...(minimum !== undefined ? [minimum - 1] : []),
          ...(maximum !== undefined ? [maximum + 1] : []),
          0.5,
          -1,
          2 ** 53 + 2,
          -(2 ** 63),
          1e308,
          '1',
          'NaN',
        ),
      )
    }
    if (kinds.includes('array')) {
      const items = typeof s.items === 'object' && s.items ? (s.items as JsonSchema) : {}
      breakers.push(
        fc.array(invalid(items), { minLength: 1, maxLength: 3 }),
        fc.constant(Array.from({ length: 2000 }, (_, i) => i)),
      )
    }
    if (kinds.includes('object')) breakers.push(invalidObject(s))
    return fc.oneof(...breakers)
  }

  function invalidObject(s: JsonSchema): fc.Arbitrary<unknown> {
    const properties = (s.properties ?? {}) as Record<string, JsonSchema>
    const required = Array.isArray(s.required) ? s.required.map(String) : []
    const keys = Object.keys(properties)
    const options: fc.Arbitrary<unknown>[] = [
      // Extra members with hostile names.
      fc
        .tuple(validObject(s), fc.dictionary(hostileString, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }))
        .map(([o, extra]) => ({ ...extra, ...o })),
      fc.constant({}),
      fc.constant(JSON.parse(deepJson(200, 'object'))),
    ]
    if (required.length) {
      options.push(
        fc.tuple(validObject(s), fc.constantFrom(...required)).map(([o, drop]) => {
          const { [drop]: _, ...rest } = o
          return rest
        }),
      )
    }
    for (const key of keys) {
      options.push(fc.tuple(validObject(s), invalid(properties[key]!)).map(([o, bad]) => ({ ...o, [key]: bad })))
    }
    return fc.oneof(...options)
  }

  return {
    valid,
    invalid,
    any: (schema, name) =>
      fc.oneof({ arbitrary: valid(schema, name), weight: 3 }, { arbitrary: invalid(schema), weight: 2 }),
  }
}
