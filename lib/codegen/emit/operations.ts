/**
 * @module Stage: the contract's operation table (OPERATIONS_FILE). Everything the
 * server routes, validates, authorises and invalidates by was read from the spec by the one
 * transform walk (transform/server.ts); this prints it, so the server never parses the contract
 * at run time and never imports the site's `public/`.
 */
import { dirname, relative } from 'node:path/posix'
import { BANNER } from '../context.ts'
import { OPERATION_SPEC_FILE, OPERATIONS_FILE } from '../files.ts'
import type { SpecModel } from '../model.ts'
import { COMPONENTS_ID } from '../transform/server.ts'

/** The table's import of its row type, relative to where the table is written. */
const specPath = relative(dirname(OPERATIONS_FILE), OPERATION_SPEC_FILE)
const OPERATION_SPEC_IMPORT = specPath.startsWith('.') ? specPath : `./${specPath}`

export function renderOperations(model: SpecModel): string {
  const entries = model.operations.map((op) => op.server)
  const defaultLines = entries
    .map(
      (op) =>
        [op.operationId, op.parameters.filter((p) => p.in === 'query' && 'default' in p).map((p) => p.name)] as const,
    )
    .filter(([, names]) => names.length > 0)
    .map(([id, names]) => `  ${id}: ${names.map((n) => `'${n}'`).join(' | ')}`)
  return [
    `// ${BANNER}`,
    "// The server's view of the contract: routes, permissions, invalidation, and ajv-ready schemas.",
    `import type { OperationSpec } from '${OPERATION_SPEC_IMPORT}'`,
    '',
    `export const COMPONENTS_ID = '${COMPONENTS_ID}'`,
    '',
    '/** `#/components/schemas` of the spec, registered with ajv under `COMPONENTS_ID`. */',
    `export const componentSchemas: Record<string, unknown> = ${JSON.stringify({ schemas: model.components }, null, 2)}`,
    '',
    '/** The body schema of each event Ferry POSTs to webhook subscriptions (`#/webhooks`), by its `type`. */',
    `export const webhookEvents: Record<string, unknown> = ${JSON.stringify(Object.fromEntries(model.webhooks.map((h) => [h.type, h.schema])), null, 2)}`,
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
