/** @module Operation model → the data its Try it panel prefills (examples as editable text). */
import type { BodyModel, OperationModel, TryItBody, TryItRequest } from '../model.ts'
import { answersJson } from '../samples.ts'

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value))

function tryItBody(body: BodyModel): TryItBody {
  const { contentType, required, example } = body
  if (contentType === 'multipart/form-data' || contentType === 'application/x-www-form-urlencoded') {
    const entries = Object.entries(example !== null && typeof example === 'object' ? example : {})
    return {
      kind: 'form',
      contentType,
      required,
      fields: entries
        .filter(([name]) => !body.fileFields.includes(name))
        .map(([name, value]) => ({ name, example: asText(value) })),
      files: body.fileFields.map((name) => ({
        name,
        examples: [example !== null && typeof example === 'object' ? (example as Record<string, unknown>)[name] : []]
          .flat()
          .map(asText),
      })),
    }
  }
  if (contentType.includes('json'))
    return {
      kind: 'json',
      contentType,
      required,
      example: example === undefined ? '' : JSON.stringify(example, null, 2),
    }
  return { kind: 'text', contentType, required, example: example === undefined ? '' : asText(example) }
}

export function tryItRequest(op: OperationModel): TryItRequest {
  return {
    method: op.method.toUpperCase(),
    path: op.path,
    security: op.access.security,
    parameters: op.parameters.flatMap((p) =>
      p.in === 'cookie'
        ? []
        : [
            {
              name: p.name,
              in: p.in,
              required: p.required,
              ...(p.exampleValue === undefined ? {} : { example: asText(p.exampleValue) }),
              ...(p.description ? { description: p.description } : {}),
            },
          ],
    ),
    ...(op.requestBody ? { body: tryItBody(op.requestBody) } : {}),
    ...(answersJson(op) ? {} : { textAnswer: true as const }),
  }
}
