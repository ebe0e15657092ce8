/**
 * @module The operations of the contract for the MCP tools: the server's generated table (routes,
 * permissions, ajv-ready schemas) with each operation's summary, description and tags, and the
 * route of its API reference page, from the library (library.ts).
 */
import { operations } from '../contract/generated/operations.ts'
import { SPEC_FILE, type LibrarySource } from './library-shape.ts'

export type OperationSpec = (typeof operations)[number]

export interface OperationInfo {
  spec: OperationSpec
  summary: string
  description: string
  tags: string[]
}

export class UnknownOperation extends Error {}

export class Contract {
  readonly operations: readonly OperationInfo[]
  readonly #byId: Map<string, OperationInfo>
  readonly #references: LibrarySource['references']

  constructor(library: Pick<LibrarySource, 'operations' | 'references'>) {
    this.operations = operations.map((spec) => ({
      spec,
      ...(library.operations[spec.operationId] ?? { summary: '', description: '', tags: [] }),
    }))
    this.#byId = new Map(this.operations.map((o) => [o.spec.operationId, o]))
    this.#references = library.references
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
    return (await this.#references())[info.spec.operationId]
  }
}
