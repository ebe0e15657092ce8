/**
 * @module Server configuration from environment variables. Every variable is declared once in
 * `VARIABLES` (name, parser, default, description, the field of `ServerConfig` and of `AppConfig`
 * it sets), which drives `loadConfig`, the `ServerConfig` type, `appConfig`, `.env.example`
 * (scripts/env-example.ts) and the check of the docs' table; problems name the variable, and
 * `unknownVariables` names the known variable nearest a misspelt one. (No `node:` imports: the
 * Node entry passes the process environment in.)
 */

import type { AppConfig } from '../http/services.ts'
import type { CorsOrigins } from '../http/cors.ts'
import { parseHost } from '../http/host-rule.ts'
import { DEFAULT_LOGIN_LIMITS } from '../auth/login-limiter.ts'
import type { EdgeCaching } from '../cache/edge-headers.ts'
import { PURGE_METHODS } from '../cache/edge-purge.ts'
import { DEFAULT_HEALTH_POLICY } from '../updates/rollout.ts'

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export const DOWNLOAD_MODES = ['stream', 'redirect'] as const
export type DownloadMode = (typeof DOWNLOAD_MODES)[number]

export type { BlobLocation, S3Location } from '../storage/blobs/blob-location.ts'
import type { BlobLocation } from '../storage/blobs/blob-location.ts'

export const DEFAULT_MAX_UPLOAD_BYTES = 2 * 1024 ** 3
export const DEFAULT_PRESIGN_SECONDS = 900
export const DEFAULT_ORPHAN_MIN_AGE_SECONDS = 3600

type Env = Record<string, string | undefined>

export class ConfigError extends Error {
  readonly problems: string[]
  constructor(problems: string[]) {
    super(problems.map((p) => `invalid configuration: ${p}`).join('\n'))
    this.problems = problems
  }
}

function integer(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`)
  }
  return Number(raw)
}

function onOff(name: string, raw: string): boolean {
  if (raw !== 'on' && raw !== 'off') throw new Error(`${name} must be on or off, got ${JSON.stringify(raw)}`)
  return raw === 'on'
}

function secret(name: string, raw: string, minLength: number): string {
  if (raw.length < minLength) throw new Error(`${name} must be at least ${minLength} characters long`)
  return raw
}

/** `*`, or a comma-separated list of exact origins (`scheme://host[:port]`, no path). */
function corsOrigins(raw: string, name: string): CorsOrigins {
  const entries = raw.split(',').map((e) => e.trim())
  if (entries.length === 1 && entries[0] === '*') return '*'
  for (const entry of entries) {
    if (entry === '*') throw new Error(`${name}: * allows every origin and cannot be combined with others`)
    let url: URL | undefined
    try {
      url = new URL(entry)
    } catch {
      url = undefined
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== entry) {
      throw new Error(
        `${name} must be * or comma-separated origins like https://admin.example.com (scheme, host and port only, no path or trailing /), got ${JSON.stringify(entry)}`,
      )
    }
  }
  return [...new Set(entries)]
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

/** `4`, `6`, or `0` when `text` is no IP address (IPv6 checked by the URL parser, which every runtime has). */
export function ipVersion(text: string): 0 | 4 | 6 {
  if (IPV4.test(text)) return 4
  if (!text.includes(':') || !/^[0-9A-Fa-f:.]+$/.test(text)) return 0
  try {
    new URL(`http://[${text}]/`)
    return 6
  } catch {
    return 0
  }
}

/** Comma-separated IP addresses or CIDR ranges (`10.0.0.0/8`, `fd00::/8`). */
function trustedProxies(raw: string, name: string): string[] {
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/')
    const version = ipVersion(address)
    const max = version === 4 ? 32 : 128
    if (!version || extra !== undefined || (bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > max))) {
      throw new Error(
        `${name} must be comma-separated IP addresses or CIDR ranges like 10.0.0.0/8 or fd00::/8, got ${JSON.stringify(entry)}`,
      )
    }
  }
  return [...new Set(entries)]
}

