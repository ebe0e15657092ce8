/** @module Where the server says what happened: the logger (a subset of pino's API) and the metrics observer. */

/** The subset of pino's API the app uses. */
export interface Logger {
  debug(obj: object, msg?: string): void
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

/** What metrics count. Called on the request path, so implementations must not block or throw. */
export interface Observer {
  /** A request finished: its operation (`unmatched` when no route took it), method, status and duration. */
  request(operation: string, method: string, status: number, seconds: number): void
  /**
   * An update check was answered: the format asked for (`platform` when the platform's updater
   * decides), and whether the answer came from the cache (`off` in a server without one).
   */
  updateCheck(format: string, cache: 'hit' | 'miss' | 'off'): void
  /** An upload was stored: the bytes of its files. */
  uploaded(bytes: number): void
}
