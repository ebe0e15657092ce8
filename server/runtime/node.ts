/**
 * @module Node entry (`ferry server`, `npm run server`): config from the environment, better-sqlite3 and
 * file-system blobs under the data dir, pino logs, graceful shutdown on SIGTERM/SIGINT.
 */
import './require-node.ts'
import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http'
import { getRequestListener, type HttpBindings, type ServerType } from '@hono/node-server'
import { getConnInfo } from '@hono/node-server/conninfo'
import { pino, type Logger as PinoLogger } from 'pino'
import { createApp } from '../app.ts'
import { nodeMcpEndpoint } from './mcp-node.ts'
import { createMemoryCache } from '../cache/answer-cache.ts'
import { httpPurger, purgeApps, type EdgePurger } from '../cache/edge-purge.ts'
import type { AppDeps } from '../http/services.ts'
import { refusedHost } from '../http/base-url.ts'
import { hostRule, LOOPBACK_HOSTS } from '../http/host-rule.ts'
import { problemResponse } from '../http/problem-response.ts'
import type { LoginLimits } from '../auth/login-limiter.ts'
import { ConfigError, VARIABLES, appConfig, loadConfig, unknownVariables, type ServerConfig } from './config.ts'
import { randomSecret } from '../core/crypto.ts'
import pkg from '../../package.json' with { type: 'json' }
import { BlobStoreStartupError, openConfiguredBlobs } from '../storage/blobs/open-blobs-node.ts'
import { clientAddress, type ClientAddress } from './client-address-node.ts'
import { consoleResponse, isConsoleUrl } from './console-node.ts'
import { nodeDigestStream } from './digests-node.ts'
import { withFileResponses } from './file-response-node.ts'
import { leanFrontTested, withLeanFront } from './lean-http-node.ts'
import { pinnedNodeMajor } from './require-node.ts'
import { incomingHeader, laneMissed, withUpdateLane, type CachedAnswer, type LaneCount } from './update-lane-node.ts'
import { nodeCompressXz, nodeDecompress } from '../transfer/decompress-node.ts'
import { openTufRepository } from '../tuf/repository-node.ts'
import { openNodeDb } from '../storage/drivers/sqlite-node.ts'
import { describeUrl } from '../storage/drivers/database-url.ts'
import { lockDataDir, removeEmpty, StartupError, undoStart, usableDataDir, type DataDirLock } from './data-dir-node.ts'
import { pruneAudit } from '../storage/accounts/audit-log.ts'
import { RAW_HEALTH_DAYS } from '../storage/telemetry/health-daily.ts'
import { aggregateOffers } from '../storage/telemetry/offers-daily.ts'
import { sumOldHealthReports } from '../updates/ramp-gate.ts'
import type { BlobStore, Db } from '../core/storage.ts'
import { dialectOf } from '../storage/dialect.ts'
import { releaseLeases } from '../storage/webhooks/webhook-outbox.ts'
import { createWebhookWorker, type WorkerOptions } from '../webhooks/worker.ts'
import { DEFAULT_HEALTH_POLICY } from '../updates/rollout.ts'
import { checkWebhookUrl, sendWebhookNode } from '../webhooks/send-node.ts'

/**
 * A secret kept in the data dir (`undefined`: no such file), held to the rule of the variable that
 * would replace it: a file too short, or empty, stops the start with one line.
 */
async function storedSecret(file: string, variable: 'signupKey' | 'jwtSecret'): Promise<string | undefined> {
  let value: string
  try {
    value = (await readFile(file, 'utf8')).trim()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new StartupError(`cannot read ${file} (${(error as NodeJS.ErrnoException).code})`)
  }
  const { name, parse } = VARIABLES[variable]
  try {
    return parse(value, file)
  } catch (error) {
    throw new StartupError(
      `${(error as Error).message}, as ${name}: put a longer secret in it, or delete it and Ferry generates one`,
    )
  }
}

