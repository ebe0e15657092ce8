/** @module describe_operation's answer: an operation's contract as JSON, with the component schemas its `$ref`s point to. */
import { COMPONENTS_ID, componentSchemas } from '../contract/generated/operations.ts'
import type { OperationInfo } from './contract.ts'

const REF_PREFIX = `${COMPONENTS_ID}#/schemas/`

/** Names of the component schemas `value` refers to, directly or through other components. */
export function referencedComponents(value: unknown): Record<string, unknown> {
  const schemas = (componentSchemas.schemas ?? {}) as Record<string, unknown>
  const found: Record<string, unknown> = {}
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (node === null || typeof node !== 'object') return
    for (const [key, child] of Object.entries(node)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(REF_PREFIX)) {
        const name = child.slice(REF_PREFIX.length)
        if (!(name in found) && name in schemas) {
          found[name] = schemas[name]
          walk(schemas[name])
        }
      } else walk(child)
    }
  }
  walk(value)
  return found
}

export function describeOperation(info: OperationInfo, referenceUrl: string | undefined): Record<string, unknown> {
  const op = info.spec
  const success = Object.fromEntries(Object.entries(op.responses).filter(([status]) => status.startsWith('2')))
  const shown = { parameters: op.parameters, body: op.body, success }
  return {
    operationId: op.operationId,
    method: op.method.toUpperCase(),
    path: op.path,
    summary: info.summary,
    description: info.description,
    tags: info.tags,
    permission: op.permission,
    ...(referenceUrl ? { reference: referenceUrl } : {}),
    parameters: op.parameters.map((p) => ({ name: p.name, in: p.in, required: p.required, schema: p.schema })),
    ...(op.body ? { requestBody: op.body } : {}),
    responses: Object.fromEntries(Object.entries(op.responses).map(([status, types]) => [status, Object.keys(types)])),
    successSchemas: success,
    components: {
      note: `each "$ref": "${REF_PREFIX}<name>" above is the schema <name> here`,
      schemas: referencedComponents(shown),
    },
  }
}
