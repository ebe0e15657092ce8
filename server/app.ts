/**
 * @module Builds Ferry's Hono app from injected parts (database, blobs, config). Web-standard
 * only: nothing here imports `node:`, so the same app runs in Node and in the browser.
 */
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { jsDigestStream } from './transfer/digests.ts'
import { webDecompress } from './transfer/decompress.ts'
import { json, type Handler, type Handlers, type Respond } from './http/respond.ts'
import type { Logger, Observer } from './core/logger.ts'
import type { AppDeps, Services } from './http/services.ts'
import type { Ctx, FerryEnv } from './http/context.ts'
import { DEFAULT_PBKDF2_ITERATIONS, randomId } from './core/crypto.ts'
import { gate } from './http/gate.ts'
import { refusedHost } from './http/base-url.ts'
import { hostRule } from './http/host-rule.ts'
import { isAuditedWrite } from './http/writes/audit-hook.ts'
import { finishWrite } from './http/writes/write-unit.ts'
import { HttpProblem, validationProblem } from './core/problem.ts'
import { problemResponse } from './http/problem-response.ts'
import { honoPath, operations, type OperationId, type OperationSpec } from './http/spec.ts'
import { DependencyUnavailable, isOutage } from './core/outage.ts'
import { authHandlers } from './routes/auth.ts'
import { appHandlers } from './routes/apps.ts'
import { versionHandlers } from './routes/versions.ts'
import { artifactHandlers } from './routes/artifacts.ts'
import { catalogHandlers } from './routes/catalogs.ts'
import { teamHandlers } from './routes/team.ts'
import { tokenHandlers } from './routes/tokens.ts'
import { infoHandlers } from './routes/info.ts'
import { updateChecks } from './routes/update.ts'
import { updateLane, type LaneHit, type LaneMiss, type LaneRequest } from './routes/update-lane.ts'
import { sentBody } from './routes/answer-response.ts'
import { telemetryHandlers } from './routes/telemetry.ts'
import { adoptionHandlers } from './routes/adoption.ts'
import { createMemoryCache } from './cache/answer-cache.ts'
import { appsInvalidatedBy, invalidateAnswers } from './http/writes/invalidation.ts'
import { HotAnswers } from './cache/answer-flights.ts'
import { EDGE_CACHING_OFF } from './cache/edge-headers.ts'
import { TelemetryRecorder, type TelemetryBufferStats } from './telemetry/recorder.ts'
import { DownloadCounter } from './telemetry/download-counter.ts'
import { createMemoryLoginLimiter } from './auth/login-limiter.ts'
import { createCors } from './http/cors.ts'
import { responseHeaders } from './http/response-headers.ts'
import { withSecurityHeaders } from './http/security-headers.ts'
import { DEFAULT_HEALTH_POLICY } from './updates/rollout.ts'
import { rolloutHandlers } from './routes/rollouts.ts'
import { healthHandlers } from './routes/health-reports.ts'
import { ruleHandlers } from './routes/rules.ts'
import { explainHandlers } from './routes/explain.ts'
import { updateKeyHandlers } from './routes/update-keys.ts'

import { webhookHandlers } from './routes/webhooks.ts'
import { webhookUrlSyntaxProblem } from './webhooks/url.ts'
import { auditHandlers } from './routes/audit.ts'
import { linuxRepositoryHandlers } from './routes/linux-repositories.ts'
import { tufHandlers } from './routes/tuf.ts'
import { msixHandlers } from './routes/msix.ts'
import { DEFAULT_MCP_CALLS_PER_MINUTE, mcpHandlers } from './routes/mcp.ts'

/** The health check: answered on any Host (load balancers and orchestrators probe by address); it carries no link. */
const HEALTH_PATH = '/v1/health'

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} }

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

/** A cached update answer as the app would send it (`status`, every header, the body; `null` for none). */
export interface LaneReply {
  status: number
  headers: Record<string, string>
  body: string | null
}

/** The request of `cachedAnswer`: a `LaneRequest` and its method. */
export type CachedAnswerRequest = LaneRequest & { method: string }

const DEFAULT_TUF_TIMESTAMP_SECONDS = 86_400

