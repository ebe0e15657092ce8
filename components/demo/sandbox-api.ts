import type { components } from '../../server/generated/api.ts'
import { SANDBOX_ORIGIN, type SandboxClient } from './sandbox-loader'

type Schemas = components['schemas']
export type App = Schemas['App']
export type Version = Schemas['Version']
export type Artifact = Schemas['Artifact']
export type Problem = Schemas['Problem']
export type PackageType = Schemas['PackageType']
export interface Catalogs { channels: string[]; platforms: string[]; archs: string[] }

/** An RFC 9457 problem answered by the API. */
export class ProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(`${problem.status} ${problem.title}${problem.detail ? `: ${problem.detail}` : ''}`)
  }
}

const isProblem = (res: Response) => /^application\/problem\+json\b/i.test(res.headers.get('content-type') ?? '')

async function readProblem(res: Response): Promise<Problem> {
  if (isProblem(res)) return (await res.json()) as Problem
  return { type: 'about:blank', title: res.statusText || 'Unexpected response', status: res.status }
}

/**
 * The dashboard's client: every call is an HTTP request to the sandbox, exactly as an
 * integration would send it to a Ferry server.
 */
export function sandboxApi(sandbox: SandboxClient, token?: string) {
  const send = (method: string, path: string, body?: { json: unknown } | { form: FormData }) => {
    const headers = new Headers()
    if (token) headers.set('authorization', `Bearer ${token}`)
    let payload: BodyInit | undefined
    if (body && 'json' in body) {
      headers.set('content-type', 'application/json')
      payload = JSON.stringify(body.json)
    } else if (body) payload = body.form
    return sandbox.fetch(new Request(SANDBOX_ORIGIN + path, { method, headers, ...(payload ? { body: payload } : {}) }))
  }
  const expect = async <T>(res: Promise<Response>): Promise<T> => {
    const r = await res
    if (!r.ok) throw new ProblemError(await readProblem(r))
    return (r.status === 204 ? undefined : await r.json()) as T
  }
  const app = (slug: string) => `/v1/apps/${encodeURIComponent(slug)}`
  return {
    send,
    login: (email: string, password: string) => expect<Schemas['Session']>(send('POST', '/v1/auth/login', { json: { email, password } })),
    listApps: async () => (await expect<Schemas['AppList']>(send('GET', '/v1/apps?limit=100'))).items,
    listVersions: async (slug: string) => (await expect<Schemas['VersionList']>(send('GET', `${app(slug)}/versions?limit=100`))).items,
    async catalogs(): Promise<Catalogs> {
      const names = async (path: string) => (await expect<{ items: Array<{ name: string }> }>(send('GET', `${path}?limit=100`))).items.map((i) => i.name)
      const [channels, platforms, archs] = await Promise.all([names('/v1/channels'), names('/v1/platforms'), names('/v1/archs')])
      return { channels, platforms, archs }
    },
    createApp: (body: Schemas['AppCreate']) => expect<App>(send('POST', '/v1/apps', { json: body })),
    deleteApp: (slug: string) => expect<void>(send('DELETE', app(slug))),
    uploadVersion: (slug: string, form: FormData) => expect<Version>(send('POST', `${app(slug)}/versions`, { form })),
    updateVersion: (slug: string, id: string, patch: Schemas['VersionUpdate']) => expect<Version>(send('PATCH', `${app(slug)}/versions/${id}`, { json: patch })),
    deleteVersion: (slug: string, id: string) => expect<void>(send('DELETE', `${app(slug)}/versions/${id}`)),
    telemetry: (query: { from: string; to: string; app?: string }) =>
      expect<Schemas['TelemetryReport']>(send('GET', `/v1/telemetry?${new URLSearchParams(query as Record<string, string>).toString()}`)),
    async download(url: string): Promise<Blob> {
      const res = await send('GET', new URL(url).pathname + new URL(url).search)
      if (!res.ok) throw new ProblemError(await readProblem(res))
      return res.blob()
    },
  }
}

export type SandboxApi = ReturnType<typeof sandboxApi>

export { isProblem, readProblem }
