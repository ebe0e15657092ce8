/**
 * @module Stage: the server's operation table (server/generated/operations.ts). Everything the
 * server routes, validates, authorises and invalidates by is read from the spec here, once, so
 * the server never parses the contract at run time and never imports the site's `public/`.
 */
import { BANNER, type Context, type Json } from '../context.ts'
import { escapeToken, toPointer } from '../../../json-pointer/index.ts'
import { METHODS } from '../transform/operation.ts'

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
function rebase(ctx: Context, node: unknown, pointer: string): unknown {
  if (Array.isArray(node)) return node.map((n, i) => rebase(ctx, n, `${pointer}/${i}`))
  if (node === null || typeof node !== 'object') return node
  const out: Json = {}
  for (const [key, value] of Object.entries(node)) {
    const at = `${pointer}/${escapeToken(key)}`
    if (key === '$ref') {
      if (typeof value !== 'string' || !value.startsWith(SCHEMA_REF)) throw ctx.spec.errorAt(at, 'a schema may only reference #/components/schemas/*')
      out.$ref = `${COMPONENTS_ID}#/schemas/${value.slice(SCHEMA_REF.length)}`
    } else if (ANNOTATIONS.has(key) || key.startsWith('x-')) {
      continue
    } else if (LITERALS.has(key)) {
      out[key] = value
    } else if (NAME_MAPS.has(key) && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, rebase(ctx, sub, `${at}/${escapeToken(name)}`)]))
    } else {
      out[key] = rebase(ctx, value, at)
    }
  }
  return out
}

/** The JSON type a raw query/path/header string is coerced to before validation. */
function primitiveType(ctx: Context, schema: unknown, pointer: string): string | undefined {
  const { node } = ctx.resolve<Json>(schema, pointer)
  return typeof node.type === 'string' ? node.type : undefined
}

interface Parameter { name: string; in: string; required: boolean; type?: string; schema: unknown; default?: unknown }

function parameters(ctx: Context, pathItem: Json, op: Json, pathPointer: string, opPointer: string): Parameter[] {
  const merged = new Map<string, Parameter>()
  const add = (list: unknown, base: string) =>
    ((list as unknown[] | undefined) ?? []).forEach((raw, i) => {
      const { node, pointer } = ctx.resolve<Json>(raw, `${base}/parameters/${i}`)
      const name = String(node.name)
      const location = String(node.in)
      if (location === 'cookie') throw ctx.spec.errorAt(pointer, 'cookie parameters are not supported by the server')
      const schema = ctx.resolve<Json>(node.schema ?? {}, `${pointer}/schema`).node
      const type = primitiveType(ctx, node.schema ?? {}, `${pointer}/schema`)
      merged.set(`${location}:${name}`, {
        name,
        in: location,
        required: node.required === true,
        ...(type ? { type } : {}),
        schema: rebase(ctx, node.schema ?? {}, `${pointer}/schema`),
        ...('default' in schema ? { default: schema.default } : {}),
      })
    })
  add(pathItem.parameters, pathPointer)
  add(op.parameters, opPointer)
  return [...merged.values()]
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
function resource(permission: string, params: Parameter[], body: Record<string, unknown> | undefined): Json | undefined {
  if (!permission.includes('.')) return undefined
  const inPath = (name: string) => params.some((p) => p.in === 'path' && p.name === name)
  if (permission.startsWith('apps.')) {
    if (inPath('app')) return { in: 'path', name: 'app' }
    if (body?.['application/json']) return { in: 'body', name: 'slug' }
    return undefined
  }
  return inPath('id') ? { in: 'path', name: 'id' } : undefined
}

function operationEntries(ctx: Context): { entries: Json[]; defaults: Map<string, string[]> } {
  const entries: Json[] = []
  const defaults = new Map<string, string[]>()
  for (const [path, rawItem] of Object.entries(ctx.doc.paths as Json)) {
    const pathItem = rawItem as Json
    for (const method of METHODS) {
      const op = pathItem[method] as Json | undefined
      if (!op) continue
      const pointer = toPointer(['paths', path, method])
      if (!SERVER_METHODS.includes(method)) throw ctx.spec.errorAt(pointer, `the server does not route ${method.toUpperCase()}`)
      const permission = op['x-ferry-permission']
      if (typeof permission !== 'string') throw ctx.spec.errorAt(pointer, 'operation needs `x-ferry-permission`')
      const invalidates = op['x-ferry-invalidates']
      if (method === 'get' && invalidates !== undefined) throw ctx.spec.errorAt(`${pointer}/x-ferry-invalidates`, 'a GET operation writes nothing to invalidate')
      if (method !== 'get' && !INVALIDATES.includes(invalidates as never)) {
        throw ctx.spec.errorAt(pointer, `a write operation must declare \`x-ferry-invalidates\`: ${INVALIDATES.join(', ')}`)
      }
      const params = parameters(ctx, pathItem, op, toPointer(['paths', path]), pointer)
      const requestBody = op.requestBody ? ctx.resolve<Json>(op.requestBody, `${pointer}/requestBody`) : undefined
      const body = requestBody ? content(ctx, requestBody.node, requestBody.pointer) : undefined
      const [bodyType, bodySchema] = body ? Object.entries(body)[0] ?? [] : []
      const responses: Json = {}
      for (const [status, raw] of Object.entries((op.responses ?? {}) as Json)) {
        const resolved = ctx.resolve<Json>(raw, `${pointer}/responses/${status}`)
        responses[status] = content(ctx, resolved.node, resolved.pointer)
      }
      const defaulted = params.filter((p) => p.in === 'query' && 'default' in p).map((p) => p.name)
      if (defaulted.length) defaults.set(String(op.operationId), defaulted)
      const where = resource(permission, params, body)
      entries.push({
        operationId: op.operationId,
        method,
        path,
        pointer,
        permission,
        ...(where ? { resource: where } : {}),
        ...(method !== 'get' ? { invalidates } : {}),
        parameters: params,
        ...(bodyType ? { body: { contentType: bodyType, required: requestBody?.node.required === true, schema: bodySchema ?? {} } } : {}),
        responses,
      })
    }
  }
  return { entries, defaults }
}

export function renderOperations(ctx: Context): string {
  const { entries, defaults } = operationEntries(ctx)
  const schemas = (ctx.doc.components as Json | undefined)?.schemas ?? {}
  const components = Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, rebase(ctx, schema, toPointer(['components', 'schemas', name]))]))
  const defaultLines = [...defaults].map(([id, names]) => `  ${id}: ${names.map((n) => `'${n}'`).join(' | ')}`)
  return [
    `// ${BANNER}`,
    '// The server\'s view of the contract: routes, permissions, invalidation, and ajv-ready schemas.',
    "import type { OperationSpec } from '../http/operation-spec.ts'",
    '',
    `export const COMPONENTS_ID = '${COMPONENTS_ID}'`,
    '',
    '/** `#/components/schemas` of the spec, registered with ajv under `COMPONENTS_ID`. */',
    `export const componentSchemas: Record<string, unknown> = ${JSON.stringify({ schemas: components }, null, 2)}`,
    '',
    '/** Query parameters with a default: always present once validated. */',
    'export interface QueryDefaults {',
    ...defaultLines,
    '}',
    '',
    '/** Every operation of the contract, in spec order. */',
    `export const operations: readonly OperationSpec[] = ${JSON.stringify(entries, null, 2)}`,
    '',
  ].join('\n')
}
