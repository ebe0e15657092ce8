/**
 * @module Request validation against the contract: ajv compiles the generated table's schemas
 * into type guards, so a validated request *is* the operation's `Input<K>`; every failure names
 * its body member (`pointer`) or parameter (`field`).
 */
import { escapeToken, pointerTokens } from '../../contract/json-pointer.ts'
import {
  ajvMessage,
  bodyErrors,
  contractAjv,
  responseValidator,
  type ErrorObject,
  type ValidateFunction,
} from '../../contract/validators.ts'
import type {
  HeaderParams,
  JsonBody,
  JsonSchema,
  OperationId,
  OperationSpec,
  ParameterSpec,
  PathParams,
  QueryParams,
} from './spec.ts'
import { validationProblem, type FieldError } from '../core/problem.ts'

/** Validates requests (applies schema defaults). */
const requestAjv = contractAjv(true)

const requestCache = new Map<unknown, ValidateFunction>()
/** A request validator for one schema of the table (compiled once). */
export function schemaFor(schema: JsonSchema): ValidateFunction {
  let fn = requestCache.get(schema)
  if (!fn) {
    fn = requestAjv.compile(schema)
    requestCache.set(schema, fn)
  }
  return fn
}

/** A typed request validator for a schema of the table that is not a JSON body (multipart fields). */
export function compileSchema<T>(schema: JsonSchema): ValidateFunction<T> {
  return requestAjv.compile<T>(schema)
}

export { bodyErrors, responseValidator }

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * Why no backend can store this text, or `undefined`: PostgreSQL refuses U+0000 in text and
 * JSON, and a lone surrogate is not Unicode (drivers would store U+FFFD instead). Refused on
 * SQLite too, so both backends answer alike.
 */
export function unstorableText(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain U+0000 (NUL)'
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode text (it holds a lone surrogate)'
  return undefined
}

/** Field errors for every string of a JSON value (member names included) that `unstorableText` refuses. */
export function unstorableTextErrors(value: unknown): FieldError[] {
  const out: FieldError[] = []
  // A stack rather than recursion: how deep a body nests is the client's choice.
  const pending: Array<[unknown, string]> = [[value, '']]
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, pointer] = next
    if (typeof item === 'string') {
      const why = unstorableText(item)
      if (why) out.push({ pointer: pointer || '/', message: why })
    } else if (Array.isArray(item)) {
      item.forEach((member, i) => pending.push([member, `${pointer}/${i}`]))
    } else if (item && typeof item === 'object') {
      for (const [name, member] of Object.entries(item)) {
        const at = `${pointer}/${escapeToken(name)}`
        const why = unstorableText(name)
        if (why) out.push({ pointer: at, message: `name ${why}` })
        pending.push([member, at])
      }
    }
  }
  return out.reverse()
}

/** Turns a raw query/path/header string into the parameter's JSON type, or leaves it as is. */
function coerce(raw: string, type: string | undefined): unknown {
  if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw
  return raw
}

export interface Params<K extends OperationId> {
  path: PathParams<K>
  query: QueryParams<K>
  header: HeaderParams<K>
}

type Location = ParameterSpec['in']
const LOCATIONS: readonly Location[] = ['path', 'query', 'header']

/** One object schema for all of an operation's parameters: `{ path: {...}, query: {...}, header: {...} }`. */
function paramsSchema(op: OperationSpec): JsonSchema {
  const section = (where: Location) => {
    const params = op.parameters.filter((p) => p.in === where)
    return {
      type: 'object',
      properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
      required: params.filter((p) => p.required).map((p) => p.name),
    }
  }
  return { type: 'object', properties: Object.fromEntries(LOCATIONS.map((where) => [where, section(where)])) }
}

/** `/query/limit` → `limit`; a missing required one names itself. */
function paramErrors(errors: ErrorObject[] | null | undefined): FieldError[] {
  const out: FieldError[] = []
  for (const e of errors ?? []) {
    const tokens = pointerTokens(e.instancePath).slice(1)
    const field = e.keyword === 'required' ? String(e.params.missingProperty) : tokens[0]
    if (field === undefined) continue
    out.push({ field, message: e.keyword === 'required' ? 'is required' : ajvMessage(e) })
  }
  return out
}

export interface OperationValidator<K extends OperationId> {
  /** Reads and validates path, query and header parameters; throws a 400 naming each bad one. */
  params(get: (p: ParameterSpec, lowerName: string) => string | undefined): Params<K>
  /** Validates a parsed JSON body (applying schema defaults in place); throws a 400 naming each bad member. */
  body(raw: unknown): JsonBody<K>
}

/**
 * Compiles one operation's validators. The type parameters given to ajv are what makes the
 * checked value typed: the schemas are the same spec openapi-typescript wrote the types from.
 */
export function operationValidator<K extends OperationId>(op: OperationSpec): OperationValidator<K> {
  const checkParams = requestAjv.compile<Params<K>>(paramsSchema(op))
  const readers = op.parameters.map((p) => ({ p, lower: p.name.toLowerCase() }))
  const bodySchema = op.body?.contentType === 'application/json' ? op.body.schema : undefined
  const checkBody = bodySchema
    ? requestAjv.compile<JsonBody<K>>(bodySchema)
    : (value: unknown): value is JsonBody<K> => value === undefined
  return {
    params(get) {
      const raw: Record<Location, Record<string, unknown>> = { path: {}, query: {}, header: {} }
      const unstorable: FieldError[] = []
      for (const { p, lower } of readers) {
        const value = get(p, lower)
        // An empty value is an absent one: `?cursor=` asks for the first page.
        if (value === undefined || value === '') continue
        raw[p.in][p.name] = coerce(value, p.type)
        const why = unstorableText(value)
        if (why) unstorable.push({ field: p.name, message: why })
      }
      if (!checkParams(raw)) {
        const errors = paramErrors(checkParams.errors)
        throw validationProblem([...errors, ...unstorable.filter((u) => !errors.some((e) => e.field === u.field))])
      }
      if (unstorable.length) throw validationProblem(unstorable)
      return raw
    },
    body(value) {
      if (checkBody(value)) {
        const unstorable = unstorableTextErrors(value)
        if (unstorable.length) throw validationProblem(unstorable)
        return value
      }
      const errors = 'errors' in checkBody ? bodyErrors(checkBody.errors) : []
      throw validationProblem(errors.length ? errors : [{ pointer: '/', message: 'must be empty' }])
    },
  }
}
