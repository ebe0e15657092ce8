/** @module The page model the transforms build and the emitters print. */

/** One row of a schema table: a property (or the body itself) at some nesting depth. */
export interface SchemaRow {
  /** Dotted path, e.g. `artifacts[].sha256`; `(body)` for a non-object body. */
  name: string
  depth: number
  type: string
  /** Component the type comes from, e.g. `Semver`. */
  schemaName?: string
  required: boolean
  description?: string
  format?: string
  enum?: string[]
  default?: string
  example?: string
  /** Readable limits: `>= 1`, `<= 100 chars`, `pattern ^[a-z]+$`. */
  constraints?: string[]
}

export interface ParameterModel extends SchemaRow {
  in: 'path' | 'query' | 'header' | 'cookie'
  /** The example value used in code samples. */
  exampleValue?: unknown
}

export interface BodyModel {
  contentType: string
  required: boolean
  description?: string
  rows: SchemaRow[]
  /** The example value, as JSON data (or a string for text bodies). */
  example?: unknown
  /** Names of form fields that carry files (multipart bodies). */
  fileFields: string[]
}

export interface ResponseModel {
  status: string
  statusText: string
  description: string
  pointer: string
  /** `Problem` when the body is the RFC 9457 problem document. */
  schemaName?: string
  isProblem: boolean
  headers: ParameterModel[]
  body?: BodyModel
}

export interface AccessModel {
  /** `x-ferry-permission`: public, authenticated, admin, signupKey or e.g. apps.upload. */
  permission: string
  /** Security alternatives, each a list of scheme names; `[]` means anonymous. */
  security: string[][]
}

export interface OperationModel {
  pointer: string
  method: string
  path: string
  operationId: string
  tag: string
  slug: string
  /** Site route, e.g. `/docs/api/apps/create`. */
  route: string
  summary: string
  description: string
  access: AccessModel
  parameters: ParameterModel[]
  requestBody?: BodyModel
  responses: ResponseModel[]
  tryItHref: string
  /** `x-codeSamples`: samples written in the contract, shown beside the generated ones. */
  codeSamples: CodeSample[]
  /** The server's row of the operation table (contract/generated/operations.ts). */
  server: ServerOperationModel
}

/** A parameter as the server validates it: ajv-ready schema, and the type a raw string becomes. */
export interface ServerParameterModel {
  name: string
  in: string
  required: boolean
  type?: string
  schema: unknown
  default?: unknown
}

/** One row of the server's operation table; printed as JSON, read as `OperationSpec`. */
export interface ServerOperationModel {
  operationId: string
  method: string
  path: string
  pointer: string
  permission: string
  resource?: { in: 'path' | 'body'; name: string }
  invalidates?: string
  parameters: ServerParameterModel[]
  body?: { contentType: string; required: boolean; schema: unknown }
  responses: Record<string, Record<string, unknown>>
}

/** The one transformed model of the spec every emitter prints from. */
export interface SpecModel {
  tags: TagModel[]
  /** Every operation in spec order (paths, then methods). */
  operations: OperationModel[]
  /** The events of `#/webhooks`, in spec order. */
  webhooks: WebhookModel[]
  /** `#/components/schemas`, ajv-ready. */
  components: Record<string, unknown>
}

/** One event Ferry POSTs to a subscription's URL: an entry of `#/webhooks` (OpenAPI 3.1 §4.8.1). */
export interface WebhookModel {
  pointer: string
  /** The event's `type`, the entry's key, e.g. `version.paused`. */
  type: string
  operationId: string
  slug: string
  /** Site route, e.g. `/docs/api/events/version-paused`. */
  route: string
  description: string
  /** The Standard Webhooks headers every delivery carries. */
  headers: ParameterModel[]
  body: BodyModel
  /** The body's schema, ajv-ready (its `$ref`s point into `COMPONENTS_ID`). */
  schema: unknown
  /** What the receiver's answer means to Ferry. */
  responses: ResponseModel[]
}

export interface TagModel {
  name: string
  displayName: string
  /** Slug of the intro page. */
  slug: string
  description: string
  pointer: string
  operations: OperationModel[]
}

export interface CodeSample {
  label: string
  language: string
  code: string
}

/**
 * What an operation page's Try it panel needs to prefill a request (emitted as the `request`
 * prop of <TryIt>, kept in the page's HTML): the spec's example for every parameter and body.
 */
export interface TryItRequest {
  method: string
  path: string
  /** Security alternatives, each a list of scheme names; `[]` means anonymous. */
  security: string[][]
  parameters: {
    name: string
    in: 'path' | 'query' | 'header'
    required: boolean
    example?: string
    description?: string
  }[]
  body?: TryItBody
  /** Set when a success answer has no JSON body (204, a feed, a file): samples read it as text. */
  textAnswer?: true
}

export type TryItBody =
  /** A JSON body: its example, pretty-printed, to edit as text. */
  | { kind: 'json'; contentType: string; required: boolean; example: string }
  /** A form: text fields and file fields (the example's file names). */
  | {
      kind: 'form'
      contentType: string
      required: boolean
      fields: { name: string; example: string }[]
      files: { name: string; examples: string[] }[]
    }
  | { kind: 'text'; contentType: string; required: boolean; example: string }