/** Generates a secret into the data dir, mode 600, on first start. */
async function generatedSecret(file: string, logger: PinoLogger, what: string): Promise<string> {
  const value = randomSecret(32)
  await writeFile(file, `${value}\n`, { mode: 0o600, flag: 'wx' })
  logger.warn({ file }, `generated ${what}; it is kept in this file`)
  return value
}

/** Node-specific accessors the app accepts (see `AppDeps`): client address, raw headers, the lane's miss. */
/** A request the app makes of itself (an MCP tool's call, `Services.self`) has no connection. */
const connected = (c: Parameters<typeof getConnInfo>[0]) => (c.env as HttpBindings | undefined)?.incoming !== undefined

export const nodeRequestHooks: Pick<AppDeps, 'clientIp' | 'requestHeader' | 'laneMissed'> = {
  clientIp: (c) => (connected(c) ? getConnInfo(c).remote.address : undefined),
  // Node has already parsed the headers into a plain object; reading it avoids building a
  // WHATWG Headers object per request.
  requestHeader: (c, name) => {
    const incoming = (c.env as HttpBindings | undefined)?.incoming
    if (!incoming) return c.req.header(name)
    const value = incoming.headers[name]
    return Array.isArray(value) ? value.join(', ') : value
  },
  laneMissed: (c) => {
    const incoming = (c.env as HttpBindings | undefined)?.incoming
    return incoming && laneMissed(incoming)
  },
}

/** The client address `requestHooksFor(trusted)` gives the app, read from node:http's request (the fast lane's). */
export function incomingClientIp(trusted: readonly string[]): (incoming: IncomingMessage) => string | undefined {
  const resolve = peerClientIp(trusted)
  return (incoming) => resolve(incoming.socket.remoteAddress, incomingHeader(incoming, 'x-forwarded-for'))
}

/** The client address from a connection's peer and its X-Forwarded-For (the lean front's, and `incomingClientIp`'s). */
export function peerClientIp(trusted: readonly string[]): ClientAddress {
  return trusted.length ? clientAddress(trusted) : (peer) => peer
}

/** The hooks for a server behind the proxies `trusted` lists (`FERRY_TRUSTED_PROXIES`). */
export function requestHooksFor(
  trusted: readonly string[],
): Pick<AppDeps, 'clientIp' | 'requestHeader' | 'laneMissed'> {
  if (!trusted.length) return nodeRequestHooks
  const resolve = clientAddress(trusted)
  const { requestHeader } = nodeRequestHooks
  return {
    ...nodeRequestHooks,
    clientIp: (c) =>
      connected(c) ? resolve(getConnInfo(c).remote.address, requestHeader?.(c, 'x-forwarded-for')) : undefined,
  }
}

const TELEMETRY_FLUSH_MS = 5000
/** A second signal within this time of the first, and the same one, is the first one again. */
const SAME_SIGNAL_MS = 1000
const AUDIT_PRUNE_MS = 60 * 60 * 1000

/**
 * The answer cache the config asks for: `null` (off), Redis (imported only when configured, so
 * the client stays out of other runtimes), or `undefined` for the app's in-process default.
 */
export async function answerCacheFor(
  config: Pick<ServerConfig, 'cache' | 'redisUrl' | 'databaseUrl'>,
  logger: PinoLogger,
  purger?: EdgePurger,
  peerInvalidated?: (apps: string[]) => void,
): Promise<AppDeps['answerCache']> {
  if (!config.cache) return null
  if (!config.redisUrl) {
    if (!config.databaseUrl) return undefined
    // Several processes may share the database: each keeps its own answers and hears the
    // others' invalidations over PostgreSQL.
    const { withPostgresInvalidation, INVALIDATION_CHANNEL } = await import('../cache/postgres-invalidation.ts')
    const { postgresChannel } = await import('../storage/drivers/postgres-notify-node.ts')
    const onError = (err: unknown) => logger.error({ err }, 'answer cache invalidation failed')
    return withPostgresInvalidation(
      createMemoryCache(),
      postgresChannel(config.databaseUrl, INVALIDATION_CHANNEL, onError),
      onError,
      async (apps) => {
        peerInvalidated?.(apps)
        if (purger) await purgeApps(purger, apps, logger, (ms) => new Promise((done) => setTimeout(done, ms)))
      },
    )
  }
  const { createRedisCache } = await import('../cache/redis-cache.ts')
  const { openRedis } = await import('../storage/drivers/redis-node.ts')
  const onError = (err: unknown) => logger.error({ err }, 'redis error')
  return createRedisCache(await openRedis(config.redisUrl, onError), onError)
}