/** `s3://bucket` or `s3://bucket/some/prefix` (bucket names as S3 allows them). */
function parseBlobUrl(raw: string, name: string): { bucket: string; prefix: string } {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/([A-Za-z0-9._/-]*))?$/.exec(raw)
  const prefix = (m?.[2] ?? '').replace(/^\/+|\/+$/g, '')
  if (!m?.[1] || prefix.split('/').some((part) => part === '.' || part === '..') || prefix.includes('//')) {
    throw new Error(
      `${name} must be s3://<bucket> or s3://<bucket>/<prefix> (bucket: 3–63 lower-case letters, digits, dots, hyphens), got ${JSON.stringify(raw)}`,
    )
  }
  return { bucket: m[1], prefix: prefix ? `${prefix}/` : '' }
}

const hostName = (raw: string, name: string): string => {
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(raw))
    throw new Error(`${name} must be a host name or IP address, got ${JSON.stringify(raw)}`)
  return raw
}
const between = (min: number, max: number) => (raw: string, name: string) => integer(name, raw, min, max)
const onOrOff = (raw: string, name: string) => onOff(name, raw)
/** A decimal from 0 to 1, such as `0.2`. */
const ratio = (raw: string, name: string): number => {
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) > 1)
    throw new Error(`${name} must be a decimal from 0 to 1 (0.2 is 20 %), got ${JSON.stringify(raw)}`)
  return Number(raw)
}
const trueOrFalse = (raw: string, name: string) => {
  if (raw !== 'true' && raw !== 'false') throw new Error(`${name} must be true or false, got ${JSON.stringify(raw)}`)
  return raw === 'true'
}
const oneOf =
  <T extends string>(values: readonly T[], says: string) =>
  (raw: string, name: string): T => {
    if (!(values as readonly string[]).includes(raw))
      throw new Error(`${name} must be ${says}, got ${JSON.stringify(raw)}`)
    return raw as T
  }

function publicUrl(raw: string, name: string): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new Error(`${name} must be an absolute http(s) URL, got ${JSON.stringify(raw)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`${name} must start with http:// or https://`)
  return raw.replace(/\/+$/, '')
}

/** Comma-separated `host` or `host:port` names, as the Host header writes them. */
function allowedHosts(raw: string, name: string): string[] {
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
  const names: string[] = []
  for (const entry of entries) {
    const host = parseHost(entry)
    if (!host)
      throw new Error(
        `${name} must be comma-separated host names with an optional port, like updates.example.com or 10.0.0.5:8080 ([::1] for IPv6), got ${JSON.stringify(entry)}`,
      )
    names.push(host.port === '' ? host.name : `${host.name}:${host.port}`)
  }
  if (!names.length) throw new Error(`${name} names no host`)
  return [...new Set(names)]
}

function purgeUrl(raw: string, name: string): string {
  if (!/^https?:\/\/[^\s]+$/.test(raw)) throw new Error(`${name} must be an http(s) URL, got ${JSON.stringify(raw)}`)
  return raw
}

function accelPrefix(raw: string, name: string): string {
  if (!/^\/(?:[A-Za-z0-9._-]+\/)+$/.test(raw))
    throw new Error(
      `${name} must be a path that starts and ends with / (letters, digits, . _ -), like /_ferry_blobs/, got ${JSON.stringify(raw)}`,
    )
  return raw
}

function redisUrl(raw: string, name: string): string {
  if (!/^rediss?:\/\/[^\s]+$/.test(raw))
    throw new Error(`${name} must be a redis:// or rediss:// URL, got ${JSON.stringify(raw)}`)
  return raw
}

function databaseUrl(raw: string, name: string): string {
  if (!/^postgres(?:ql)?:\/\/[^\s]+$/.test(raw))
    throw new Error(
      `${name} must be a postgres:// or postgresql:// URL, got ${JSON.stringify(raw.replace(/:[^:@/]*@/, ':***@'))}`,
    )
  return raw
}

function s3Endpoint(raw: string, name: string): string {
  if (!/^https?:\/\/[^\s/]+\/?$/.test(raw))
    throw new Error(`${name} must be an http(s) URL without a path, got ${JSON.stringify(raw)}`)
  return raw.replace(/\/$/, '')
}

function s3Region(raw: string, name: string): string {
  if (!/^[a-z0-9-]{1,32}$/.test(raw))
    throw new Error(`${name} must be a region name such as us-east-1 or auto, got ${JSON.stringify(raw)}`)
  return raw
}

const text = (raw: string) => raw

