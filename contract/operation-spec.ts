/**
 * @module The shape of one row of the generated operation table (`contract/generated/operations.ts`
 * imports it from here, so the table and `spec.ts`, which reads it, form no cycle).
 */
import type { operations as GeneratedOperations } from './generated/api.ts'

export type OperationId = keyof GeneratedOperations
export type HttpMethod = 'get' | 'post' | 'patch' | 'delete'
export type JsonSchema = Record<string, unknown>

/** Who may call an operation (`x-ferry-permission`). */
export type PermissionName =
  | 'public'
  | 'signupKey'
  | 'authenticated'
  | 'admin'
  | `apps.${'create' | 'edit' | 'delete' | 'upload' | 'download'}`
  | `${'channels' | 'platforms' | 'archs'}.${'create' | 'edit' | 'delete'}`

export interface ParameterSpec {
  name: string
  in: 'path' | 'query' | 'header'
  required: boolean
  /** The JSON type a raw string is coerced to before validation (`integer`, `boolean`, …). */
  type?: string
  schema: JsonSchema
  default?: unknown
}

export interface OperationSpec {
  operationId: OperationId
  method: HttpMethod
  /** OpenAPI path template, e.g. `/v1/apps/{app}`. */
  path: string
  /** JSON pointer of the operation in the spec, for error messages. */
  pointer: string
  permission: PermissionName
  /** Where a matrix permission's allowed list applies: the app slug or catalog id of the request. */
  resource?: { in: 'path' | 'body'; name: string }
  /** Writes only (`x-ferry-invalidates`): whose cached update answers a successful call changes. */
  invalidates?: 'app' | 'team' | 'none'
  parameters: ParameterSpec[]
  /** The request body's content type and ajv-ready schema, when the operation takes one. */
  body?: { contentType: string; required: boolean; schema: JsonSchema }
  /** Response status codes → content type → schema (`null` for bodiless content). */
  responses: Record<string, Record<string, JsonSchema | null>>
}
