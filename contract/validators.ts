/**
 * @module The contract's validators: ajv over the generated table's schemas, shared by the
 * server (requests), and by everything that checks an answer against the contract (Try it,
 * `ferry mcp`, the CLI, the tests). Errors are named by JSON pointer.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { escapeToken } from './json-pointer.ts'
import { COMPONENTS_ID, componentSchemas } from './generated/operations.ts'

export type { ErrorObject, ValidateFunction }

/** An ajv instance with the contract's components registered; `useDefaults` fills schema defaults in. */
export function contractAjv(useDefaults: boolean): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, useDefaults })
  addFormats.default(ajv)
  for (const format of ['password', 'binary', 'int64']) ajv.addFormat(format, true)
  ajv.addSchema(componentSchemas, COMPONENTS_ID)
  return ajv
}

const responseAjv = contractAjv(false)
const responseCache = new Map<unknown, ValidateFunction>()

/** A validator for answer bodies (never fills defaults in), compiled once per schema. */
export function responseValidator(schema: unknown): ValidateFunction {
  let fn = responseCache.get(schema)
  if (!fn) {
    fn = responseAjv.compile(schema as object)
    responseCache.set(schema, fn)
  }
  return fn
}

/** ajv's message for one error, with a pattern named. */
export function ajvMessage(e: ErrorObject): string {
  if (e.keyword === 'pattern') return `must match ${String(e.params.pattern)}`
  return e.message ?? 'is invalid'
}

/** ajv errors → one error per member and problem, with a JSON pointer into the body. */
export function bodyErrors(errors: ErrorObject[] | null | undefined): { pointer: string; message: string }[] {
  const out: { pointer: string; message: string }[] = []
  const seen = new Set<string>()
  for (const e of errors ?? []) {
    // `oneOf`/`allOf` wrappers repeat what their branches said.
    if (e.keyword === 'oneOf' || e.keyword === 'allOf' || e.keyword === 'anyOf') continue
    const member =
      e.keyword === 'required'
        ? e.params.missingProperty
        : e.keyword === 'additionalProperties'
          ? e.params.additionalProperty
          : undefined
    const pointer = member !== undefined ? `${e.instancePath}/${escapeToken(String(member))}` : e.instancePath || '/'
    const text =
      e.keyword === 'required'
        ? 'is required'
        : e.keyword === 'additionalProperties'
          ? 'is not a member of this request; check its spelling'
          : ajvMessage(e)
    const key = `${pointer} ${text}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push({ pointer, message: text })
  }
  return out
}
