/**
 * @module The API contract as data: the operations of `public/openapi.json` (generated from
 * `openapi/openapi.yaml`), imported as a module so it also loads in the browser without fs.
 */
import specJson from '../public/openapi.json' with { type: 'json' }
import type { operations as GeneratedOperations } from './generated/api.ts'

export type OperationId = keyof GeneratedOperations
export type HttpMethod = 'get' | 'post' | 'patch' | 'delete'

export type JsonSchema = Record<string, unknown>

export interface SpecParameter {
  name: string
  /** `name` in lower case (header lookups). */
  lowerName: string
  in: 'path' | 'query' | 'header'
  required: boolean
  schema: JsonSchema
}

/** Who may call an operation (`x-ferry-permission`). */
export type PermissionName =
  | 'public' | 'signupKey' | 'authenticated' | 'admin'
  | `apps.${'create' | 'edit' | 'delete' | 'upload' | 'download'}`
  | `${'channels' | 'platforms' | 'archs'}.${'create' | 'edit' | 'delete'}`

export interface SpecOperation {
  operationId: OperationId
  method: HttpMethod
  /** OpenAPI path template, e.g. `/v1/apps/{app}`. */
  path: string
  /** JSON pointer of the operation in the spec, for error messages. */
  pointer: string
  permission: PermissionName
  parameters: SpecParameter[]
  /** The request body's content type and schema, when the operation takes one. */
  body?: { contentType: string; schema: JsonSchema }
  /** Response status codes → content type → schema (absent for bodiless responses). */
  responses: Record<string, Record<string, JsonSchema | undefined>>
}

interface RawParameter { $ref?: string; name?: string; in?: string; required?: boolean; schema?: JsonSchema }
interface RawOperation {
  operationId: string
  'x-ferry-permission': string
  parameters?: RawParameter[]
  requestBody?: { content: Record<string, { schema: JsonSchema }> }
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: JsonSchema }> }>
}
interface RawSpec {
  info: { version: string }
  paths: Record<string, Record<string, RawOperation | RawParameter[]>>
  components: {
    parameters: Record<string, RawParameter>
    responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>
    schemas: Record<string, JsonSchema>
  }
}

export const spec = specJson as unknown as RawSpec

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1')

function resolveParameter(p: RawParameter, pointer: string): SpecParameter {
  const target = p.$ref ? spec.components.parameters[p.$ref.replace('#/components/parameters/', '')] : p
  if (!target?.name || !target.in || !target.schema) throw new Error(`unresolvable parameter at ${pointer}`)
  return {
    name: target.name,
    lowerName: target.name.toLowerCase(),
    in: target.in as SpecParameter['in'],
    required: Boolean(target.required),
    schema: target.schema,
  }
}

function buildOperations(): SpecOperation[] {
  const ops: SpecOperation[] = []
  for (const [path, item] of Object.entries(spec.paths)) {
    const shared = (item.parameters as RawParameter[] | undefined) ?? []
    for (const method of ['get', 'post', 'patch', 'delete'] as const) {
      const op = item[method] as RawOperation | undefined
      if (!op) continue
      const pointer = `#/paths/${escapePointer(path)}/${method}`
      const parameters = [...shared, ...(op.parameters ?? [])].map((p, i) => resolveParameter(p, `${pointer}/parameters/${i}`))
      const bodyEntry = op.requestBody ? Object.entries(op.requestBody.content)[0] : undefined
      const responses: SpecOperation['responses'] = {}
      for (const [status, raw] of Object.entries(op.responses)) {
        const resolved = raw.$ref ? spec.components.responses[raw.$ref.replace('#/components/responses/', '')] : raw
        responses[status] = Object.fromEntries(
          Object.entries(resolved?.content ?? {}).map(([type, media]) => [type, media.schema]),
        )
      }
      ops.push({
        operationId: op.operationId as OperationId,
        method,
        path,
        pointer,
        permission: op['x-ferry-permission'] as PermissionName,
        parameters,
        ...(bodyEntry ? { body: { contentType: bodyEntry[0], schema: bodyEntry[1].schema } } : {}),
        responses,
      })
    }
  }
  return ops
}

/** Every operation of the contract, in spec order. */
export const operations: readonly SpecOperation[] = buildOperations()

export function operationById(id: OperationId): SpecOperation {
  const op = operations.find((o) => o.operationId === id)
  if (!op) throw new Error(`operation not in spec: ${id}`)
  return op
}
