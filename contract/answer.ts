/**
 * @module An answer checked against the contract: its status must be one the operation documents,
 * its content type one documented for that status, and a JSON body must match the schema
 * (the contract's validators, ./validators.ts). Each problem names the JSON pointer it is at.
 */
import { bodyErrors, responseValidator } from './validators.ts'

/** What of an operation an answer is checked against: a row of the generated table. */
export interface AnsweredOperation {
  operationId: string
  responses: Record<string, Record<string, unknown>>
}

export interface ContractCheck {
  /** True when nothing in the answer contradicts the contract. */
  ok: boolean
  problems: string[]
  /** What was not checked, and why. */
  notes: string[]
}

export interface ReadAnswer {
  status: number
  /** Media type without parameters, '' when absent. */
  contentType: string
  /** The parsed body of a JSON answer. */
  json?: unknown
  /** The body did not parse as JSON although its type says JSON. */
  jsonError?: string
  bytes: number
  truncated: boolean
}

export const isJsonType = (type: string) => type === 'application/json' || type.endsWith('+json')

export function checkAnswer(op: AnsweredOperation, answer: ReadAnswer): ContractCheck {
  const problems: string[] = []
  const notes: string[] = []
  const documented = op.responses[String(answer.status)]
  if (!documented) {
    problems.push(
      `status ${answer.status} is not an answer ${op.operationId} documents (it documents ${Object.keys(op.responses).join(', ')})`,
    )
    return { ok: false, problems, notes }
  }
  const types = Object.keys(documented)
  if (types.length === 0) {
    if (answer.bytes > 0)
      problems.push(`status ${answer.status} is documented without a body, but the answer has ${answer.bytes} bytes`)
    return { ok: problems.length === 0, problems, notes }
  }
  if (!types.includes(answer.contentType)) {
    problems.push(
      `content type ${JSON.stringify(answer.contentType)} is not documented for status ${answer.status} (documented: ${types.join(', ')})`,
    )
    return { ok: false, problems, notes }
  }
  const schema = documented[answer.contentType]
  if (!schema || !isJsonType(answer.contentType)) {
    notes.push(`the ${answer.contentType} body is not checked against a schema (only JSON bodies are)`)
  } else if (answer.truncated) {
    notes.push('the body was too large to read whole, so it is not checked against the schema')
  } else if (answer.jsonError !== undefined) {
    problems.push(`the body is not JSON: ${answer.jsonError}`)
  } else {
    const validate = responseValidator(schema)
    if (!validate(answer.json))
      for (const e of bodyErrors(validate.errors)) problems.push(`${e.pointer ?? '/'} ${e.message}`)
  }
  return { ok: problems.length === 0, problems, notes }
}
