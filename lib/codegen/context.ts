/** @module Stage 2: options resolved once, plus `$ref` resolution over the raw spec. */
import type { LoadedSpec } from './load.ts'
import { atPointer, pointerTokens } from '../../contract/json-pointer.ts'

export type Severity = 'ignore' | 'warn' | 'throw'

export interface GenOptions {
  /** Where the API pages live in the site. */
  docsBase: string
  /** The demo page; "Try it" links point at `${demoPath}#/<tag>/<operationId>`. */
  demoPath: string
  /** A JSON request or response body without an example. */
  onMissingExample: Severity
}

export const DEFAULT_OPTIONS: GenOptions = { docsBase: '/docs/api', demoPath: '/demo', onMissingExample: 'throw' }

export const BANNER = 'Generated from openapi/openapi.yaml by scripts/gen-api.ts — do not edit'

export type Json = Record<string, unknown>

export interface Resolved<T> {
  node: T
  /** Pointer of the node after following `$ref`s. */
  pointer: string
  /** Name of the last component followed, e.g. `App` for `#/components/schemas/App`. */
  refName?: string
}

export interface Context {
  spec: LoadedSpec
  doc: Json
  options: GenOptions
  /** Base URL for code samples: the first server with its variables' defaults. */
  serverUrl: string
  warnings: string[]
  resolve<T = Json>(node: unknown, pointer: string): Resolved<T>
  report(severity: Severity, pointer: string, problem: string): void
}

function firstServerUrl(doc: Json): string {
  const server = (doc.servers as Json[] | undefined)?.[0]
  if (!server) return 'http://localhost:8080'
  const vars = (server.variables ?? {}) as Record<string, { default: string }>
  return String(server.url).replace(/\{(\w+)\}/g, (_, name: string) => vars[name]?.default ?? name)
}

export function createContext(spec: LoadedSpec, options: Partial<GenOptions> = {}): Context {
  const doc = spec.raw
  const warnings: string[] = []
  return {
    spec,
    doc,
    options: { ...DEFAULT_OPTIONS, ...options },
    serverUrl: firstServerUrl(doc),
    warnings,
    resolve<T>(node: unknown, pointer: string): Resolved<T> {
      let current = node
      let at = pointer
      let refName: string | undefined
      for (let hops = 0; current && typeof current === 'object' && '$ref' in current; hops++) {
        if (hops > 20) throw spec.errorAt(pointer, 'too many nested $refs')
        at = String((current as { $ref: string }).$ref)
        refName = pointerTokens(at).at(-1)
        current = atPointer(doc, at)
        if (current === undefined) throw spec.errorAt(pointer, `$ref target ${at} does not exist`)
      }
      return { node: current as T, pointer: at, refName }
    },
    report(severity, pointer, problem) {
      if (severity === 'ignore') return
      const error = spec.errorAt(pointer, problem)
      if (severity === 'throw') throw error
      warnings.push(error.message)
    },
  }
}

/** A non-empty string member of an operation (or webhook), trimmed; a SpecError names it when missing. */
export function requireString(ctx: Context, node: Json, key: string, pointer: string): string {
  const value = node[key]
  if (typeof value !== 'string' || value.trim() === '') throw ctx.spec.errorAt(pointer, `operation needs \`${key}\``)
  return value.trim()
}