/** The fields of `T` as dotted paths (`loginLimits.attemptsPerAddress`), down to values that are not plain objects. */
type Paths<T> = {
  [K in keyof T & string]-?: NonNullable<T[K]> extends readonly unknown[] | string | number | boolean
    ? K
    : K | `${K}.${Paths<NonNullable<T[K]>>}`
}[keyof T & string]

/**
 * One environment variable: how its text is parsed (throwing a message that names it), and its
 * value when unset: `default`, the text an operator could set for the same effect (parsed like
 * a set value), or else `unset` with an `example` for `.env.example`. Its key in `VARIABLES` is
 * its field of `ServerConfig`; a dotted key (`metrics.port`) is a field of the part `PARTS`
 * builds from all the variables named `metrics.*`.
 */
export type Variable<T> = {
  name: `FERRY_${string}`
  parse: (raw: string, name: string) => T
  /** The field of `AppConfig` (what `createApp` is built from) it also sets; absent: the runtime's only. */
  app?: Paths<AppConfig>
  /** What it does, for `.env.example` (the docs explain it in env-overview.mdx). */
  description: string
  /** Meaningful only together with that variable; `.env.example` shows it commented out. */
  needs?: 'FERRY_BLOB_URL' | 'FERRY_METRICS_PORT' | 'FERRY_PURGE_URL'
  /** Starts a group of its own in `.env.example`. */
  group?: true
} & ({ default: string } | { unset: T; example: string })

/**
 * The variables Ferry reads, in the order `.env.example` lists them. `loadConfig` reads exactly
 * these; `.env.example` is rendered from them and the docs' table is checked against them
 * (tests/server/config.test.ts).
 */
