import { NOT_IN_SEED, sandboxValues, type SandboxCall } from '../api/try-it/sandbox-examples'
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

/** Every operation authorised with a token (the sandbox's demo session, or a login's). */
export function authorizeWith(system: SwaggerSystem, token: string): void {
  const schema = system.specSelectors.securityDefinitions()?.get('bearerAuth')
  system.authActions.authorize({ bearerAuth: { name: 'bearerAuth', schema, value: token } })
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
    )
      authorizeWith(system, token)
    return res
  }
}

type Json = Record<string, unknown>
const isJson = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x)
const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'] as const

/** A `$ref` to `#/components/parameters/…` resolved; anything else as it is. */
function resolveParameter(spec: OpenApiDoc, p: unknown): Json | undefined {
  if (!isJson(p)) return undefined
  if (typeof p.$ref !== 'string') return p
  const name = p.$ref.replace(/^#\/components\/parameters\//, '')
  const parameters = isJson(spec.components) && isJson(spec.components.parameters) ? spec.components.parameters : {}
  return isJson(parameters[name]) ? parameters[name] : undefined
}

/**
 * The spec with each operation's defaults as Try it fills them on the docs' API pages in sandbox
 * mode (one rule for both): required parameters keep their example, optional ones start empty
 * (an example `cursor` belongs to no list of this sandbox), and the ids and values
 * `sandboxValues` finds in the sandbox replace the contract's. An operation whose example needs a
 * record the demo data lacks says so in its description.
 */
export async function withSandboxExamples(spec: OpenApiDoc, call: SandboxCall): Promise<OpenApiDoc> {
  // Every operation asks for the same few lists: each path is fetched once.
  const seen = new Map<string, ReturnType<SandboxCall>>()
  const cached: SandboxCall = (path) => {
    if (!seen.has(path)) seen.set(path, call(path))
    return seen.get(path)!
  }
  const paths: Json = {}
  for (const [path, item] of Object.entries(isJson(spec.paths) ? spec.paths : {})) {
    if (!isJson(item)) continue
    const shared = Array.isArray(item.parameters) ? item.parameters : []
    const next: Json = { ...item }
    delete next.parameters
    for (const method of METHODS) {
      const op = item[method]
      if (!isJson(op) || typeof op.operationId !== 'string') continue
      const values = await sandboxValues(op.operationId, cached)
      const own = Array.isArray(op.parameters) ? op.parameters : []
      const byKey = new Map<string, Json>()
      for (const raw of [...shared, ...own]) {
        const p = resolveParameter(spec, raw)
        if (p) byKey.set(`${String(p.in)}:${String(p.name)}`, p)
      }
      const parameters = [...byKey].map(([key, p]) => {
        const { example, examples, ...rest } = p
        const value = values.params[key]
        if (value !== undefined) return { ...rest, example: value }
        return p.required === true ? { ...rest, example: example ?? firstExample(examples) } : rest
      })
      const missing = NOT_IN_SEED[op.operationId]
      next[method] = {
        ...op,
        parameters,
        ...(values.body !== undefined ? { requestBody: withBodyExample(op.requestBody, values.body) } : {}),
        ...(missing
          ? {
              description: `${typeof op.description === 'string' ? `${op.description}\n\n` : ''}**In this sandbox** the example answers 404: the demo data holds no ${missing}.`,
            }
          : {}),
      }
    }
    paths[path] = next
  }
  return { ...spec, paths }
}

function firstExample(examples: unknown): unknown {
  if (!isJson(examples)) return undefined
  const first = Object.values(examples)[0]
  return isJson(first) ? first.value : undefined
}

/** The request body with its JSON example replaced. */
function withBodyExample(requestBody: unknown, body: string): unknown {
  if (!isJson(requestBody) || !isJson(requestBody.content)) return requestBody
  const json = requestBody.content['application/json']
  if (!isJson(json)) return requestBody
  const { examples: _examples, ...rest } = json
  return {
    ...requestBody,
    content: { ...requestBody.content, 'application/json': { ...rest, example: JSON.parse(body) } },
  }
}
