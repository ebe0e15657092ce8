/**
 * @module Problems (RFC 9457) as values: the kinds, `HttpProblem` thrown anywhere, and its
 * constructors. `http/problem-response.ts` renders one as problem+json.
 */

export interface FieldError {
  pointer?: string
  field?: string
  message: string
}

export const PROBLEM_KINDS = {
  validation: [400, 'Request validation failed'],
  unauthorized: [401, 'Authentication required'],
  'invalid-credentials': [401, 'Invalid credentials'],
  'invalid-signup-key': [401, 'Invalid signup key'],
  forbidden: [403, 'Permission denied'],
  'not-found': [404, 'Not found'],
  conflict: [409, 'Conflict'],
  misdirected: [421, 'Misdirected request'],
  'payload-too-large': [413, 'Request body too large'],
  'too-many-requests': [429, 'Too many requests'],
  'telemetry-disabled': [404, 'Telemetry is switched off'],
  internal: [500, 'Internal Server Error'],
  unavailable: [503, 'Service unavailable'],
} as const

export type ProblemKind = keyof typeof PROBLEM_KINDS

/** Thrown anywhere in a handler; the app's error handler turns it into problem+json. */
export class HttpProblem extends Error {
  readonly kind: ProblemKind
  readonly status: number
  readonly title: string
  readonly errors?: FieldError[]
  /** Response headers the problem needs besides its content type (e.g. `retry-after`). */
  readonly headers?: Record<string, string>
  constructor(kind: ProblemKind, detail: string, errors?: FieldError[], headers?: Record<string, string>) {
    super(detail)
    this.kind = kind
    this.status = PROBLEM_KINDS[kind][0]
    this.title = PROBLEM_KINDS[kind][1]
    if (errors) this.errors = errors
    if (headers) this.headers = headers
  }
}

/** A 400 naming each offending member or parameter. */
export function validationProblem(errors: FieldError[]): HttpProblem {
  const n = errors.length
  return new HttpProblem('validation', `${n} field${n === 1 ? ' is' : 's are'} invalid.`, errors)
}

export const notFound = (detail: string) => new HttpProblem('not-found', detail)
export const forbidden = (detail: string) => new HttpProblem('forbidden', detail)
export const conflict = (detail: string) => new HttpProblem('conflict', detail)
/** A 429 telling the client how many seconds to wait (`Retry-After`). */
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  new HttpProblem('too-many-requests', detail, undefined, { 'retry-after': String(retryAfterSeconds) })
