/**
 * @module Request validation against the contract: every schema is compiled with ajv from
 * the spec itself, and every failure names its body member (`pointer`) or parameter (`field`).
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { spec, type JsonSchema, type SpecOperation, type SpecParameter } from './spec.ts'
import { validationProblem, type FieldError } from './problem.ts'

const COMPONENTS_ID = 'ferry:components'

/** Points `#/components/...` refs at the registered components document. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase)
  if (schema && typeof schema === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(schema)) {
      out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/components/') ? COMPONENTS_ID + v : rebase(v)
    }
    return out
  }
  return schema
}

function makeAjv(useDefaults: boolean): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, useDefaults })
  addFormats.default(ajv)
  for (const format of ['password', 'binary', 'int64']) ajv.addFormat(format, true)
  ajv.addSchema({ $id: COMPONENTS_ID, components: spec.components })
  return ajv
}

/** Validates requests (applies schema defaults) */
const requestAjv = makeAjv(true)
/** Validates responses in tests (never mutates) */
const responseAjv = makeAjv(false)

const requestCache = new Map<unknown, ValidateFunction>()
/** A request validator for one schema of the spec (compiled once). */
export function schemaFor(schema: JsonSchema): ValidateFunction {
  let fn = requestCache.get(schema)
  if (!fn) {
    fn = requestAjv.compile(rebase(schema) as JsonSchema)
    requestCache.set(schema, fn)
  }
  return fn
}

const responseCache = new Map<unknown, ValidateFunction>()
/** A validator for response bodies (no default-filling), for tests. */
export function responseValidator(schema: JsonSchema): ValidateFunction {
  let fn = responseCache.get(schema)
  if (!fn) {
    fn = responseAjv.compile(rebase(schema) as JsonSchema)
    responseCache.set(schema, fn)
  }
  return fn
}

function message(e: ErrorObject): string {
  if (e.keyword === 'pattern') return `must match ${String(e.params.pattern)}`
  return e.message ?? 'is invalid'
}

/** ajv errors → field errors with a JSON pointer into the body. */
export function bodyErrors(errors: ErrorObject[] | null | undefined): FieldError[] {
  const out: FieldError[] = []
  const seen = new Set<string>()
  for (const e of errors ?? []) {
    // `oneOf`/`allOf` wrappers repeat what their branches said.
    if (e.keyword === 'oneOf' || e.keyword === 'allOf' || e.keyword === 'anyOf') continue
    const pointer = e.keyword === 'required' ? `${e.instancePath}/${String(e.params.missingProperty)}` : e.instancePath || '/'
    const text = e.keyword === 'required' ? 'is required' : message(e)
    const key = `${pointer} ${text}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push({ pointer, message: text })
  }
  return out
}

function resolvedType(schema: JsonSchema): string | undefined {
  if (typeof schema.type === 'string') return schema.type
  const ref = schema.$ref
  if (typeof ref === 'string') {
    const target = spec.components.schemas[ref.replace('#/components/schemas/', '')]
    return target ? resolvedType(target) : undefined
  }
  return undefined
}

/** Turns a raw query/path/header string into the parameter's JSON type, or leaves it as is. */
function coerce(raw: string, type: string | undefined): unknown {
  if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw
  return raw
}

export interface ParsedParams {
  path: Record<string, string>
  query: Record<string, unknown>
  header: Record<string, string | undefined>
}

interface CompiledParam {
  param: SpecParameter
  check: ValidateFunction
  type: string | undefined
  fallback: { value: unknown } | undefined
}
const compiledParams = new WeakMap<SpecOperation, CompiledParam[]>()

function paramsOf(op: SpecOperation): CompiledParam[] {
  let list = compiledParams.get(op)
  if (!list) {
    list = op.parameters.map((param) => ({
      param,
      check: schemaFor(param.schema),
      type: resolvedType(param.schema),
      fallback: param.in === 'query' && 'default' in param.schema ? { value: param.schema.default } : undefined,
    }))
    compiledParams.set(op, list)
  }
  return list
}

/** Validates path, query and header parameters; throws a 400 naming each bad one. */
export function validateParams(
  op: SpecOperation,
  get: (p: SpecParameter) => string | undefined,
): ParsedParams {
  let errors: FieldError[] | undefined
  const out: ParsedParams = { path: {}, query: {}, header: {} }
  for (const { param: p, check, type, fallback } of paramsOf(op)) {
    const raw = get(p)
    if (raw === undefined || raw === '') {
      if (p.required) (errors ??= []).push({ field: p.name, message: 'is required' })
      else if (fallback) out.query[p.name] = fallback.value
      continue
    }
    const value = coerce(raw, type)
    if (!check(value)) {
      for (const e of check.errors ?? []) (errors ??= []).push({ field: p.name, message: message(e) })
      continue
    }
    if (p.in === 'path') out.path[p.name] = raw
    else if (p.in === 'query') out.query[p.name] = value
    else out.header[p.name.toLowerCase()] = raw
  }
  if (errors) throw validationProblem(errors)
  return out
}

/** Validates a parsed JSON body (applying schema defaults in place). */
export function validateBody(schema: JsonSchema, body: unknown): void {
  const check = schemaFor(schema)
  if (!check(body)) throw validationProblem(bodyErrors(check.errors))
}