export const VARIABLES = {
  host: {
    name: 'FERRY_HOST',
    default: '127.0.0.1',
    parse: hostName,
    description: 'Interface to listen on. Use 0.0.0.0 in containers or behind a proxy on another host.',
  },
  port: {
    name: 'FERRY_PORT',
    default: '8080',
    parse: between(0, 65535),
    description: 'TCP port (0: a free one, named in the "listening" log line).',
  },
  dataDir: {
    name: 'FERRY_DATA_DIR',
    default: './data',
    parse: text,
    description: 'Where the database (ferry.db), the artifact files (blobs/) and generated secrets live.',
  },
  signupKey: {
    name: 'FERRY_SIGNUP_KEY',
    unset: undefined,
    example: 'example-signup-key-change-me',
    parse: (raw, name) => secret(name, raw, 16),
    description:
      'Needed in X-Ferry-Signup-Key to create a team (at least 16 characters). Unset: generated on first start and kept in <FERRY_DATA_DIR>/signup-key.',
  },
  jwtSecret: {
    name: 'FERRY_JWT_SECRET',
    unset: undefined,
    example: 'example-0123456789abcdef0123456789abcdef',
    parse: (raw, name) => secret(name, raw, 32),
    description:
      'HS256 key of bearer tokens and signed download links (at least 32 characters). Unset: generated on first start and kept in <FERRY_DATA_DIR>/jwt-secret.',
  },
  publicUrl: {
    name: 'FERRY_PUBLIC_URL',
    app: 'publicUrl',
    unset: undefined,
    example: 'https://updates.example.com',
    parse: publicUrl,
    description:
      'Absolute base of download URLs in API responses. Unset: the origin of each request, for the names FERRY_ALLOWED_HOSTS allows.',
  },
  allowedHosts: {
    name: 'FERRY_ALLOWED_HOSTS',
    app: 'allowedHosts',
    unset: undefined,
    example: 'updates.example.com,10.0.0.5:8080',
    parse: allowedHosts,
    description:
      'Host header names answered, comma-separated (a name without a port: any port); others get 421. Unset: any with FERRY_PUBLIC_URL, else localhost, 127.0.0.1 and [::1] only.',
  },
  maxUploadBytes: {
    name: 'FERRY_MAX_UPLOAD_BYTES',
    app: 'maxUploadBytes',
    default: String(DEFAULT_MAX_UPLOAD_BYTES),
    parse: between(1, DEFAULT_MAX_UPLOAD_BYTES),
    description: 'Largest upload request in bytes (default and maximum 2147483648 = 2 GiB).',
  },
  tufTimestampSeconds: {
    name: 'FERRY_TUF_TIMESTAMP_SECONDS',
    app: 'tufTimestampSeconds',
    default: '86400',
    parse: between(1, 31_536_000),
    description:
      'Lifetime of the TUF timestamp Ferry signs for an app with signed metadata (seconds); it signs a new one once half has passed. A snapshot lives 7 times as long.',
  },
  mcpCallsPerMinute: {
    name: 'FERRY_MCP_CALLS_PER_MINUTE',
    app: 'mcpCallsPerMinute',
    default: '60',
    parse: between(1, 100_000),
    description:
      'MCP tool calls one API token may make per minute at /mcp (without a token: per client address), on each instance.',
  },
  logLevel: {
    name: 'FERRY_LOG_LEVEL',
    default: 'info',
    parse: oneOf(LOG_LEVELS, `one of ${LOG_LEVELS.join(', ')}`),
    description: 'fatal, error, warn, info, debug, trace or silent.',
  },
  telemetry: {
    name: 'FERRY_TELEMETRY',
    app: 'telemetry',
    default: 'on',
    parse: onOrOff,
    description: 'Count update checks that carry a device id (on or off). Off: nothing is counted.',
  },
  cache: {
    name: 'FERRY_CACHE',
    default: 'on',
    parse: onOrOff,
    description:
      'Performance mode: cache whole update-check, latest-build and App Installer answers until a write changes them (on or off).',
  },
  leanHttp: {
    name: 'FERRY_LEAN_HTTP',
    default: 'on',
    parse: onOrOff,
    description:
      'Send cached update answers from pre-encoded bytes, before node:http (on or off). Off: node:http reads every request.',
  },
  redisUrl: {
    name: 'FERRY_REDIS_URL',
    unset: undefined,
    example: 'redis://127.0.0.1:6379/0',
    parse: redisUrl,
    description:
      'Keep that cache and the login attempts in Redis, shared by every Ferry process. Unset: both in the server process (login attempts in PostgreSQL when that is the database).',
  },
  databaseUrl: {
    name: 'FERRY_DATABASE_URL',
    unset: undefined,
    example: 'postgres://ferry:password@127.0.0.1:5432/ferry',
    parse: databaseUrl,
    description:
      'Metadata on PostgreSQL instead of SQLite in the data dir. Needs FERRY_JWT_SECRET and FERRY_SIGNUP_KEY set, so that every instance on the database shares them.',
  },
  databasePoolSize: {
    name: 'FERRY_DATABASE_POOL_SIZE',
    default: '10',
    parse: between(1, 1000),
    description: 'PostgreSQL connections per Ferry process (1 to 1000).',
  },
  databaseStatementTimeoutMs: {
    name: 'FERRY_DATABASE_STATEMENT_TIMEOUT_MS',
    default: '15000',
    parse: between(100, 3_600_000),
    description: 'PostgreSQL cancels a statement that runs longer than this many milliseconds.',
  },
  'blobs.url': {
    name: 'FERRY_BLOB_URL',
    unset: undefined,
    example: 's3://ferry-artifacts/prod',
    parse: parseBlobUrl,
    group: true,
    description:
      'Artifact files in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Garage, Ceph RGW) instead of <FERRY_DATA_DIR>/blobs. Ferry owns everything under the prefix.',
  },
  'blobs.endpoint': {
    name: 'FERRY_S3_ENDPOINT',
    unset: undefined,
    example: 'https://s3.example.com',
    parse: s3Endpoint,
    needs: 'FERRY_BLOB_URL',
    description: 'Endpoint of a service other than AWS S3. Unset: AWS S3.',
  },
  'blobs.region': {
    name: 'FERRY_S3_REGION',
    unset: undefined,
    example: 'us-east-1',
    parse: s3Region,
    needs: 'FERRY_BLOB_URL',
    description:
      'Region the requests are signed for. Unset: us-east-1 with an endpoint, else AWS_REGION or the profile.',
  },
  'blobs.accessKeyId': {
    name: 'FERRY_S3_ACCESS_KEY_ID',
    unset: undefined,
    example: 'example-access-key',
    parse: text,
    needs: 'FERRY_BLOB_URL',
    description: "Credentials (both or neither). Unset: the AWS SDK's chain (AWS_* variables, profile, instance role).",
  },
  'blobs.secretAccessKey': {
    name: 'FERRY_S3_SECRET_ACCESS_KEY',
    unset: undefined,
    example: 'example-secret',
    parse: text,
    needs: 'FERRY_BLOB_URL',
    description: 'The secret of that access key.',
  },
  'blobs.forcePathStyle': {
    name: 'FERRY_S3_FORCE_PATH_STYLE',
    unset: undefined,
    example: 'on',
    parse: onOrOff,
    needs: 'FERRY_BLOB_URL',
    description: 'on: https://endpoint/bucket/key; off: https://bucket.endpoint/key. Default: on with an endpoint.',
  },
  downloadMode: {
    name: 'FERRY_DOWNLOAD_MODE',
    default: 'stream',
    parse: oneOf(DOWNLOAD_MODES, 'stream or redirect'),
    description: 'With object storage: stream downloads through Ferry, or redirect them to presigned bucket URLs.',
  },
  'blobs.presignSeconds': {
    name: 'FERRY_S3_PRESIGN_SECONDS',
    default: String(DEFAULT_PRESIGN_SECONDS),
    parse: between(1, 604800),
    needs: 'FERRY_BLOB_URL',
    description: 'Lifetime of presigned download URLs in seconds (redirect mode; 1 to 604800).',
  },
  orphanMinAgeSeconds: {
    name: 'FERRY_ORPHAN_MIN_AGE_SECONDS',
    default: String(DEFAULT_ORPHAN_MIN_AGE_SECONDS),
    parse: between(0, 30 * 86400),
    description:
      'At start, remove artifact files no version records once they are this old (seconds). Younger ones may belong to an upload still running on another instance.',
  },
  auditRetentionDays: {
    name: 'FERRY_AUDIT_RETENTION_DAYS',
    default: '365',
    parse: between(0, 36_500),
    description: 'Keep audit log entries this many days (0 = forever); older ones are pruned at start and every hour.',
  },
  corsOrigins: {
    name: 'FERRY_CORS_ORIGINS',
    app: 'corsOrigins',
    unset: [],
    example: 'https://admin.example.com',
    parse: corsOrigins,
    description:
      "Browser origins allowed to call the API (CORS): comma-separated exact origins, or * for any. Unset: none; browsers on other origins cannot read Ferry's answers. Installed apps do not need CORS.",
  },
  loginAttemptsPerAddress: {
    name: 'FERRY_LOGIN_ATTEMPTS_PER_ADDRESS',
    app: 'loginLimits.attemptsPerAddress',
    default: String(DEFAULT_LOGIN_LIMITS.attemptsPerAddress),
    parse: between(0, 1_000_000),
    description:
      "Login attempts per client address in 15 minutes (0 = no per-address limit; behind a reverse proxy every client has the proxy's address unless FERRY_TRUSTED_PROXIES names it).",
  },
  'healthPolicy.maxFailureRatio': {
    name: 'FERRY_HEALTH_POLICY_MAX_FAILURE_RATIO',
    app: 'healthPolicy.maxFailureRatio',
    default: String(DEFAULT_HEALTH_POLICY.maxFailureRatio),
    parse: ratio,
    description:
      "Default health policy of rollouts (a version's own healthPolicy overrides it): pause when more than this share of the counted reports failed (0 to 1).",
  },
  'healthPolicy.minReports': {
    name: 'FERRY_HEALTH_POLICY_MIN_REPORTS',
    app: 'healthPolicy.minReports',
    default: String(DEFAULT_HEALTH_POLICY.minReports),
    parse: between(1, 1_000_000),
    description: 'With it: how many reports must count before that share is judged.',
  },
  trustedProxies: {
    name: 'FERRY_TRUSTED_PROXIES',
    unset: [],
    example: '127.0.0.1',
    parse: trustedProxies,
    description:
      "Reverse proxies whose X-Forwarded-For is believed: comma-separated addresses or CIDR ranges. Unset: the header is ignored and the connection's address is the client's.",
  },
  'metrics.port': {
    name: 'FERRY_METRICS_PORT',
    unset: undefined,
    example: '9464',
    parse: between(1, 65535),
    description:
      "Prometheus metrics on a listener of their own: GET http://FERRY_METRICS_HOST:FERRY_METRICS_PORT/metrics. Unset: no metrics. The API's port never serves them.",
  },
  'metrics.host': {
    name: 'FERRY_METRICS_HOST',
    default: '127.0.0.1',
    parse: hostName,
    needs: 'FERRY_METRICS_PORT',
    description: 'Address the metrics listener binds to.',
  },
  'edgeCaching.cacheSeconds': {
    name: 'FERRY_UPDATE_CACHE_SECONDS',
    app: 'edgeCaching.cacheSeconds',
    default: '0',
    parse: between(0, 86400),
    group: true,
    description:
      "Lets a CDN or proxy keep update answers that every device gets alike for this many seconds (public Cache-Control, ETag, surrogate keys); never past a ramp's next step. 0: every answer no-store.",
  },
  'edgeCaching.staleSeconds': {
    name: 'FERRY_UPDATE_STALE_SECONDS',
    app: 'edgeCaching.staleSeconds',
    default: '0',
    parse: between(0, 86400),
    description: 'stale-while-revalidate of those answers in seconds (0: none).',
  },
  'purge.url': {
    name: 'FERRY_PURGE_URL',
    unset: undefined,
    example: 'http://127.0.0.1:6081/',
    parse: purgeUrl,
    description:
      "After a write, ask the cache in front to drop the app's answers: one request to this URL with the surrogate keys in X-Purge-Keys and xkey. Unset: no purge.",
  },
  'purge.method': {
    name: 'FERRY_PURGE_METHOD',
    default: 'PURGE',
    parse: oneOf(PURGE_METHODS, 'PURGE or BAN'),
    needs: 'FERRY_PURGE_URL',
    description: 'HTTP method of the purge request: PURGE or BAN.',
  },
  accelRedirectPrefix: {
    name: 'FERRY_ACCEL_REDIRECT_PREFIX',
    app: 'accelRedirectPrefix',
    unset: undefined,
    example: '/_ferry_blobs/',
    parse: accelPrefix,
    description:
      'Behind nginx, with artifacts on disk: answer an allowed download with X-Accel-Redirect: <prefix><file> and let nginx send the bytes from an internal location. Unset: Ferry streams them.',
  },
  webhookAllowPrivate: {
    name: 'FERRY_WEBHOOK_ALLOW_PRIVATE',
    default: 'false',
    parse: trueOrFalse,
    group: true,
    description:
      'Let webhooks reach loopback, private and link-local addresses (true or false). False: such URLs are refused, also when a host name resolves to one.',
  },
} satisfies Record<string, Variable<unknown>>

