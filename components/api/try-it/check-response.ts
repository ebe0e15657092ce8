/**
 * Whether an answer is the one the contract documents: its status is listed for the operation,
 * its content type is one listed for that status, and a JSON body validates against the
 * schema, with the server's own validators (server/http/validation.ts), errors named by pointer.
 */
import { operations } from '../../../server/http/spec'
import { bodyErrors, responseValidator } from '../../../contract/validators'

export type Check = { verdict: 'matches' | 'differs'; details: string[] }

const mediaType = (contentType: string | null) => (contentType ?? '').split(';')[0]!.trim().toLowerCase()

export function checkResponse(
  operationId: string,
  status: number,
  contentType: string | null,
  body: { json?: unknown; empty: boolean },
): Check {
  const operation = operations.find((o) => o.operationId === operationId)
  if (!operation) return { verdict: 'differs', details: [`${operationId} is not an operation of this contract.`] }
  const documented = operation.responses[String(status)]
  if (!documented) return { verdict: 'differs', details: [`Status ${status} is not documented for this operation.`] }
  const types = Object.keys(documented)
  if (types.length === 0 || (body.empty && types.every((t) => documented[t] === null))) {
    return body.empty
      ? { verdict: 'matches', details: [] }
      : { verdict: 'differs', details: [`Status ${status} is documented without a body, and this one has one.`] }
  }
  const type = mediaType(contentType)
  if (!(type in documented))
    return {
      verdict: 'differs',
      details: [
        `Content type ${type || '(none)'} is not documented for status ${status} (documented: ${types.join(', ')}).`,
      ],
    }
  const schema = documented[type]
  if (schema === null || schema === undefined || body.json === undefined) return { verdict: 'matches', details: [] }
  const validate = responseValidator(schema)
  if (validate(body.json)) return { verdict: 'matches', details: [] }
  return { verdict: 'differs', details: bodyErrors(validate.errors).map((e) => `${e.pointer ?? '/'}: ${e.message}`) }
}
