/** @module What the app is built from (`AppDeps`, `AppConfig`) and the services every handler receives. */
import type { LoginLimiter, LoginLimits } from '../auth/login-limiter.ts'
import type { HotAnswers } from '../cache/answer-flights.ts'
import type { AnswerCache } from '../cache/answer-cache.ts'
import type { EdgeCaching } from '../cache/edge-headers.ts'
import type { EdgePurger } from '../cache/edge-purge.ts'
import type { BlobStore, Db } from '../core/storage.ts'
import type { TelemetryRecorder } from '../telemetry/recorder.ts'
import type { DownloadCounter } from '../telemetry/download-counter.ts'
import type { RampEvents } from '../updates/ramp-gate.ts'
import type { DigestStreamFactory } from '../transfer/digests.ts'
import type { CompressXz, Decompress } from '../transfer/linux-packages.ts'
import type { Logger, Observer } from '../core/logger.ts'
import type { Ctx } from './context.ts'
import type { CorsOrigins } from './cors.ts'
import type { HostRule } from './host-rule.ts'
import type { Schemas } from './spec.ts'
import type { TufOptions, TufRepository } from '../tuf/repository.ts'
import type { McpEndpoint } from '../../contract/mcp-endpoint.ts'

/** What `createApp` needs besides storage; `server/runtime/config.ts` builds it from the environment. */
export interface AppConfig {
  /** Needed in `X-Ferry-Signup-Key` to create a team. */
  signupKey: string
  /** HS256 key of bearer tokens; also keys signed download links. */
  jwtSecret: string
  /** Absolute base of download URLs; defaults to the request's origin. */
  publicUrl?: string
  /**
   * Host names (`name` or `name:port`) the app answers; other Hosts get a 421. Absent: any Host
   * when `publicUrl` is set, else loopback names only (`hostRule` in `host-rule.ts`).
   */
  allowedHosts?: readonly string[]
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
  /** nginx's internal location of the artifact files: downloads answer `X-Accel-Redirect` (default: streamed). */
  accelRedirectPrefix?: string
  /** How long a CDN may keep update answers every device gets alike (default: `no-store`). */
  edgeCaching?: EdgeCaching
  /** When health reports pause a version that sets no policy of its own (default `DEFAULT_HEALTH_POLICY`). */
  healthPolicy?: Schemas['HealthPolicy']
  /** Lifetime of an app's signed TUF timestamp in seconds (default 86400). */
  tufTimestampSeconds?: number
  /** MCP `tools/call` messages one token (or, without one, one address) may send per minute at /mcp (default 60). */
  mcpCallsPerMinute?: number
}

export interface AppDeps {
  db: Db
  blobs: BlobStore
  config: AppConfig
  clock?: () => Date
  logger?: Logger
  /**
   * The client's address: buckets rollouts when no device id is sent, and counts login attempts
   * (for the limiter's window, in memory or as an HMAC in the shared store). Stored in the clear
   * only in the audit log, as the address a write came from (kept `FERRY_AUDIT_RETENTION_DAYS`).
   */
  clientIp?: (c: Ctx) => string | undefined
  /**
   * Reads one request header (lower-case name). Runtimes may pass a faster accessor than the
   * standard `Request.headers`; the default uses `c.req.header`.
   */
  requestHeader?: (c: Ctx, name: string) => string | undefined
  /**
   * The answer-cache read the runtime's fast lane already made for this request and found nothing
   * for (`routes/update-lane.ts`): the handler does not make it again. Default: none.
   */
  laneMissed?: (c: Ctx) => string | undefined
  /** Hashes uploads as they stream in; defaults to the portable pure-JS `jsDigestStream`. */
  digestStream?: DigestStreamFactory
  /** Inflates `.deb` control members; defaults to gzip only (`webDecompress`), the Node runtime adds xz and zstd. */
  decompress?: Decompress
  /** Compresses apt's `Packages.xz`; without it (the browser sandbox) a repository lists `Packages` and `.gz` only. */
  compressXz?: CompressXz
  /** Performance mode: `undefined` = in-process LRU (default), `null` = off. */
  answerCache?: AnswerCache | null
  /** Counts login attempts; defaults to a bounded in-memory limiter with `config.loginLimits`. */
  loginLimiter?: LoginLimiter
  /** Purges a CDN's copies of an app's answers after each write to it (`FERRY_PURGE_URL`); default: none. */
  edgePurger?: EdgePurger
  /** Told what the server did, for metrics (the Node runtime's Prometheus registry); default: nothing. */
  observer?: Observer
  /**
   * Why a webhook URL is refused (a 400 naming `/url`), or `undefined`. Node resolves the host and
   * refuses private addresses (server/webhooks/send-node.ts); the default checks the scheme only.
   */
  webhookUrlProblem?: (url: string) => Promise<string | undefined>
  /** Told when a gated ramp's gate opens or closes (webhooks may listen); default: nobody. */
  events?: RampEvents
  /** Opens the TUF repositories (server/tuf/repository-node.ts); default: none (the sandbox serves no TUF metadata). */
  tufRepository?: (options: TufOptions) => TufRepository
  /**
   * The MCP server of `/mcp` (mcp/server-endpoint.ts, wired by the Node runtime). Absent (the
   * browser sandbox), `/mcp` answers 404.
   */
  mcp?: McpEndpoint
}

export interface Services {
  db: Db
  blobs: BlobStore
  config: Required<
    Omit<
      AppConfig,
      'publicUrl' | 'allowedHosts' | 'loginLimits' | 'corsOrigins' | 'healthPolicy' | 'accelRedirectPrefix'
    >
  > & { publicUrl?: string; accelRedirectPrefix?: string; healthPolicy: Required<Schemas['HealthPolicy']> }
  /** The Host names answered (from `publicUrl` and `allowedHosts`). */
  hosts: HostRule
  /** Cached update answers (performance mode), `null` when off. */
  answers: AnswerCache | null
  /** The answers each app was last asked for, computed again after a write drops them. */
  hotAnswers: HotAnswers
  /** `null` when no CDN is purged. */
  purger: EdgePurger | null
  /** `null` when telemetry is switched off. */
  telemetry: TelemetryRecorder | null
  /** Whole-file artifact downloads, counted in memory and written with telemetry's flush. */
  downloads: DownloadCounter
  now: () => Date
  logger: Logger
  clientIp: (c: Ctx) => string | undefined
  loginLimiter: LoginLimiter
  header: (c: Ctx, name: string) => string | undefined
  laneMissed: (c: Ctx) => string | undefined
  digestStream: DigestStreamFactory
  decompress: Decompress
  compressXz: CompressXz | null
  observer: Observer
  webhookUrlProblem: (url: string) => Promise<string | undefined>
  events?: RampEvents
  /** `null` where the runtime signs no TUF metadata (the sandbox). */
  tuf: TufRepository | null
  mcp: McpEndpoint | null
  /** The app itself, for a request an MCP tool makes as its caller (through the same gate), from their address. */
  self: (request: Request, clientIp: string | undefined) => Promise<Response>
  startedAt: number
}
