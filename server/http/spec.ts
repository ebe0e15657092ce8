/**
 * @module The contract as the server sees it: the generated operation table
 * (`contract/generated/operations.ts`, from `openapi/openapi.yaml` by `npm run gen`) and the
 * per-operation types handlers are written against (from `contract/generated/api.ts`).
 */
import type { components, operations as GeneratedOperations } from '../../contract/generated/api.ts'
import { operations as table, type QueryDefaults } from '../../contract/generated/operations.ts'
import type { OperationId, OperationSpec } from '../../contract/operation-spec.ts'

export type {
  HttpMethod,
  JsonSchema,
  OperationId,
  OperationSpec,
  ParameterSpec,
  PermissionName,
} from '../../contract/operation-spec.ts'
/** The contract's schemas (`#/components/schemas`) as TypeScript types. */
export type Schemas = components['schemas']

/** Every operation of the contract, in spec order. */
export const operations: readonly OperationSpec[] = table

/** An operation's path as Hono routes it: `/v1/apps/{app}` → `/v1/apps/:app`. */
export const honoPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1')

export function operationById(id: OperationId): OperationSpec {
  const op = operations.find((o) => o.operationId === id)
  if (!op) throw new Error(`operation not in spec: ${id}`)
  return op
}

// ---- Per-operation types (type level only) ----

type Op<K extends OperationId> = GeneratedOperations[K]
type Params<K extends OperationId> = Op<K>['parameters']
type Empty = Record<never, never>
/** openapi-typescript writes `path?: never` for "no parameters here". */
type Present<T> = [NonNullable<T>] extends [never] ? Empty : NonNullable<T>
type WithDefaults<K extends OperationId, Q> = K extends keyof QueryDefaults
  ? Omit<Q, QueryDefaults[K] & keyof Q> & Required<Pick<Q, QueryDefaults[K] & keyof Q>>
  : Q

export type PathParams<K extends OperationId> = Present<Params<K>['path']>
export type QueryParams<K extends OperationId> = WithDefaults<K, Present<Params<K>['query']>>
/** Header parameters, keyed by their name in the spec. */
export type HeaderParams<K extends OperationId> = Present<Params<K>['header']>
/** The validated JSON body, or `undefined` for operations without one (or with multipart). */
export type JsonBody<K extends OperationId> =
  NonNullable<Op<K>['requestBody']> extends { content: { 'application/json': infer B } } ? B : undefined

/** What a handler receives: every part validated against the spec. */
export interface Input<K extends OperationId> {
  path: PathParams<K>
  query: QueryParams<K>
  header: HeaderParams<K>
  body: JsonBody<K>
}

type Responses<K extends OperationId> = Op<K>['responses']
/** Status codes of the operation whose response is JSON. */
export type JsonStatus<K extends OperationId> = {
  [S in keyof Responses<K>]: Responses<K>[S] extends { content: { 'application/json': unknown } } ? S : never
}[keyof Responses<K>]
export type JsonResponse<K extends OperationId, S extends keyof Responses<K>> = Responses<K>[S] extends {
  content: { 'application/json': infer B }
}
  ? B
  : never
