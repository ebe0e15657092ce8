/**
 * @module A small typed client of Ferry's API over fetch: the few operations the CLI needs, every
 * answer checked by a type guard, every failure a CliError (a problem document: exit 1; no answer: exit 3).
 */
import semver from 'semver'
import type { operations } from '../../server/generated/api.ts'
import type { Connection } from './args.ts'
import { refused, unreachable } from './errors.ts'
import { isCatalogList, isProblem, isVersion, isVersionList, type Problem, type Version } from './responses.ts'

export type VersionUpdate = operations['updateVersion']['requestBody']['content']['application/json']
export type Catalog = 'channels' | 'platforms' | 'archs'
export interface VersionFilters { channel?: string; platform?: string; arch?: string; published?: boolean }

/** The problem's title, status, detail and each field error, as lines for stderr. */
export function describeProblem(problem: Problem): string {
  const lines = [`${problem.title} (${problem.status})${problem.detail ? `: ${problem.detail}` : ''}`]
  for (const e of problem.errors ?? []) lines.push(`  ${e.field ?? e.pointer ?? 'request'}: ${e.message}`)
  return lines.join('\n')
}

/** Why fetch threw, without the URL's credentials or the request (which carries the token). */
function networkReason(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
  if (cause instanceof Error) {
    const code = 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined
    return code ? `${code} ${cause.message}` : cause.message
  }
  return String(error)
}

export class FerryClient {
  constructor(private readonly conn: Connection) {}

  private address(path: string, query: Record<string, string | number | boolean | undefined> = {}): URL {
    const url = new URL(this.conn.url.pathname.replace(/\/$/, '') + path, this.conn.url)
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v))
    return url
  }

  /** One request; its JSON body when the status is 2xx, else the problem as a CliError. */
  async request(method: string, path: string, init: { query?: Record<string, string | number | boolean | undefined>; json?: unknown; body?: BodyInit; contentType?: string } = {}): Promise<unknown> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.conn.token}`, accept: 'application/json, application/problem+json' }
    let body = init.body
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(init.json)
    } else if (init.contentType) headers['content-type'] = init.contentType
    const url = this.address(path, init.query)
    let res: Response
    try {
      res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}), ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) })
    } catch (error) {
      throw unreachable(`cannot reach ${url.origin}: ${networkReason(error)}`)
    }
    const text = await res.text()
    let parsed: unknown
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      parsed = undefined
    }
    if (res.ok) return parsed
    if (isProblem(parsed)) throw refused(`${method} ${path}: ${describeProblem(parsed)}`)
    throw refused(`${method} ${path}: HTTP ${res.status} ${res.statusText}${text ? `: ${text.slice(0, 200)}` : ''}`)
  }

  /** Every name in one of the team's catalogs. */
  async catalogNames(catalog: Catalog): Promise<Set<string>> {
    const names = new Set<string>()
    let cursor: string | null = null
    do {
      const page = await this.request('GET', `/v1/${catalog}`, { query: { limit: 100, cursor: cursor ?? undefined } })
      if (!isCatalogList(page)) throw refused(`GET /v1/${catalog}: the answer is not a ${catalog} list`)
      for (const item of page.items) names.add(item.name)
      cursor = page.nextCursor
    } while (cursor)
    return names
  }

  /**
   * The app's versions, newest first, page after page until `limit` or until the versions fall
   * below `down to` (the server orders by semver precedence, so nothing lower can still match).
   */
  async versions(app: string, filters: VersionFilters, options: { limit?: number; downTo?: string } = {}): Promise<Version[]> {
    const found: Version[] = []
    let cursor: string | null = null
    do {
      const path = `/v1/apps/${encodeURIComponent(app)}/versions`
      const page = await this.request('GET', path, { query: { ...filters, limit: 100, cursor: cursor ?? undefined } })
      if (!isVersionList(page)) throw refused(`GET ${path}: the answer is not a version list`)
      for (const v of page.items) {
        if (options.downTo && semver.valid(v.version) && semver.lt(v.version, options.downTo)) return found
        found.push(v)
        if (options.limit !== undefined && found.length >= options.limit) return found
      }
      cursor = page.nextCursor
    } while (cursor)
    return found
  }

  async updateVersion(app: string, id: string, patch: VersionUpdate): Promise<Version> {
    const path = `/v1/apps/${encodeURIComponent(app)}/versions/${encodeURIComponent(id)}`
    const version = await this.request('PATCH', path, { json: patch })
    if (!isVersion(version)) throw refused(`PATCH ${path}: the answer is not a version`)
    return version
  }

  /** Uploads a multipart form as a stream, so `onSent` can report progress; resolves to the new version. */
  async uploadVersion(app: string, form: FormData, onSent: (bytes: number) => void): Promise<Version> {
    const encoded = new Response(form)
    let sent = 0
    const counted = encoded.body?.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        sent += chunk.byteLength
        onSent(sent)
        controller.enqueue(chunk)
      },
    }))
    const path = `/v1/apps/${encodeURIComponent(app)}/versions`
    const version = await this.request('POST', path, { body: counted, contentType: encoded.headers.get('content-type') ?? undefined })
    if (!isVersion(version)) throw refused(`POST ${path}: the answer is not a version`)
    return version
  }
}