/** A variable's value as parsed, or its `unset` value. */
type ValueOf<V> = V extends { parse: (raw: string, name: string) => infer P }
  ? P | (V extends { unset: infer U } ? U : never)
  : never

type Variables = typeof VARIABLES

/** Every setting read from the environment, by its key in `VARIABLES`, as parsed. */
type Settings = { -readonly [K in keyof Variables]: ValueOf<Variables[K]> }

/** The names before the dot of the dotted keys: the parts of `ServerConfig` built from several variables. */
type PartName = keyof Settings extends infer K ? (K extends `${infer P}.${string}` ? P : never) : never

/** The settings of one part, by the name after the dot. */
type Part<P extends PartName> = { [K in keyof Settings as K extends `${P}.${infer F}` ? F : never]: Settings[K] }

/** The settings with a key of their own, as they are. */
type Whole = { [K in keyof Settings as K extends `${string}.${string}` ? never : K]: Settings[K] }

/** How each part becomes one field of `ServerConfig`. */
const PARTS = {
  blobs: blobLocation,
  metrics: (m: Part<'metrics'>) => (m.port === undefined ? undefined : { host: m.host, port: m.port }),
  edgeCaching: (e: Part<'edgeCaching'>): EdgeCaching => ({
    cacheSeconds: e.cacheSeconds,
    staleSeconds: e.staleSeconds,
  }),
  purge: (p: Part<'purge'>) => (p.url === undefined ? undefined : { url: p.url, method: p.method }),
  healthPolicy: (h: Part<'healthPolicy'>) => ({ maxFailureRatio: h.maxFailureRatio, minReports: h.minReports }),
} satisfies { [P in PartName]: (part: Part<P>) => unknown }