/** Which store counts login attempts, and how to let go of it. */
interface LoginLimiting {
  store: 'redis' | 'postgres' | 'memory'
  /** `undefined`: the app's in-memory default. */
  limiter: AppDeps['loginLimiter']
  close(): Promise<void>
}

/**
 * Login limiting chosen like the answer cache: in Redis when configured, else in PostgreSQL when
 * that is the database (every instance must count the same attempts), else in this process's
 * memory (SQLite: one process). Stores are imported only when configured.
 */
export async function loginLimitingFor(
  config: Pick<ServerConfig, 'redisUrl' | 'databaseUrl' | 'databaseStatementTimeoutMs'>,
  limits: Partial<LoginLimits>,
  secret: string,
  logger: PinoLogger,
): Promise<LoginLimiting> {
  if (config.redisUrl) {
    const { redisLoginLimiter } = await import('../auth/login-limiter-stores.ts')
    const { openRedis } = await import('../storage/drivers/redis-node.ts')
    const client = await openRedis(config.redisUrl, (err) => logger.error({ err }, 'login limiter redis error'))
    const shared = redisLoginLimiter(client, limits, secret)
    return { store: 'redis', ...shared }
  }
  if (config.databaseUrl) {
    const { postgresLoginLimiter } = await import('../auth/login-limiter-stores.ts')
    const { openPostgresPool } = await import('../storage/drivers/postgres-node.ts')
    const pool = openPostgresPool(config.databaseUrl, { max: 4, statementTimeoutMs: config.databaseStatementTimeoutMs })
    const shared = postgresLoginLimiter(pool, limits, secret)
    return { store: 'postgres', ...shared }
  }
  return { store: 'memory', limiter: undefined, close: async () => undefined }
}

/** SQLite under the data dir, or PostgreSQL (imported only when configured) at FERRY_DATABASE_URL. */
async function openDatabase(
  config: Pick<ServerConfig, 'databaseUrl' | 'databasePoolSize' | 'databaseStatementTimeoutMs'>,
  dataDir: string,
): Promise<Db> {
  if (!config.databaseUrl) {
    const file = join(dataDir, 'ferry.db')
    // Created empty first, so that it is mode 600 (SQLite gives its -wal and -shm files the same).
    await writeFile(file, '', { flag: 'wx', mode: 0o600 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error
    })
    return openNodeDb(file)
  }
  const { openPostgresDb, PostgresUnreachableError } = await import('../storage/drivers/postgres-node.ts')
  return openPostgresDb(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
  }).catch((error: unknown) => {
    if (!(error instanceof PostgresUnreachableError)) throw error
    throw new StartupError(`FERRY_DATABASE_URL: ${error.message}; start PostgreSQL, or correct the URL`)
  })
}

/** Whether `FERRY_HOST` is a loopback address or name, which only this machine reaches. */
const isLoopbackAddress = (host: string) =>
  host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)

const hostUrl = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`

export interface RunningServer {
  url: string
  server: ServerType
  /** The artifact store the configuration opened. */
  blobs: BlobStore
  /** `http://host:port/metrics` when FERRY_METRICS_PORT is set. */
  metricsUrl: string | undefined
  /**
   * Requests the fast lane of cached update answers answered (`runtime/update-lane-node.ts`);
   * `lean`: new connections go through the lean front first (`runtime/lean-http-node.ts`,
   * FERRY_LEAN_HTTP); `enabled` false turns both off.
   */
  lane: LaneCount & { enabled: boolean; lean: boolean; leanAnswered: number }
  /** Stops accepting connections, lets in-flight requests finish, closes the database. */
  close(): Promise<void>
}

