/**
 * @module The CLI's client of Ferry's API: openapi-fetch over the contract's generated `paths`,
 * and every answer checked against the contract with its own validators (contract/) before
 * the CLI reads it. Every failure is a CliError: a problem document exits 1, no answer exits 3.
 */
import createClient from 'openapi-fetch'
import semver from 'semver'
import { checkAnswer } from '../../contract/answer.ts'
import type { components, operations as Operations, paths } from '../../contract/generated/api.ts'
import { operations } from '../../contract/generated/operations.ts'
import type { Connection } from './args.ts'
import { refused, unreachable } from './errors.ts'

type Schemas = components['schemas']
export type Problem = Schemas['Problem']
export type Version = Schemas['Version']
export type VersionUpdate = Operations['updateVersion']['requestBody']['content']['application/json']
export type Catalog = 'channels' | 'platforms' | 'archs'
export interface VersionFilters {
  channel?: string
  platform?: string
  arch?: string
  published?: boolean
}

/** What openapi-fetch resolves to: the parsed body of a 2xx (`data`) or of any other answer (`error`). */
interface Answer<T> {
  data?: T
  error?: unknown
  response: Response
}

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

const isProblemType = (type: string) => type === 'application/problem+json'

export class FerryClient {
  private readonly api: ReturnType<typeof createClient<paths>>
  private readonly origin: string

  constructor(conn: Connection) {
    this.origin = conn.url.origin
    const options = {
      baseUrl: `${conn.url.origin}${conn.url.pathname.replace(/\/$/, '')}`,
      headers: { authorization: `Bearer ${conn.token}`, accept: 'application/json, application/problem+json' },
      // Every request's init gets it (openapi-fetch passes unknown options on): a streamed
      // upload body needs it, and it changes nothing for the others.
      duplex: 'half' as const,
    }
    this.api = createClient<paths>(options)
  }

  /**
   * Sends one request and checks the answer against the contract: a 2xx's body is returned only
   * when it matches the operation's schema; anything else becomes a CliError naming the problem.
   */
  private async call<T>(
    method: 'get' | 'post' | 'patch',
    path: keyof paths,
    send: () => Promise<Answer<T>>,
  ): Promise<T> {
    const op = operations.find((o) => o.method === method && o.path === path)
    if (!op) throw new Error(`${method.toUpperCase()} ${path} is not an operation of the contract`)
    let answer: Answer<T>
    try {
      answer = await send()
    } catch (error) {
      throw unreachable(`cannot reach ${this.origin}: ${networkReason(error)}`)
    }
    const { response } = answer
    const label = `${method.toUpperCase()} ${response.url ? decodeURIComponent(new URL(response.url).pathname) : path}`
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
    const body = response.ok ? answer.data : answer.error
    const bytes =
      body === undefined ||
      (typeof body === 'object' && body !== null && Object.keys(body).length === 0 && response.status === 204)
        ? 0
        : 1
    const check = checkAnswer(op, { status: response.status, contentType, json: body, bytes, truncated: false })
    if (response.ok && answer.data !== undefined) {
      if (!check.ok)
        throw refused(
          `${label}: the answer contradicts the contract:\n${check.problems.map((p) => `  ${p}`).join('\n')}`,
        )
      return answer.data
    }
    if (!response.ok && check.ok && isProblemType(contentType) && isProblemBody(answer.error))
      throw refused(`${label}: ${describeProblem(answer.error)}`)
    const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body)
    throw refused(`${label}: HTTP ${response.status} ${response.statusText}${text ? `: ${text.slice(0, 200)}` : ''}`)
  }

  /** Every name in one of the team's catalogs. */
  async catalogNames(catalog: Catalog): Promise<Set<string>> {
    const names = new Set<string>()
    let cursor: string | undefined
    do {
      const query = { limit: 100, ...(cursor ? { cursor } : {}) }
      const page = await this.call('get', `/v1/${catalog}`, () => this.api.GET(`/v1/${catalog}`, { params: { query } }))
      for (const item of page.items) names.add(item.name)
      cursor = page.nextCursor ?? undefined
    } while (cursor)
    return names
  }

  /**
   * The app's versions, newest first, page after page until `limit` or until the versions fall
   * below `down to` (the server orders by semver precedence, so nothing lower can still match).
   */
  async versions(
    app: string,
    filters: VersionFilters,
    options: { limit?: number; downTo?: string } = {},
  ): Promise<Version[]> {
    const found: Version[] = []
    let cursor: string | undefined
    do {
      const query = { ...filters, limit: 100, ...(cursor ? { cursor } : {}) }
      const page = await this.call('get', '/v1/apps/{app}/versions', () =>
        this.api.GET('/v1/apps/{app}/versions', { params: { path: { app }, query } }),
      )
      for (const v of page.items) {
        if (options.downTo && semver.valid(v.version) && semver.lt(v.version, options.downTo)) return found
        found.push(v)
        if (options.limit !== undefined && found.length >= options.limit) return found
      }
      cursor = page.nextCursor ?? undefined
    } while (cursor)
    return found
  }

  async updateVersion(app: string, id: string, patch: VersionUpdate): Promise<Version> {
    return this.call('patch', '/v1/apps/{app}/versions/{version}', () =>
      this.api.PATCH('/v1/apps/{app}/versions/{version}', { params: { path: { app, version: id } }, body: patch }),
    )
  }

  /** One file of the app's TUF repository as JSON, or `undefined` when the app has none (404). */
  async tufFile(app: string, file: string): Promise<unknown> {
    let status = 0
    try {
      return await this.call('get', '/v1/apps/{app}/tuf/{file}', async () => {
        const answer = await this.api.GET('/v1/apps/{app}/tuf/{file}', { params: { path: { app, file } } })
        status = answer.response.status
        return answer
      })
    } catch (error) {
      if (status === 404) return undefined
      throw error
    }
  }

  /** Stores signed root or targets metadata; the body holds signatures and public keys only. */
  async publishTuf(app: string, file: 'root.json' | 'targets.json', body: object): Promise<Schemas['TufStored']> {
    return this.call('post', '/v1/apps/{app}/tuf/{file}', () =>
      this.api.POST('/v1/apps/{app}/tuf/{file}', {
        params: { path: { app, file } },
        body: body as Schemas['TufMetadataFile'],
      }),
    )
  }

  /** Uploads a multipart form as a stream, so `onSent` can report progress; resolves to the new version. */
  async uploadVersion(app: string, form: FormData, onSent: (bytes: number) => void): Promise<Version> {
    const encoded = new Response(form)
    let sent = 0
    const counted = encoded.body?.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          sent += chunk.byteLength
          onSent(sent)
          controller.enqueue(chunk)
        },
      }),
    )
    return this.call('post', '/v1/apps/{app}/versions', () =>
      this.api.POST('/v1/apps/{app}/versions', {
        params: { path: { app } },
        // The form goes out as the stream that counts its bytes (the generated type describes
        // the form's fields, files typed as strings, as in the demo's client).
        body: form as unknown as Schemas['VersionUpload'],
        bodySerializer: () => counted,
        headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
      }),
    )
  }
}

function isProblemBody(body: unknown): body is Problem {
  return typeof body === 'object' && body !== null && 'title' in body && 'status' in body
}