/** The server's configuration: one field per variable of `VARIABLES`, and one per part. */
export type ServerConfig = Whole & { [P in PartName]: ReturnType<(typeof PARTS)[P]> }

/** Where artifact bytes live: files under `<dataDir>/blobs`, or an S3-compatible bucket. */
function blobLocation(b: Part<'blobs'>): BlobLocation {
  if (!b.url) return { kind: 'fs' }
  return {
    kind: 's3',
    ...b.url,
    endpoint: b.endpoint,
    region: b.region ?? (b.endpoint ? 'us-east-1' : undefined),
    // Self-hosted object stores (MinIO, Garage, Ceph RGW) mostly serve path-style only.
    forcePathStyle: b.forcePathStyle ?? b.endpoint !== undefined,
    presignSeconds: b.presignSeconds,
    credentials:
      b.accessKeyId !== undefined && b.secretAccessKey !== undefined
        ? { accessKeyId: b.accessKeyId, secretAccessKey: b.secretAccessKey }
        : undefined,
  }
}

/** The value at a dotted path. */
type At<T, P extends string> = P extends `${infer H}.${infer R}`
  ? H extends keyof T
    ? At<NonNullable<T[H]>, R>
    : never
  : P extends keyof T
    ? T[P]
    : never

/** The keys of variables whose value does not fit the `AppConfig` field they name; must stay `never`. */
type MisfedApp = {
  [K in keyof Variables]: Variables[K] extends { app: infer P extends string }
    ? Exclude<At<ServerConfig, K>, undefined> extends At<AppConfig, P>
      ? never
      : K
    : never
}[keyof Variables]
const appFieldsFit: [MisfedApp] extends [never] ? true : MisfedApp = true
void appFieldsFit