export interface StartOptions {
  config: ServerConfig
  logger?: PinoLogger
  /** PBKDF2 iterations (tests lower it; production keeps the default). */
  passwordIterations?: number
  /** Adds routes behind the app's middleware (`npm run bench:server`'s hello world). */
  routes?: (app: ReturnType<typeof createApp>) => void
  /** The webhook worker's pace and retry delays (tests shorten them). */
  webhooks?: Pick<WorkerOptions, 'retryDelaysMs' | 'leaseMs'> & { intervalMs?: number }
  /** The Node version the lean front checks its major against (`process.versions.node`; tests name another). */
  nodeVersion?: string
}

/** How often the webhook worker looks for due deliveries and ramp steps. */
const WEBHOOK_PASS_MS = 1000

type Fetch = Parameters<typeof getRequestListener>[0]

/**
 * Binds host:port before anything is written, so a port in use is reported first. `front`
 * answers cached update checks before the Hono adapter (`update-lane-node.ts`).
 */
async function listen(
  host: string,
  port: number,
  fetch: Fetch,
  front: (listener: ReturnType<typeof getRequestListener>) => RequestListener,
  lean: (server: Server) => void,
): Promise<ServerType> {
  const server = createServer(front(getRequestListener(fetch, { hostname: host })))
  lean(server)
  await new Promise<void>((done, fail) => {
    server.once('error', (error) => fail(listenError(error, `${host}:${port} (FERRY_HOST, FERRY_PORT)`)))
    server.listen(port, host, () => done())
  })
  return server
}

/** A listen error as one line for the operator; `where` names the address and the variables that set it. */
function listenError(error: unknown, where: string): unknown {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new StartupError(`cannot listen on ${where}: the port is in use by another process`)
    case 'EACCES':
      return new StartupError(`cannot listen on ${where}: permission denied (ports below 1024 need privileges)`)
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new StartupError(`cannot listen on ${where}: no such address on this machine`)
    default:
      return error
  }
}

const starting = () =>
  new Response(
    JSON.stringify({
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: 'the server is starting',
    }),
    {
      status: 503,
      headers: { 'content-type': 'application/problem+json', 'retry-after': '1' },
    },
  )

export async function startServer({
  config,
  logger = pino({ level: config.logLevel }),
  passwordIterations,
  routes,
  webhooks,
  nodeVersion = process.versions.node,
}: StartOptions): Promise<RunningServer> {
  // Checked in this order, each before anything is written: the data directory is usable, no
  // other server holds it (SQLite: one process), the port is free. Then secrets and the database.
  // A start that fails after that removes what it wrote (`undoStart`).
  const usable = await usableDataDir(config.dataDir)
  const dataDir = usable.dir
  const lock: DataDirLock | undefined = config.databaseUrl
    ? undefined
    : await lockDataDir(dataDir).catch(async (error: unknown) => {
        await removeEmpty(usable.created)
        throw error
      })
  const undo = await undoStart(usable, lock !== undefined)
  let handle: Fetch | undefined
  let cachedAnswer: CachedAnswer | undefined
  const lane = { answered: 0, leanAnswered: 0, enabled: true, lean: config.leanHttp && leanFrontTested(nodeVersion) }
  if (config.leanHttp && !lane.lean)
    logger.warn(
      { node: nodeVersion, tested: pinnedNodeMajor },
      'FERRY_LEAN_HTTP is off on this Node: the lean HTTP front runs only on the Node major it was tested on; node:http reads every request',
    )
  const listening = await listen(
    config.host,
    config.port,
    (request, env) => (handle ? handle(request, env) : starting()),
    (listener) =>
      withUpdateLane(
        listener,
        () => (lane.enabled ? cachedAnswer : undefined),
        incomingClientIp(config.trustedProxies),
        lane,
      ),
    (server) =>
      withLeanFront(server, {
        lane: () => cachedAnswer,
        enabled: () => lane.enabled && lane.lean,
        address: peerClientIp(config.trustedProxies),
        answered: () => {
          lane.answered++
          lane.leanAnswered++
        },
      }),
  ).catch(async (error: unknown) => {
    await lock?.release()
    await undo()
    throw error
  })
  const server = listening
  try {
    const started = await startOnListener(
      { config, logger, passwordIterations, routes, webhooks },
      dataDir,
      listening,
      (fetch, answer) => {
        handle = fetch
        cachedAnswer = answer
      },
    )
    return {
      ...started,
      lane,
      async close() {
        await started.close()
        await lock?.release()
      },
    }
  } catch (error) {
    await new Promise<void>((done) => server.close(() => done()))
    await lock?.release()
    await undo()
    throw error
  }
}

