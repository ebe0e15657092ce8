/**
 * @module Errors that mean "a dependency is down right now", not "Ferry has a bug": the request
 * gets a 503 problem with Retry-After instead of a 500, and the next request tries again.
 */

/** PostgreSQL SQLSTATE classes and codes of a lost or refused server. */
const PG_UNAVAILABLE = /^(08|57P0[1-4]|53300)/
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN'])
const SQLITE_BUSY = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED'])
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)|terminating connection/i

/** The `code` a driver or Node sets on its errors (`ECONNREFUSED`, `23505`, `SQLITE_BUSY`…). */
export function errorCode(error: Error): string | undefined {
  const code: unknown = Reflect.get(error, 'code')
  return typeof code === 'string' ? code : undefined
}

/**
 * Thrown where a dependency's failure must reach the 503 path although its own error does not
 * say "unreachable" (a Redis client's "The client is offline"); `dependency` names it in the problem.
 */
export class DependencyUnavailable extends Error {
  readonly dependency: string
  /** The problem's detail when it should say more than "cannot be reached". */
  readonly detail: string | undefined
  constructor(dependency: string, cause: unknown, detail?: string) {
    super(`${dependency} cannot be reached`, { cause })
    this.dependency = dependency
    this.detail = detail
  }
}

/** Whether this error (or one it wraps) says the database, the blob store or another dependency cannot be reached. */
export function isOutage(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false
  if (error instanceof DependencyUnavailable) return true
  const code = errorCode(error)
  if (code && (NETWORK.has(code) || SQLITE_BUSY.has(code) || PG_UNAVAILABLE.test(code))) return true
  if (MESSAGES.test(error.message)) return true
  if (error instanceof AggregateError && error.errors.some((e) => isOutage(e, depth + 1))) return true
  return isOutage(error.cause, depth + 1)
}