/** Reads and validates every variable of `VARIABLES`; throws one `ConfigError` listing all problems. */
export function loadConfig(env: Env): ServerConfig {
  const problems: string[] = []
  const read = <T>(variable: Variable<T>): T => {
    const raw = env[variable.name]
    const unset = () => ('default' in variable ? variable.parse(variable.default, variable.name) : variable.unset)
    if (raw === undefined || raw === '') return unset()
    try {
      return variable.parse(raw, variable.name)
    } catch (error) {
      problems.push((error as Error).message)
      return unset()
    }
  }
  const settings = Object.fromEntries(
    Object.entries(VARIABLES).map(([key, variable]) => [key, read(variable as Variable<unknown>)]),
  ) as unknown as Settings
  problems.push(...combinationProblems(env, settings))
  if (problems.length) throw new ConfigError(problems)
  return serverConfig(settings)
}

/** Variables that are valid alone and not together. */
function combinationProblems(env: Env, s: Settings): string[] {
  const problems: string[] = []
  // Instances that share a database must share their secrets too: a file each one generates
  // for itself would make one instance refuse the tokens another issued.
  if (s.databaseUrl && (s.signupKey === undefined || s.jwtSecret === undefined)) {
    problems.push(
      'FERRY_DATABASE_URL (PostgreSQL) needs FERRY_JWT_SECRET and FERRY_SIGNUP_KEY: every instance must use the same secrets, so they are not generated per instance',
    )
  }
  if ((s['blobs.accessKeyId'] === undefined) !== (s['blobs.secretAccessKey'] === undefined)) {
    const [missing, set] =
      s['blobs.accessKeyId'] === undefined
        ? ['FERRY_S3_ACCESS_KEY_ID', 'FERRY_S3_SECRET_ACCESS_KEY']
        : ['FERRY_S3_SECRET_ACCESS_KEY', 'FERRY_S3_ACCESS_KEY_ID']
    problems.push(`${missing} must be set together with ${set}`)
  }
  if (!env.FERRY_BLOB_URL) {
    for (const { name, needs } of Object.values(VARIABLES) as Array<Variable<unknown>>) {
      if (needs === 'FERRY_BLOB_URL' && env[name])
        problems.push(`${name} needs FERRY_BLOB_URL=s3://<bucket>[/<prefix>]`)
    }
    if (s.downloadMode === 'redirect')
      problems.push('FERRY_DOWNLOAD_MODE=redirect needs FERRY_BLOB_URL=s3://<bucket>[/<prefix>]')
  } else if (s.accelRedirectPrefix !== undefined) {
    problems.push('FERRY_ACCEL_REDIRECT_PREFIX needs artifacts on disk: nginx cannot read files from FERRY_BLOB_URL')
  }
  if (s['metrics.port'] !== undefined && s['metrics.port'] === s.port && s['metrics.host'] === s.host) {
    problems.push(
      `FERRY_METRICS_PORT ${s['metrics.port']} is the API's own port on ${s.host}; give metrics a port of their own`,
    )
  }
  if (env.FERRY_PURGE_METHOD && s['purge.url'] === undefined)
    problems.push('FERRY_PURGE_METHOD is set but FERRY_PURGE_URL is not: nothing is purged without a URL')
  if (env.FERRY_METRICS_HOST && s['metrics.port'] === undefined)
    problems.push('FERRY_METRICS_HOST is set but FERRY_METRICS_PORT is not: metrics are off without a port')
  return problems
}

