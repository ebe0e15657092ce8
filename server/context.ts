/** @module Shared types of the app: injected dependencies, services, the per-request context. */
import type { Context } from 'hono'
import type { DigestStreamFactory } from './digests.ts'
import type { CorsOrigins } from './cors.ts'
import type { LoginLimiter, LoginLimits } from './login-limiter.ts'
import type { AnswerCache } from './cache/answer-cache.ts'
import type { components } from './generated/api.ts'
import type { Input, JsonResponse, JsonStatus, OperationId } from './spec.ts'
import { secured, withSecurityHeaders } from './response-headers.ts'
import type { BlobStore, Db } from './storage/types.ts'
import type { TelemetryRecorder } from './telemetry/recorder.ts'

export type Schemas = components['schemas']

/** What `createApp` needs besides storage; `server/config.ts` builds it from the environment. */
export interface AppConfig {
  /** Needed in `X-Ferry-Signup-Key` to create a team. */
  signupKey: string
  /** HS256 key of bearer tokens; also keys signed download links. */
  jwtSecret: string
  /** Absolute base of download URLs; defaults to the request's origin. */
  publicUrl?: string
  /** Largest upload request body in bytes. */
  maxUploadBytes: number
  /** PBKDF2-SHA256 iterations for new password hashes (default 600 000); weaker hashes are upgraded at login. */
  passwordIterations?: number
  /** Limits of the default login limiter (see `DEFAULT_LOGIN_LIMITS`). */
  loginLimits?: Partial<LoginLimits>
  /** Origins allowed to call the API from a browser: exact origins, `'*'` or none (default). */
  corsOrigins?: CorsOrigins
  /** Reported by the health check. */
  version?: string
  /** Count update checks that carry a device id (default true). */
  telemetry?: boolean
  /** When health reports pause a version that sets no policy of its own (default `DEFAULT_HEALTH_POLICY`). */
  healthPolicy?: Schemas['HealthPolicy']
}

/** The subset of pino's API the app uses. */
export interface Logger {
  debug(obj: object, msg?: string): void
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

export interface AppDeps {
  db: Db
  blobs: BlobStore
  config: AppConfig
  clock?: () => Date
  logger?: Logger
  /**
   * The client's address: buckets rollouts when no device id is sent, and counts login attempts
   * (for the limiter's window, in memory or as an HMAC in the shared store); never stored in the clear.
   */
  clientIp?: (c: Context<FerryEnv>) => string | undefined
  /**
   * Reads one request header (lower-case name). Runtimes may pass a faster accessor than the
   * standard `Request.headers`; the default uses `c.req.header`.
   */
  requestHeader?: (c: Context<FerryEnv>, name: string) => string | undefined
  /** Hashes uploads as they stream in; defaults to the portable pure-JS `jsDigestStream`. */
  digestStream?: DigestStreamFactory
  /** Performance mode: `undefined` = in-process LRU (default), `null` = off. */
  answerCache?: AnswerCache | null
  /** Counts login attempts; defaults to a bounded in-memory limiter with `config.loginLimits`. */
  loginLimiter?: LoginLimiter
  /** Told what the server did, for metrics (the Node runtime's Prometheus registry); default: nothing. */
  observer?: Observer
}

/** What metrics count. Called on the request path, so implementations must not block or throw. */
export interface Observer {
  /** A request finished: its operation (`unmatched` when no route took it), method, status and duration. */
  request(operation: string, method: string, status: number, seconds: number): void
  /**
   * An update check was answered: the format asked for (`platform` when the platform's updater
   * decides), and whether the answer came from the cache (`off` in a server without one).
   */
  updateCheck(format: string, cache: 'hit' | 'miss' | 'off'): void
  /** An upload was stored: the bytes of its files. */
  uploaded(bytes: number): void
}

export interface Services {
  db: Db
  blobs: BlobStore
  config: Required<Omit<AppConfig, 'publicUrl' | 'loginLimits' | 'corsOrigins' | 'healthPolicy'>> & { publicUrl?: string; healthPolicy: Required<Schemas['HealthPolicy']> }
  /** Cached update answers (performance mode), `null` when off. */
  answers: AnswerCache | null
  /** `null` when telemetry is switched off. */
  telemetry: TelemetryRecorder | null
  now: () => Date
  logger: Logger
  clientIp: (c: Context<FerryEnv>) => string | undefined
  loginLimiter: LoginLimiter
  header: (c: Context<FerryEnv>, name: string) => string | undefined
  digestStream: DigestStreamFactory
  observer: Observer
  startedAt: number
}

export interface AuthUser {
  id: string
  teamId: string
  role: 'admin' | 'user'
  email: string
  name: string
  createdAt: string
  permissions: Schemas['Permissions']
  /** Set when the request came with an API token (server/api-tokens.ts): its id. */
  tokenId?: string
}

export type FerryEnv = { Variables: { user: AuthUser | undefined; reqId: string; operation: string } }
export type Ctx = Context<FerryEnv>

/** A JSON response whose body the compiler checks against the operation's schema for that status. */
export type Respond<K extends OperationId> =
  <S extends JsonStatus<K>>(status: S, body: JsonResponse<K, S>, headers?: Record<string, string>) => Response

/** Handles one operation with its validated input; JSON answers go through `respond`. */
export type Handler<K extends OperationId> = (c: Ctx, input: Input<K>, respond: Respond<K>) => Promise<Response>
/** One handler per operation of the contract: a missing one is a type error. */
export type Handlers = { [K in OperationId]: Handler<K> }

/** RFC 3339 UTC without milliseconds. */
export function timestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

const JSON_HEADERS = withSecurityHeaders({ 'content-type': 'application/json' })
const JSON_NO_STORE = withSecurityHeaders({ 'content-type': 'application/json', 'cache-control': 'no-store' })
const NO_CONTENT_HEADERS = withSecurityHeaders({})

/** A JSON response; `serialised` when `data` is already a JSON string. */
export function json(data: unknown, status = 200, headers?: Record<string, string>, serialised = false): Response {
  const all = !headers ? JSON_HEADERS
    : headers['cache-control'] === 'no-store' && Object.keys(headers).length === 1 ? JSON_NO_STORE
      : { ...JSON_HEADERS, ...headers }
  return secured(new Response(serialised ? (data as string) : JSON.stringify(data), { status, headers: all }))
}

export const noContent = () => secured(new Response(null, { status: 204, headers: NO_CONTENT_HEADERS }))
