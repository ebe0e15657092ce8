import createClient from 'openapi-fetch'
import type { components, paths } from '../../contract/generated/api.ts'

type Schemas = components['schemas']
export type App = Schemas['App']
export type Version = Schemas['Version']
export type Artifact = Schemas['Artifact']
export type Problem = Schemas['Problem']
export type PackageType = Schemas['PackageType']
export type ApiToken = Schemas['ApiToken']
export type UpdateExplanation = Schemas['UpdateExplanation']
export type UpdaterFormat = Schemas['UpdaterFormat']
export type WhoAmI = Schemas['WhoAmI']
export type Permissions = Schemas['Permissions']
export type TeamUser = Schemas['TeamUser']
export type VersionAdoption = Schemas['VersionAdoption']
export type Webhook = Schemas['Webhook']
export type Rule = Schemas['Rule']
export type RuleCreate = Schemas['RuleCreate']
export type WebhookCreated = Schemas['WebhookCreated']
export type WebhookDelivery = Schemas['WebhookDelivery']
export type WebhookEventSelector = Schemas['WebhookEventSelector']
export type AuditEntry = Schemas['AuditEntry']
export interface Catalogs {
  channels: string[]
  platforms: string[]
  archs: string[]
}

/** An RFC 9457 problem answered by the API. */
export class ProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(`${problem.status} ${problem.title}${problem.detail ? `: ${problem.detail}` : ''}`)
  }
}

const isProblem = (res: Response) => /^application\/problem\+json\b/i.test(res.headers.get('content-type') ?? '')

/** The problem document a failed response carries, or one made from its status line. */
function problemOf(res: Response, body: unknown): Problem {
  if (isProblem(res) && typeof body === 'object' && body !== null) return body as Problem
  return { type: 'about:blank', title: res.statusText || 'Unexpected response', status: res.status }
}

async function readProblem(res: Response): Promise<Problem> {
  return problemOf(res, isProblem(res) ? await res.json() : undefined)
}

/** The data of a successful answer; a failed one throws its problem. */
async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call
  if (!response.ok) throw new ProblemError(problemOf(response, error))
  return data as T
}

const PAGE = { query: { limit: 100 } }

/**
 * Where the dashboard's requests go: the in-browser sandbox on /demo, a real Ferry server on
 * /console. Both answer the same HTTP, so every component runs unchanged on either.
 */
export interface Transport {
  /** The server's origin, e.g. `https://sandbox.ferry.test` or the console's own origin. */
  origin: string
  fetch(request: Request): Promise<Response>
  /**
   * Sends a multipart upload, reporting the bytes sent as they go (the console's XMLHttpRequest).
   * Absent (the sandbox): the upload goes through `fetch`, without progress.
   */
  upload?(
    url: string,
    headers: Record<string, string>,
    body: FormData,
    onProgress: UploadProgress,
    signal: AbortSignal,
  ): Promise<Response>
}

/** Bytes of the request body sent so far, of `total`. */
export type UploadProgress = (sent: number, total: number) => void

/**
 * The dashboard's client, typed by the contract (`paths` generated from openapi.yaml): every call
 * is an HTTP request, exactly as an integration would send it to a Ferry server.
 */
