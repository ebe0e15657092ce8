/**
 * @module Builds Ferry's Hono app from injected parts (database, blobs, config). Web-standard
 * only: nothing here imports `node:`, so the same app runs in Node and in the browser.
 */
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { authenticate } from './auth.ts'
import { jsDigestStream } from './digests.ts'
import { json, type AppDeps, type AuthUser, type Ctx, type FerryEnv, type Handler, type Handlers, type Logger, type Observer, type Respond, type Services } from './context.ts'
import { timingSafeEqual, DEFAULT_PBKDF2_ITERATIONS, randomId } from './crypto.ts'
import { allows, holds, isMatrixPermission } from './permissions.ts'
import { HttpProblem, forbidden, problemResponse, validationProblem } from './problem.ts'
import { operations, type Input, type OperationId, type OperationSpec } from './spec.ts'
import { operationValidator } from './validation.ts'
import { DependencyUnavailable, isOutage } from './storage/outage.ts'
import { authHandlers } from './routes/auth.ts'
import { appHandlers } from './routes/apps.ts'
import { versionHandlers } from './routes/versions.ts'
import { artifactHandlers } from './routes/artifacts.ts'
import { catalogHandlers } from './routes/catalogs.ts'
import { teamHandlers } from './routes/team.ts'
import { tokenHandlers } from './routes/tokens.ts'
import { infoHandlers } from './routes/info.ts'
import { updateHandlers } from './routes/update.ts'
import { telemetryHandlers } from './routes/telemetry.ts'
import { createMemoryCache } from './cache/answer-cache.ts'
import { appsInvalidatedBy } from './cache/invalidation.ts'
import { TelemetryRecorder, type TelemetryBufferStats } from './telemetry/recorder.ts'
import { createMemoryLoginLimiter } from './login-limiter.ts'
import { createCors } from './cors.ts'
import { responseHeaders } from './response-headers.ts'
import { DEFAULT_HEALTH_POLICY } from './rollout.ts'
import { rolloutHandlers } from './routes/rollouts.ts'
import { healthHandlers } from './routes/health-reports.ts'
import { explainHandlers } from './routes/explain.ts'

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} }
const MAX_JSON_BYTES = 1024 * 1024

/** `/v1/apps/{app}` → `/v1/apps/:app` */
export const honoPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1')

const tooLarge = () => new HttpProblem('payload-too-large', `JSON bodies are limited to ${MAX_JSON_BYTES} bytes.`)

/**
 * The body as text, refusing it (413) as soon as it passes the limit rather than after reading
 * it all. Not hono/body-limit: on a chunked body it stops reading without cancelling the
 * stream, and Node then resets the connection, so the client never reads the 413.
 */
async function readBoundedText(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return ''
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let size = 0
  let text = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return text + decoder.decode()
    size += value.byteLength
    if (size > MAX_JSON_BYTES) {
      await reader.cancel().catch(() => undefined)
      throw tooLarge()
    }
    text += decoder.decode(value, { stream: true })
  }
}

async function readJson(c: Ctx): Promise<unknown> {
  const type = c.req.header('content-type') ?? ''
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    throw validationProblem([{ field: 'Content-Type', message: 'must be application/json' }])
  }
  if (Number(c.req.header('content-length') ?? 0) > MAX_JSON_BYTES) throw tooLarge()
  const text = await readBoundedText(c.req.raw.body)
  try {
    return JSON.parse(text)
  } catch {
    throw validationProblem([{ pointer: '/', message: 'must be valid JSON' }])
  }
}

/** A string member of a validated object, read without knowing the operation's type. */
function stringField(source: object, name: string): string | undefined {
  const value: unknown = Reflect.get(source, name)
  return typeof value === 'string' ? value : undefined
}

/**
 * Authentication, parameter and body validation, and permission checks for one operation;
 * resolves to the validated, typed input (a plain function rather than a middleware: one less
 * layer on every request).
 */