async function startOnListener(
  { config, logger = pino({ level: config.logLevel }), passwordIterations, routes, webhooks }: StartOptions,
  dataDir: string,
  server: ServerType,
  serveWith: (fetch: Fetch, cachedAnswer: CachedAnswer) => void,
): Promise<Omit<RunningServer, 'lane'>> {
  // Both read before either is generated: a bad one stops the start with nothing written.
  const signupFile = join(dataDir, 'signup-key')
  const jwtFile = join(dataDir, 'jwt-secret')
  const storedSignupKey = config.signupKey ?? (await storedSecret(signupFile, 'signupKey'))
  const storedJwtSecret = config.jwtSecret ?? (await storedSecret(jwtFile, 'jwtSecret'))
  const signupKey = storedSignupKey ?? (await generatedSecret(signupFile, logger, 'signup key'))
  const jwtSecret = storedJwtSecret ?? (await generatedSecret(jwtFile, logger, 'JWT secret'))
  const db = await openDatabase(config, dataDir)
  const opened = await openConfiguredBlobs(config, dataDir, db, logger).catch(async (error: unknown) => {
    await db.destroy()
    throw error
  })
  const blobs = opened.blobs
  const release = async () => {
    await db.destroy()
    opened.close()
  }
  const settings = appConfig(config, { signupKey, jwtSecret, version: pkg.version, passwordIterations })
  const logins = await loginLimitingFor(config, settings.loginLimits ?? {}, jwtSecret, logger).catch(
    async (error: unknown) => {
      await release()
      throw error
    },
  )
  // prom-client is loaded only when metrics are asked for.
  const metricsNode = config.metrics ? await import('./metrics-node.ts') : undefined
  const metrics = metricsNode?.createMetrics()
  const edgePurger = config.purge ? httpPurger(config.purge.url, config.purge.method) : undefined
  const answerCache = await answerCacheFor(config, logger, edgePurger, metrics?.peerInvalidated).catch(
    async (error: unknown) => {
      await logins.close()
      await release()
      throw error
    },
  )
  const mcp = await nodeMcpEndpoint(pkg.version)
  if ('missing' in mcp) logger.warn({ cause: mcp.missing }, 'this copy of Ferry has no MCP server: /mcp answers 404')
  const app = createApp({
    db,
    blobs,
    logger,
    answerCache,
    ...(edgePurger ? { edgePurger } : {}),
    ...(metrics ? { observer: metrics.observer } : {}),
    ...(logins.limiter ? { loginLimiter: logins.limiter } : {}),
    config: settings,
    ...requestHooksFor(config.trustedProxies),
    digestStream: nodeDigestStream,
    webhookUrlProblem: (url) => checkWebhookUrl(url, config.webhookAllowPrivate ?? false),
    decompress: nodeDecompress,
    compressXz: nodeCompressXz,
    tufRepository: openTufRepository,
    ...('missing' in mcp ? {} : { mcp }),
  })
  routes?.(app)
  let metricsServer: Server | undefined
  let metricsUrl: string | undefined
  if (metricsNode && metrics && config.metrics) {
    metrics.watchTelemetry(() => app.lifecycle.telemetryStats())
    const { host, port } = config.metrics
    metricsServer = await metricsNode.serveMetrics(metrics.registry, host, port).catch(async (error: unknown) => {
      await app.lifecycle.close()
      await logins.close()
      await release()
      throw listenError(error, `${host}:${port} (FERRY_METRICS_HOST, FERRY_METRICS_PORT)`)
    })
    const bound = metricsServer.address()
    metricsUrl = `${hostUrl(host, typeof bound === 'object' && bound ? bound.port : port)}/metrics`
    logger.info({ url: metricsUrl }, 'metrics')
  }
  // Disk-store downloads are written from the file by Node itself (file-response-node.ts).
  const appFetch = withFileResponses(
    (request, env) => app.fetch(request, env),
    (err, span) => logger.error({ err, file: span.path }, 'download interrupted by a read error'),
  )
  // Ferry Console (/console) is static files beside the API, outside its gate and headers, for
  // the Host names the API answers.
  const hosts = hostRule(config.publicUrl, config.allowedHosts)
  const consoleFetch = (request: Request) => {
    const refused = refusedHost(hosts, request.url)
    return refused ? problemResponse(refused, new URL(request.url).pathname) : consoleResponse(request)
  }
  serveWith(
    (request, env) => (isConsoleUrl(request.url) ? consoleFetch(request) : appFetch(request, env)),
    app.cachedAnswer,
  )
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const url = hostUrl(config.host, port)
  // SQLite has one process: attempts a killed predecessor left in flight are due now.
  if (dialectOf(db) === 'sqlite') await releaseLeases(db, new Date().toISOString())
  const webhookWorker = createWebhookWorker({
    db,
    logger,
    now: () => new Date(),
    send: sendWebhookNode(config.webhookAllowPrivate ?? false),
    healthPolicy: { ...DEFAULT_HEALTH_POLICY, ...config.healthPolicy },
    ...(webhooks?.retryDelaysMs ? { retryDelaysMs: webhooks.retryDelaysMs } : {}),
    ...(webhooks?.leaseMs ? { leaseMs: webhooks.leaseMs } : {}),
  })
  webhookWorker.start(webhooks?.intervalMs ?? WEBHOOK_PASS_MS)
  const flushing = setInterval(() => {
    app.lifecycle.flush().catch((err: unknown) => logger.error({ err }, 'telemetry flush failed'))
  }, TELEMETRY_FLUSH_MS)
  flushing.unref()
  // Every instance prunes; the batches are bounded, and a second instance finds nothing left.
  const prune = () => {
    pruneAudit(db, new Date(), config.auditRetentionDays)
      .then((removed) => {
        if (removed > 0) logger.info({ removed, retentionDays: config.auditRetentionDays }, 'pruned audit entries')
      })
      .catch((err: unknown) => logger.error({ err }, 'audit prune failed'))
    // Reports first: an offer stays raw while a raw report still needs it.
    const now = new Date()
    sumOldHealthReports(db, now)
      .then(async (rows) => {
        if (rows > 0) logger.info({ rows, olderThanDays: RAW_HEALTH_DAYS }, 'health reports summed per day')
        const offers = await aggregateOffers(db, now)
        if (offers > 0) logger.info({ rows: offers, olderThanDays: RAW_HEALTH_DAYS }, 'update offers summed per day')
      })
      .catch((err: unknown) => logger.error({ err }, 'health report aggregation failed'))
  }
  prune()
  const pruning = setInterval(prune, AUDIT_PRUNE_MS)
  pruning.unref()
  if (!config.publicUrl && !config.allowedHosts && !isLoopbackAddress(config.host)) {
    logger.warn(
      { host: config.host, answers: LOOPBACK_HOSTS.join(',') },
      `FERRY_HOST=${config.host} is reachable from other machines, but with neither FERRY_PUBLIC_URL nor FERRY_ALLOWED_HOSTS set Ferry answers only loopback Host names (421 for any other): set FERRY_PUBLIC_URL to the public URL, or list the names clients use in FERRY_ALLOWED_HOSTS`,
    )
  }
  // Logged once everything runs: a signal after this line stops the server cleanly.
  logger.info(
    {
      url,
      dataDir,
      ...(config.databaseUrl ? { database: `postgres ${describeUrl(config.databaseUrl)}` } : {}),
      publicUrl: config.publicUrl ?? '(request origin)',
      ...(config.allowedHosts ? { allowedHosts: config.allowedHosts.join(',') } : {}),
      telemetry: config.telemetry,
      ...(config.trustedProxies.length ? { trustedProxies: config.trustedProxies.join(',') } : {}),
      ...(config.edgeCaching.cacheSeconds ? { updateCacheSeconds: config.edgeCaching.cacheSeconds } : {}),
      ...(config.purge ? { purge: `${config.purge.method} ${config.purge.url}` } : {}),
      cache: !config.cache
        ? 'off'
        : config.redisUrl
          ? 'redis'
          : config.databaseUrl
            ? 'memory, invalidated over postgres'
            : 'memory',
      loginLimits: logins.store,
    },
    'listening',
  )
  let closing: Promise<void> | undefined
  return {
    url,
    server,
    blobs,
    metricsUrl,
    close() {
      closing ??= (async () => {
        await new Promise<void>((done) => server.close(() => done()))
        clearInterval(flushing)
        await webhookWorker.stop()
        clearInterval(pruning)
        await new Promise<void>((done) => (metricsServer ? metricsServer.close(() => done()) : done()))
        await app.lifecycle.close()
        await logins.close()
        await release()
        logger.info({}, 'stopped')
      })()
      return closing
    },
  }
}

