/**
 * @module Operation Object → the server's row of the operation table: routes, permissions,
 * invalidation and ajv-ready schemas. Runs inside the one walk of the spec
 * (transform/operation.ts), on the parameters that walk has already merged.
 */
import type { Context, Json, Resolved } from '../context.ts'
import { escapeToken, toPointer } from '../../../contract/json-pointer.ts'
import type { ServerOperationModel, ServerParameterModel } from '../model.ts'

/** Where component schemas live for ajv: every `$ref` in the table points into this document. */
export const COMPONENTS_ID = 'ferry:components'
const SCHEMA_REF = '#/components/schemas/'
const INVALIDATES = ['app', 'team', 'none'] as const
const SERVER_METHODS = ['get', 'post', 'patch', 'delete']

const ANNOTATIONS = new Set(['example', 'examples', 'description', 'title', '$comment'])
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas'])
const LITERALS = new Set(['default', 'enum', 'const'])

/**
 * A schema as ajv needs it: `#/components/schemas/X` points into the registered components
 * document (other refs are errors) and annotations are dropped (they only cost bundle size).
 */
export function rebase(ctx: Context, node: unknown, pointer: string): unknown {
  if (Array.isArray(node)) return node.map((n, i) => rebase(ctx, n, `${pointer}/${i}`))
  if (node === null || typeof node !== 'object') return node
  const out: Json = {}
  for (const [key, value] of Object.entries(node)) {
    const at = `${pointer}/${escapeToken(key)}`
    if (key === '$ref') {
      if (typeof value !== 'string' || !value.startsWith(SCHEMA_REF))
        throw ctx.spec.errorAt(at, 'a schema may only reference #/components/schemas/*')
      out.$ref = `${COMPONENTS_ID}#/schemas/${value.slice(SCHEMA_REF.length)}`
    } else if (ANNOTATIONS.has(key) || key.startsWith('x-')) {
      continue
    } else if (LITERALS.has(key)) {
      out[key] = value
    } else if (NAME_MAPS.has(key) && value && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, rebase(ctx, sub, `${at}/${escapeToken(name)}`)]),
      )
    } else {
      out[key] = rebase(ctx, value, at)
    }
  }
  return out
}

/** `#/components/schemas` of the spec, as ajv registers it under `COMPONENTS_ID`. */
export function transformComponents(ctx: Context): Json {
  const schemas = ((ctx.doc.components as Json | undefined)?.schemas ?? {}) as Json
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [
      name,
      rebase(ctx, schema, toPointer(['components', 'schemas', name])),
    ]),
  )
}

function serverParameter(ctx: Context, { node, pointer }: Resolved<Json>): ServerParameterModel {
  const location = String(node.in)
  if (location === 'cookie') throw ctx.spec.errorAt(pointer, 'cookie parameters are not supported by the server')
  const schema = ctx.resolve<Json>(node.schema ?? {}, `${pointer}/schema`).node
  // The JSON type a raw query/path/header string is coerced to before validation.
  const type = typeof schema.type === 'string' ? schema.type : undefined
  return {
    name: String(node.name),
    in: location,
    required: node.required === true,
    ...(type ? { type } : {}),
    schema: rebase(ctx, node.schema ?? {}, `${pointer}/schema`),
    ...('default' in schema ? { default: schema.default } : {}),
  }
}

function content(ctx: Context, container: Json, pointer: string): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [type, media] of Object.entries((container.content ?? {}) as Json)) {
    const schema = (media as Json).schema
    out[type] = schema === undefined ? null : rebase(ctx, schema, `${pointer}/content/${escapeToken(type)}/schema`)
  }
  return out
}

/** Where a matrix permission's allowed list is checked: the app slug, or a catalog entry's id. */
function resource(
  permission: string,
  params: ServerParameterModel[],
  body: Record<string, unknown> | undefined,
): ServerOperationModel['resource'] {
  if (!permission.includes('.')) return undefined
  const inPath = (name: string) => params.some((p) => p.in === 'path' && p.name === name)
  if (permission.startsWith('apps.')) {
    if (inPath('app')) return { in: 'path', name: 'app' }
    if (body?.['application/json']) return { in: 'body', name: 'slug' }
    return undefined
  }
  return inPath('id') ? { in: 'path', name: 'id' } : undefined
}

export interface ServerOperationInput {
  operation: Json
  method: string
  path: string
  pointer: string
  operationId: string
  /** `x-ferry-permission`, already required by the page transform. */
  permission: string
  /** Path-item and operation parameters, merged (the operation wins on name and `in`). */
  parameters: Resolved<Json>[]
}

export function transformServerOperation(ctx: Context, input: ServerOperationInput): ServerOperationModel {
  const { operation: op, method, path, pointer, permission } = input
  if (!SERVER_METHODS.includes(method))
    throw ctx.spec.errorAt(pointer, `the server does not route ${method.toUpperCase()}`)
  const invalidates = op['x-ferry-invalidates']
  if (method === 'get' && invalidates !== undefined)
    throw ctx.spec.errorAt(`${pointer}/x-ferry-invalidates`, 'a GET operation writes nothing to invalidate')
  if (method !== 'get' && !INVALIDATES.includes(invalidates as never)) {
    throw ctx.spec.errorAt(pointer, `a write operation must declare \`x-ferry-invalidates\`: ${INVALIDATES.join(', ')}`)
  }
  const params = input.parameters.map((p) => serverParameter(ctx, p))
  const requestBody = op.requestBody ? ctx.resolve<Json>(op.requestBody, `${pointer}/requestBody`) : undefined
  const body = requestBody ? content(ctx, requestBody.node, requestBody.pointer) : undefined
  const [bodyType, bodySchema] = body ? (Object.entries(body)[0] ?? []) : []
  const responses: Record<string, Record<string, unknown>> = {}
  for (const [status, raw] of Object.entries((op.responses ?? {}) as Json)) {
    const resolved = ctx.resolve<Json>(raw, `${pointer}/responses/${status}`)
    responses[status] = content(ctx, resolved.node, resolved.pointer)
  }
  const where = resource(permission, params, body)
  return {
    operationId: input.operationId,
    method,
    path,
    pointer,
    permission,
    ...(where ? { resource: where } : {}),
    ...(method !== 'get' ? { invalidates: String(invalidates) } : {}),
    parameters: params,
    ...(bodyType
      ? { body: { contentType: bodyType, required: requestBody?.node.required === true, schema: bodySchema ?? {} } }
      : {}),
    responses,
  }
}