function gate<K extends OperationId>(s: Services, op: OperationSpec): (c: Ctx) => Promise<Input<K>> {
  const perm = op.permission
  const validate = operationValidator<K>(op)
  const hasQuery = op.parameters.some((p) => p.in === 'query')
  const jsonBody = op.body?.contentType === 'application/json'
  return async (c) => {
    let user: AuthUser | undefined
    if (perm === 'signupKey') {
      const key = s.header(c, 'x-ferry-signup-key') ?? ''
      if (!timingSafeEqual(key, s.config.signupKey)) {
        throw new HttpProblem('invalid-signup-key', "X-Ferry-Signup-Key does not match the server's signup key.")
      }
    } else if (perm === 'apps.download') {
      // Public apps need no token; the handler decides for private ones.
      const header = s.header(c, 'authorization')
      if (header) user = await authenticate(s, header)
    } else if (perm !== 'public') {
      user = await authenticate(s, s.header(c, 'authorization'))
      if (perm === 'admin' && user.role !== 'admin') {
        throw forbidden(user.tokenId === undefined ? 'This operation needs the team admin.' : 'An API token never acts as the team admin; this operation needs the admin to log in.')
      }
      if (isMatrixPermission(perm) && !holds(user, perm)) throw forbidden(`This operation needs ${perm}.`)
    }
    const path = c.req.param()
    const query = hasQuery ? c.req.query() : {}
    const params = validate.params((p, lower) =>
      p.in === 'path' ? path[p.name] : p.in === 'query' ? query[p.name] : s.header(c, lower))
    const body = validate.body(jsonBody ? await readJson(c) : undefined)
    if (user && op.resource && perm !== 'apps.download') {
      const source = op.resource.in === 'path' ? params.path : body
      const resource = source && typeof source === 'object' ? stringField(source, op.resource.name) : undefined
      if (!allows(user, perm, resource)) throw forbidden(`This operation needs ${perm} for ${resource}.`)
    }
    c.set('user', user)
    return { path: params.path, query: params.query, header: params.header, body }
  }
}

/** What a runtime drives besides requests: buffered telemetry and the answer cache. */
export interface Lifecycle {
  /** Writes buffered telemetry counts (runtimes call it on a timer). */
  flush(): Promise<void>
  /** Flushes (a failure is logged with the counts it loses), then closes the answer cache. */
  close(): Promise<void>
  /** What the telemetry buffer holds now; `null` when telemetry is off. */
  telemetryStats(): TelemetryBufferStats | null
}

const IGNORE: Observer = { request() {}, updateCheck() {}, uploaded() {} }