export function ferryApi(transport: Transport, token?: string) {
  const authorization = token ? { authorization: `Bearer ${token}` } : undefined
  const client = createClient<paths>({
    baseUrl: transport.origin,
    fetch: (request) => transport.fetch(request),
    ...(authorization ? { headers: authorization } : {}),
  })
  const app = (slug: string) => ({ path: { app: slug } })
  const version = (slug: string, id: string) => ({ path: { app: slug, version: id } })
  const names = (list: { items: Array<{ name: string }> }) => list.items.map((i) => i.name)
  return {
    login: (email: string, password: string) => ok(client.POST('/v1/auth/login', { body: { email, password } })),
    listApps: async () => (await ok(client.GET('/v1/apps', { params: PAGE }))).items,
    listVersions: async (slug: string) =>
      (await ok(client.GET('/v1/apps/{app}/versions', { params: { ...app(slug), ...PAGE } }))).items,
    async catalogs(): Promise<Catalogs> {
      const [channels, platforms, archs] = await Promise.all([
        ok(client.GET('/v1/channels', { params: PAGE })),
        ok(client.GET('/v1/platforms', { params: PAGE })),
        ok(client.GET('/v1/archs', { params: PAGE })),
      ])
      return { channels: names(channels), platforms: names(platforms), archs: names(archs) }
    },
    whoami: () => ok(client.GET('/v1/whoami')),
    listTeamUsers: async () => (await ok(client.GET('/v1/team/users', { params: PAGE }))).items,
    updateTeamUser: (id: string, patch: Schemas['TeamUserUpdate']) =>
      ok(client.PATCH('/v1/team/users/{id}', { params: { path: { id } }, body: patch })),
    createChannel: (name: string) => ok(client.POST('/v1/channels', { body: { name, description: '' } })),
    createPlatform: (name: string) => ok(client.POST('/v1/platforms', { body: { name, updater: 'ferry' } })),
    createArch: (name: string) => ok(client.POST('/v1/archs', { body: { name } })),
    createApp: (body: Schemas['AppCreate']) => ok(client.POST('/v1/apps', { body })),
    updateApp: (slug: string, patch: Schemas['AppUpdate']) =>
      ok(client.PATCH('/v1/apps/{app}', { params: app(slug), body: patch })),
    deleteApp: (slug: string) => ok(client.DELETE('/v1/apps/{app}', { params: app(slug) })),
    // The form is the multipart body, files included (openapi-fetch sends FormData as it is);
    // the generated type describes its fields, with the binary files typed as strings.
    uploadVersion: (slug: string, form: FormData) =>
      ok(
        client.POST('/v1/apps/{app}/versions', {
          params: app(slug),
          body: form as unknown as Schemas['VersionUpload'],
        }),
      ),
    /** The same upload, with progress where the transport reports it, cancelled by `signal`. */
    async uploadVersionWithProgress(
      slug: string,
      form: FormData,
      onProgress: UploadProgress,
      signal: AbortSignal,
    ): Promise<Version> {
      const url = `${transport.origin}/v1/apps/${encodeURIComponent(slug)}/versions`
      const res = transport.upload
        ? await transport.upload(url, authorization ?? {}, form, onProgress, signal)
        : await transport.fetch(
            new Request(url, {
              method: 'POST',
              body: form,
              signal,
              ...(authorization ? { headers: authorization } : {}),
            }),
          )
      if (!res.ok) throw new ProblemError(await readProblem(res))
      const version: Version = await res.json()
      return version
    },
    updateVersion: (slug: string, id: string, patch: Schemas['VersionUpdate']) =>
      ok(client.PATCH('/v1/apps/{app}/versions/{version}', { params: version(slug, id), body: patch })),
    deleteVersion: (slug: string, id: string) =>
      ok(client.DELETE('/v1/apps/{app}/versions/{version}', { params: version(slug, id) })),
    pauseVersion: (slug: string, id: string, reason?: string) =>
      ok(
        client.POST('/v1/apps/{app}/versions/{version}/pause', {
          params: version(slug, id),
          body: reason ? { reason } : {},
        }),
      ),
    resumeVersion: (slug: string, id: string) =>
      ok(client.POST('/v1/apps/{app}/versions/{version}/resume', { params: version(slug, id) })),
    pullVersion: (slug: string, id: string, reason?: string) =>
      ok(
        client.POST('/v1/apps/{app}/versions/{version}/pull', {
          params: version(slug, id),
          body: reason ? { reason } : {},
        }),
      ),
    adoption: (slug: string, id: string) =>
      ok(client.GET('/v1/apps/{app}/versions/{version}/adoption', { params: version(slug, id) })),
    explain: (slug: string, query: paths['/v1/apps/{app}/update/explain']['get']['parameters']['query']) =>
      ok(client.GET('/v1/apps/{app}/update/explain', { params: { ...app(slug), query } })),
    telemetry: (query: { from: string; to: string; app?: string }) =>
      ok(client.GET('/v1/telemetry', { params: { query } })),
    /** Audit entries, newest first (GET /v1/audit), filtered as the operation allows. */
    audit: async (query: { app?: string; action?: string; limit?: number }) =>
      (await ok(client.GET('/v1/audit', { params: { query } }))).items,
    listTokens: async () => (await ok(client.GET('/v1/team/tokens', { params: PAGE }))).items,
    createToken: (body: Schemas['ApiTokenCreate']) => ok(client.POST('/v1/team/tokens', { body })),
    revokeToken: (id: string) => ok(client.DELETE('/v1/team/tokens/{id}', { params: { path: { id } } })),
    listRules: async (app: string) =>
      (await ok(client.GET('/v1/apps/{app}/rules', { params: { path: { app } } }))).items,
    createRule: (app: string, body: Schemas['RuleCreate']) =>
      ok(client.POST('/v1/apps/{app}/rules', { params: { path: { app } }, body })),
    deleteRule: (app: string, rule: string) =>
      ok(client.DELETE('/v1/apps/{app}/rules/{rule}', { params: { path: { app, rule } } })),
    listWebhooks: async () => (await ok(client.GET('/v1/webhooks'))).items,
    createWebhook: (body: Schemas['WebhookCreate']) => ok(client.POST('/v1/webhooks', { body })),
    updateWebhook: (id: string, patch: Schemas['WebhookUpdate']) =>
      ok(client.PATCH('/v1/webhooks/{id}', { params: { path: { id } }, body: patch })),
    testWebhook: (id: string) => ok(client.POST('/v1/webhooks/{id}/test', { params: { path: { id } } })),
    listDeliveries: async (id: string) =>
      (await ok(client.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id }, query: { limit: 50 } } }))).items,
    redeliver: (id: string, delivery: string) =>
      ok(client.POST('/v1/webhooks/{id}/deliveries/{delivery}/redeliver', { params: { path: { id, delivery } } })),
    /** Follows a download link the API returned (a private app's carries its own signature), as is. */
    async download(url: string): Promise<Blob> {
      const { pathname, search } = new URL(url)
      const res = await transport.fetch(new Request(transport.origin + pathname + search, { headers: authorization }))
      if (!res.ok) throw new ProblemError(await readProblem(res))
      return res.blob()
    },
  }
}

export type FerryApi = ReturnType<typeof ferryApi>
/** The name the demo's components were written with. */
export type SandboxApi = FerryApi

export { isProblem }