/**
 * Runs the server with the configuration `env` gives, until SIGTERM or SIGINT: the one entry of
 * `npm run server`, `ferry server` and the container. Exits the process when done.
 */
export async function runServer(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let config: ServerConfig
  try {
    config = loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
  const logger = pino({ level: config.logLevel })
  for (const { variable, closest } of unknownVariables(env)) {
    if (closest)
      logger.warn(
        { variable, closest },
        `${variable} is not a variable Ferry reads, so it has no effect; did you mean ${closest}?`,
      )
    else logger.warn({ variable }, `${variable} is not a variable Ferry reads, so it has no effect`)
  }
  // The handlers are in place before start-up: a signal that comes the moment `listening` is
  // logged (or earlier) must not meet the default action, which kills the process uncleanly.
  const started: { server?: Awaited<ReturnType<typeof startServer>> } = {}
  let signalled: string | undefined
  let first: { signal: string; at: number } | undefined
  const stop = (signal: string) => {
    if (first) {
      // A terminal's Ctrl+C under npm arrives twice at once: from the terminal (the whole process
      // group gets it) and passed on by npm. The same signal right after the first is that one.
      if (signal === first.signal && Date.now() - first.at < SAME_SIGNAL_MS) return
      logger.warn({ signal }, 'second signal: exiting now')
      process.exit(1)
    }
    first = { signal, at: Date.now() }
    const running = started.server
    if (!running) {
      signalled = signal
      return
    }
    logger.info({ signal }, 'shutting down: finishing in-flight requests')
    const force = setTimeout(() => {
      logger.error({}, 'in-flight requests did not finish within 10 s: exiting')
      process.exit(1)
    }, 10_000)
    force.unref()
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
  started.server = await startServer({ config, logger }).catch((error: unknown) => {
    if (error instanceof StartupError) {
      console.error(error.message)
      process.exit(1)
    }
    if (!(error instanceof BlobStoreStartupError)) throw error
    logger.fatal({}, error.message)
    process.exit(1)
  })
  if (signalled) {
    first = undefined
    stop(signalled)
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  runServer().catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