/** The settings in the shape the Node runtime starts from: the whole ones as they are, the parts built. */
function serverConfig(s: Settings): ServerConfig {
  const config: Record<string, unknown> = {}
  const parts: Record<string, Record<string, unknown>> = {}
  for (const [key, value] of Object.entries(s)) {
    const [part = key, field] = key.split('.')
    if (field === undefined) config[key] = value
    else (parts[part] ??= {})[field] = value
  }
  for (const [part, build] of Object.entries(PARTS) as Array<[string, (part: never) => unknown]>)
    config[part] = build(parts[part] as never)
  return config as ServerConfig
}

/** `value` at a dotted path of `object`, or `undefined`. */
function valueAt(object: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((at, field) => (at as Record<string, unknown> | undefined)?.[field], object)
}

/**
 * What `createApp` needs, from the server's settings (each variable's `app` field names where it
 * goes; an unset one is left out) and the secrets the runtime resolved (from the environment or
 * the data dir).
 */
export function appConfig(
  config: ServerConfig,
  resolved: { signupKey: string; jwtSecret: string; version: string; passwordIterations?: number | undefined },
): AppConfig {
  const app: Record<string, unknown> = {}
  for (const [key, variable] of Object.entries(VARIABLES) as Array<[string, Variable<unknown>]>) {
    const value = valueAt(config, key)
    if (variable.app === undefined || value === undefined) continue
    const [field = variable.app, inner] = variable.app.split('.')
    if (inner === undefined) app[field] = value
    else app[field] = { ...(app[field] as object | undefined), [inner]: value }
  }
  return {
    ...(app as Omit<AppConfig, 'signupKey' | 'jwtSecret' | 'maxUploadBytes'> & Pick<AppConfig, 'maxUploadBytes'>),
    signupKey: resolved.signupKey,
    jwtSecret: resolved.jwtSecret,
    version: resolved.version,
    ...(resolved.passwordIterations ? { passwordIterations: resolved.passwordIterations } : {}),
  }
}

/**
 * `FERRY_*` names that Ferry's other tools read from the same environment: the CLI's
 * (`FERRY_URL`, `FERRY_TOKEN`), the site build's, the docs runner's, CI's Node cache, and the
 * test suites' `FERRY_TEST_*`. Not the server's, and not typos of its variables.
 */
const OTHER_TOOLS_VARIABLES = new Set([
  'FERRY_URL',
  'FERRY_TOKEN',
  'FERRY_SOURCE_MAPS',
  'FERRY_DOCS_PAGES',
  'FERRY_NODE_HOME',
])

/**
 * Edits that turn `a` into `b`: inserting, deleting or replacing a character, or swapping two
 * neighbours (`ULR` → `URL` is one).
 */
function editDistance(a: string, b: string): number {
  let before: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1)
      row.push(best)
    }
    before = previous
    previous = row
  }
  return previous[b.length]!
}

/** A suggestion further than this many edits away names another variable, not a typo of it. */
const TYPO_EDITS = 3

/**
 * The `FERRY_*` variables in `env` that Ferry does not read, each with the known one nearest its
 * name when that is within a typo's reach.
 */
export function unknownVariables(env: Env): Array<{ variable: string; closest: string | undefined }> {
  const known = Object.values(VARIABLES).map((v) => v.name as string)
  return Object.keys(env)
    .filter((name) => name.startsWith('FERRY_') && !known.includes(name))
    .filter((name) => !OTHER_TOOLS_VARIABLES.has(name) && !name.startsWith('FERRY_TEST_'))
    .sort()
    .map((variable) => {
      const closest = known.reduce((best, name) =>
        editDistance(variable, name) < editDistance(variable, best) ? name : best,
      )
      return { variable, closest: editDistance(variable, closest) <= TYPO_EDITS ? closest : undefined }
    })
}
