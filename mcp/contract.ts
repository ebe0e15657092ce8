/**
 * @module The operations of the contract for the MCP tools: the server's generated table (routes,
 * permissions, ajv-ready schemas) with each operation's summary, description and tags from
 * openapi/openapi.yaml, and the route of its API reference page.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { operations } from '../contract/generated/operations.ts'
import { apiReferencePages } from '../lib/markdown-twins/api-reference.ts'

export const SPEC_FILE = 'openapi/openapi.yaml'

export type OperationSpec = (typeof operations)[number]

export interface OperationInfo {
  spec: OperationSpec
  summary: string
  description: string
  tags: string[]
}

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '')

export class UnknownOperation extends Error {}

export class Contract {
  readonly operations: readonly OperationInfo[]
  readonly #byId: Map<string, OperationInfo>
  readonly #specPath: string
  #references: Promise<Map<string, string>> | undefined

  constructor(root: string) {
    this.#specPath = path.join(root, SPEC_FILE)
    const paths = record(record(parse(readFileSync(this.#specPath, 'utf8'))).paths)
    this.operations = operations.map((spec) => {
      const raw = record(record(paths[spec.path])[spec.method])
      const tags = Array.isArray(raw.tags) ? raw.tags.filter((t): t is string => typeof t === 'string') : []
      return { spec, summary: text(raw.summary), description: text(raw.description), tags }
    })
    this.#byId = new Map(this.operations.map((o) => [o.spec.operationId, o]))
  }

  /** Throws naming the operations whose ids are closest (same letters, any case). */
  get(operationId: string): OperationInfo {
    const found = this.#byId.get(operationId)
    if (found) return found
    const lower = operationId.toLowerCase()
    const near = this.operations
      .filter(
        (o) => o.spec.operationId.toLowerCase().includes(lower) || lower.includes(o.spec.operationId.toLowerCase()),
      )
      .map((o) => o.spec.operationId)
    throw new UnknownOperation(
      `no operation ${JSON.stringify(operationId)} in ${SPEC_FILE}${near.length ? `; did you mean ${near.slice(0, 5).join(', ')}?` : ''} (list_operations lists them)`,
    )
  }

  /** The site route of the operation's API reference page, e.g. `/docs/api/apps/create-app`. */
  async referenceRoute(info: OperationInfo): Promise<string | undefined> {
    this.#references ??= apiReferencePages(this.#specPath).then(
      (pages) => new Map(pages.map((p) => [p.pointer, p.route])),
    )
    return (await this.#references).get(info.spec.pointer)
  }
}
