/** @module Where call_operation sends a request: its name, label, base URL, whether it takes writes, and how it sends. */

export type TargetName = 'sandbox' | 'server'

export interface Target {
  name: TargetName
  /** For answers: what the target is, e.g. `the sandbox (demo data, in memory)`. */
  label: string
  base: URL
  allowsWrites: boolean
  /** Sends with the target's credentials, unless `init` brings its own Authorization header. */
  send(path: string, init: RequestInit): Promise<Response>
}