/** Builds the app. Every operation of `openapi/openapi.yaml` gets its route here. */
export function createApp(deps: AppDeps): Hono<FerryEnv> & {
  lifecycle: Lifecycle
  /**
   * A cached update answer to a request, answered, counted and logged as `fetch` would, without
   * Hono (see `routes/update-lane.ts`); `undefined` (at once or resolved): ask `fetch`; a
   * `LaneMiss`: ask `fetch`, whose handler skips the read that missed (the `laneMissed` hook).
   */
  cachedAnswer(req: CachedAnswerRequest): Promise<LaneReply | LaneMiss | undefined> | undefined
} {
  const now = deps.clock ?? (() => new Date())
  const logger = deps.logger ?? silentLogger
  const telemetry = deps.config.telemetry ?? true
  const publicUrl = deps.config.publicUrl?.replace(/\/+$/, '')
  const clientIp = deps.clientIp ?? (() => undefined)
  const forwardedFrom = new WeakMap<Request, string>()
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
      edgeCaching: deps.config.edgeCaching ?? EDGE_CACHING_OFF,
      healthPolicy: { ...DEFAULT_HEALTH_POLICY, ...deps.config.healthPolicy },
      tufTimestampSeconds: deps.config.tufTimestampSeconds ?? DEFAULT_TUF_TIMESTAMP_SECONDS,
      mcpCallsPerMinute: deps.config.mcpCallsPerMinute ?? DEFAULT_MCP_CALLS_PER_MINUTE,
      ...(publicUrl ? { publicUrl } : {}),
      ...(deps.config.accelRedirectPrefix ? { accelRedirectPrefix: deps.config.accelRedirectPrefix } : {}),
    },
    hosts: hostRule(publicUrl, deps.config.allowedHosts),
    now,
    logger,
    purger: deps.edgePurger ?? null,
    answers: deps.answerCache === undefined ? createMemoryCache() : deps.answerCache,
    hotAnswers: new HotAnswers((err) => logger.error({ err }, 'answer re-computation after a write failed')),
    telemetry: telemetry
      ? new TelemetryRecorder(deps.db, deps.config.jwtSecret, now, (err) =>
          logger.error({ err }, 'telemetry flush failed'),
        )
      : null,
    downloads: new DownloadCounter(deps.db, now),
    // A request the app makes of itself for an MCP tool is the tool caller's: their address.
    clientIp: (c) => forwardedFrom.get(c.req.raw) ?? clientIp(c),
    loginLimiter: deps.loginLimiter ?? createMemoryLoginLimiter(deps.config.loginLimits, () => now().getTime()),
    header: deps.requestHeader ?? ((c, name) => c.req.header(name)),
    laneMissed: deps.laneMissed ?? (() => undefined),
    digestStream: deps.digestStream ?? jsDigestStream,
    decompress: deps.decompress ?? webDecompress,
    compressXz: deps.compressXz ?? null,
    observer: deps.observer ?? IGNORE,
    webhookUrlProblem: deps.webhookUrlProblem ?? webhookUrlSyntaxProblem,
    ...(deps.events ? { events: deps.events } : {}),
    tuf:
      deps.tufRepository?.({
        db: deps.db,
        now,
        secret: deps.config.jwtSecret,
        timestampSeconds: deps.config.tufTimestampSeconds ?? DEFAULT_TUF_TIMESTAMP_SECONDS,
      }) ?? null,
    mcp: deps.mcp ?? null,
    self: async (request, address) => {
      if (address !== undefined) forwardedFrom.set(request, address)
      return app.fetch(request)
    },
    startedAt: Date.now(),
  }
  const app = new Hono<FerryEnv>()
  const cors = createCors(deps.config.corsOrigins ?? [], operations)
  const finishHeaders = responseHeaders(cors, (c) => s.header(c, 'origin'))

  // Request ids: a per-process prefix and a counter (cheaper than random bytes per request).
  const reqPrefix = randomId('req', 6)
  let reqCounter = 0
  const nextReqId = () => `${reqPrefix}${(++reqCounter).toString(36)}`
  const finished = (reqId: string, operation: string, method: string, path: string, status: number, start: number) => {
    const elapsed = performance.now() - start
    s.observer.request(operation, method, status, elapsed / 1000)
    s.logger.info({ reqId, method, path, status, ms: Math.round(elapsed * 10) / 10 }, 'request')
  }
  app.use(async (c, next) => {
    const reqId = nextReqId()
    c.set('reqId', reqId)
    const start = performance.now()
    // Before anything else, so that no answer (a cached one, a link, a preflight) is made for a
    // Host the server does not serve. Health probes address an instance by its IP and get no link.
    const refused = c.req.path === HEALTH_PATH ? undefined : refusedHost(s.hosts, c.req.url)
    const preflight =
      refused || c.req.method !== 'OPTIONS' ? undefined : cors.preflight(c.req.path, s.header(c, 'origin'))
    if (refused) c.res = problemResponse(refused, c.req.path)
    else if (preflight) c.res = preflight
    else await next()
    finishHeaders(c)
    finished(reqId, c.get('operation') ?? 'unmatched', c.req.method, c.req.path, c.res.status, start)
  })

  const updates = updateChecks(s)
  const { cachedAppInstaller, ...msix } = msixHandlers(s)
  const handlers: Handlers = {
    ...authHandlers(s),
    ...appHandlers(s),
    ...versionHandlers(s),
    ...artifactHandlers(s),
    ...catalogHandlers(s),
    ...teamHandlers(s),
    ...tokenHandlers(s),
    ...infoHandlers(s),
    ...updates.handlers,
    ...telemetryHandlers(s),
    ...rolloutHandlers(s),
    ...healthHandlers(s),
    ...explainHandlers(s),
    ...updateKeyHandlers(s),

    ...webhookHandlers(s),
    ...auditHandlers(s),
    ...linuxRepositoryHandlers(s),
    ...tufHandlers(s),
    ...msix,
    ...adoptionHandlers(s),
    ...mcpHandlers(s),
    ...ruleHandlers(s),
  }
  const route = <K extends OperationId>(op: OperationSpec, handler: Handler<K>) => {
    const check = gate<K>(s, op)
    const respond: Respond<K> = (status, body, headers) => json(body, Number(status), headers)
    const invalidating = op.invalidates === 'app' || op.invalidates === 'team'
    const audited = isAuditedWrite(op)
    const run = async (c: Ctx) => {
      c.set('operation', op.operationId)
      const input = await check(c)
      // A write's handler records its audit entry and webhook events in its own transaction
      // (server/http/writes/write-unit.ts); `finishWrite` records those that changed nothing else.
      if (audited) c.set('write', { op, input, recorded: false })
      const response = await handler(c, input, respond)
      if (audited) await finishWrite(s, c, response)
      // After the write landed; answers computed before it were read with an older generation
      // and are refused by the cache (see server/cache/answer-cache.ts).
      if (invalidating && response.status < 400 && (s.answers || s.purger)) {
        try {
          await invalidateAnswers(s, await appsInvalidatedBy(s, op, c), c.get('reqId'))
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
      return problemResponse(
        validationProblem([{ field: 'request', message: err.message || 'is malformed' }]),
        c.req.path,
      )
    }
    if (isOutage(err)) {
      s.logger.error({ reqId: c.get('reqId'), method: c.req.method, path: c.req.path, err }, 'dependency unavailable')
      const what = err instanceof DependencyUnavailable ? err.dependency : 'The database or artifact storage'
      const detail =
        (err instanceof DependencyUnavailable && err.detail) ||
        `${what} cannot be reached; retry shortly (${c.get('reqId')}).`
      const problem = problemResponse(new HttpProblem('unavailable', detail), c.req.path)
      problem.headers.set('retry-after', '5')
      return problem
    }
    s.logger.error({ reqId: c.get('reqId'), method: c.req.method, path: c.req.path, err }, 'unhandled error')
    return problemResponse(
      new HttpProblem('internal', `An unexpected error occurred; it has been logged as ${c.get('reqId')}.`),
      c.req.path,
    )
  })
  const lifecycle: Lifecycle = {
    flush: async () => {
      await Promise.all([s.telemetry?.flush(), s.downloads.flush()])
    },
    telemetryStats: () => s.telemetry?.stats() ?? null,
    async close() {
      try {
        await lifecycle.flush()
      } catch (err) {
        const lost = s.telemetry?.stats()
        logger.error(
          { err, lostChecks: lost?.checks, lostDevices: lost?.devices },
          'final telemetry flush failed: its counts are lost',
        )
      }
      await s.answers?.close()
    },
  }
  const lane = updateLane(s, operations, { ...updates.cached, getMsixAppInstaller: cachedAppInstaller })
  /** What the middleware and `toResponse` make of a hit: the same headers, the same count and log line. */
  const reply = (method: string, origin: string | undefined, hit: LaneHit, start: number): LaneReply => {
    let headers = withSecurityHeaders(hit.answer.headers)
    if (cors.enabled) {
      const all = new Headers(headers)
      cors.decorate(all, origin)
      headers = Object.fromEntries(all)
    }
    finished(nextReqId(), hit.operation, method, hit.path, hit.answer.status, start)
    return { status: hit.answer.status, headers, body: sentBody(hit.answer) }
  }
  const cachedAnswer = (req: CachedAnswerRequest) => {
    if (req.method !== 'GET') return undefined
    const start = performance.now()
    return lane(req)?.then((found) =>
      found === undefined || 'missed' in found ? found : reply(req.method, req.header('origin'), found, start),
    )
  }
  return Object.assign(app, { lifecycle, cachedAnswer })
}
