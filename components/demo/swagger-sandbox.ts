import { SANDBOX_ORIGIN, isSandboxUrl, sandboxFetch } from './sandbox-loader'

interface OpenApiDoc {
  servers?: unknown[]
  [key: string]: unknown
}

/** The spec as published, with the server choice of this page: the sandbox first, then any Ferry server. */
export function withServerChoices(spec: OpenApiDoc): OpenApiDoc {
  return {
    ...spec,
    servers: [
      { url: SANDBOX_ORIGIN, description: 'Sandbox (this browser): answered in this page, nothing leaves it' },
      {
        url: '{scheme}://{host}',
        description: 'A Ferry server you run: enter its host (and port)',
        variables: { scheme: { enum: ['https', 'http'], default: 'https' }, host: { default: 'updates.acme.test' } },
      },
    ],
  }
}

/** swagger-client's request and serialized response, as its interceptors see them. */
type ClientMessage = Record<string, unknown>

/**
 * Requests to the sandbox are answered in the page: swagger-client's `http` calls
 * `request.userFetch` instead of `fetch` when the request carries one. Other servers are
 * left to the network.
 */
export function routeToSandbox(req: ClientMessage): ClientMessage {
  if (typeof req.url === 'string' && isSandboxUrl(req.url)) req.userFetch = sandboxFetch
  return req
}

/** swagger-ui's plugin system, only the parts used here. */
export interface SwaggerSystem {
  authActions: { authorize(payload: Record<string, { name: string; schema: unknown; value: string }>): void }
  specSelectors: { securityDefinitions(): { get(name: string): unknown } | undefined }
}

/** After a successful login or signup, every operation is authorised with its token. */
export function authorizeAfterLogin(getSystem: () => SwaggerSystem | undefined) {
  return (res: ClientMessage): ClientMessage => {
    const system = getSystem()
    const token = (res.body as { token?: unknown } | undefined)?.token
    const path = typeof res.url === 'string' && URL.canParse(res.url) ? new URL(res.url).pathname : ''
    if (
      system &&
      (res.status === 200 || res.status === 201) &&
      /\/v1\/auth\/(login|signup)$/.test(path) &&
      typeof token === 'string'
    ) {
      const schema = system.specSelectors.securityDefinitions()?.get('bearerAuth')
      system.authActions.authorize({ bearerAuth: { name: 'bearerAuth', schema, value: token } })
    }
    return res
  }
}