/** Builds the app. Every operation of `openapi/openapi.yaml` gets its route here. */
export function createApp(deps: AppDeps): Hono<FerryEnv> & { lifecycle: Lifecycle } {
  const now = deps.clock ?? (() => new Date())
  const logger = deps.logger ?? silentLogger
  const telemetry = deps.config.telemetry ?? true
  const s: Services = {
    db: deps.db,
    blobs: deps.blobs,
    config: {
      signupKey: deps.config.signupKey,
      jwtSecret: deps.config.jwtSecret,
      maxUploadBytes: deps.config.maxUploadBytes,
      passwordIterations: deps.config.passwordIterations ?? DEFAULT_PBKDF2_ITERATIONS,
      version: deps.config.version ?? '0.0.0',
      telemetry,
      healthPolicy: { ...DEFAULT_HEALTH_POLICY, ...deps.config.healthPolicy },
      ...(deps.config.publicUrl ? { publicUrl: deps.config.publicUrl } : {}),
    },
    now,
    logger,
    answers: deps.answerCache === undefined ? createMemoryCache() : deps.answerCache,
    telemetry: telemetry ? new TelemetryRecorder(deps.db, deps.config.jwtSecret, now, (err) => logger.error({ err }, 'telemetry flush failed')) : null,
    clientIp: deps.clientIp ?? (() => undefined),
    loginLimiter: deps.loginLimiter ?? createMemoryLoginLimiter(deps.config.loginLimits, () => now().getTime()),
    header: deps.requestHeader ?? ((c, name) => c.req.header(name)),
    digestStream: deps.digestStream ?? jsDigestStream,
    observer: deps.observer ?? IGNORE,
    startedAt: Date.now(),
  }
  const app = new Hono<FerryEnv>()
  const cors = createCors(deps.config.corsOrigins ?? [], operations)
  const finishHeaders = responseHeaders(cors, (c) => s.header(c, 'origin'))

  // Request ids: a per-process prefix and a counter (cheaper than random bytes per request).
  const reqPrefix = randomId('req', 6)
  let reqCounter = 0
  app.use(async (c, next) => {
    const reqId = `${reqPrefix}${(++reqCounter).toString(36)}`
    c.set('reqId', reqId)
    const start = performance.now()
    const preflight = c.req.method === 'OPTIONS' ? cors.preflight(c.req.path, s.header(c, 'origin')) : undefined
    if (preflight) c.res = preflight
    else await next()
    finishHeaders(c)
    const elapsed = performance.now() - start
    s.observer.request(c.get('operation') ?? 'unmatched', c.req.method, c.res.status, elapsed / 1000)
    s.logger.info({ reqId, method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(elapsed * 10) / 10 }, 'request')
  })

  const handlers: Handlers = {
    ...authHandlers(s),
    ...appHandlers(s),
    ...versionHandlers(s),
    ...artifactHandlers(s),
    ...catalogHandlers(s),
    ...teamHandlers(s),
    ...tokenHandlers(s),
    ...infoHandlers(s),
    ...updateHandlers(s),
    ...telemetryHandlers(s),
    ...rolloutHandlers(s),
    ...healthHandlers(s),
    ...explainHandlers(s),
  }
  const route = <K extends OperationId>(op: OperationSpec, handler: Handler<K>) => {
    const check = gate<K>(s, op)
    const respond: Respond<K> = (status, body, headers) => json(body, Number(status), headers)
    const invalidating = op.invalidates === 'app' || op.invalidates === 'team'
    const run = async (c: Ctx) => {
      c.set('operation', op.operationId)
      const response = await handler(c, await check(c), respond)
      // After the write landed; answers computed before it were read with an older generation
      // and are refused by the cache (see server/cache/answer-cache.ts).
      if (invalidating && response.status < 400 && s.answers) {
        try {
          await s.answers.invalidate(await appsInvalidatedBy(s, op, c))
        } catch (err) {
          s.logger.error({ reqId: c.get('reqId'), err }, 'answer cache invalidation failed')
        }
      }
      return response
    }
    app.on(op.method.toUpperCase(), honoPath(op.path), run)
  }
  const bind = <K extends OperationId>(op: OperationSpec & { operationId: K }) => route<K>(op, handlers[op.operationId])
  for (const op of operations) bind(op)

  app.notFound((c) => {
    return problemResponse(new HttpProblem('not-found', `No route for ${c.req.method} ${c.req.path}.`), c.req.path)
  })
  app.onError((err, c) => {
    if (err instanceof HttpProblem) return problemResponse(err, c.req.path)
    if (err instanceof HTTPException && err.status < 500) {
      return problemResponse(validationProblem([{ field: 'request', message: err.message || 'is malformed' }]), c.req.path)
    }
    if (isOutage(err)) {
      s.logger.error({ reqId: c.get('reqId'), method: c.req.method, path: c.req.path, err }, 'dependency unavailable')
      const what = err instanceof DependencyUnavailable ? err.dependency : 'The database or artifact storage'
      const problem = problemResponse(new HttpProblem('unavailable', `${what} cannot be reached; retry shortly (${c.get('reqId')}).`), c.req.path)
      problem.headers.set('retry-after', '5')
      return problem
    }
    s.logger.error({ reqId: c.get('reqId'), method: c.req.method, path: c.req.path, err }, 'unhandled error')
    return problemResponse(new HttpProblem('internal', `An unexpected error occurred; it has been logged as ${c.get('reqId')}.`), c.req.path)
  })
  const lifecycle: Lifecycle = {
    flush: async () => s.telemetry?.flush(),
    telemetryStats: () => s.telemetry?.stats() ?? null,
    async close() {
      try {
        await lifecycle.flush()
      } catch (err) {
        const lost = s.telemetry?.stats()
        logger.error({ err, lostChecks: lost?.checks, lostDevices: lost?.devices }, 'final telemetry flush failed: its counts are lost')
      }
      await s.answers?.close()
    },
  }
  return Object.assign(app, { lifecycle })
}
