/**
 * @module Server configuration from environment variables. Every variable is declared once in
 * `VARIABLES` and validated at start; problems name the variable. (No `node:` imports: the
 * Node entry passes the process environment in.)
 */

import type { CorsOrigins } from './cors.ts'
import { DEFAULT_LOGIN_LIMITS } from './login-limiter.ts'
import { DEFAULT_HEALTH_POLICY, type HealthPolicy } from './rollout.ts'

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export interface ServerConfig {
  host: string
  port: number
  dataDir: string
  /** `undefined`: generated on first start and kept in `<dataDir>/signup-key`. */
  signupKey: string | undefined
  /** `undefined`: generated on first start and kept in `<dataDir>/jwt-secret`. */
  jwtSecret: string | undefined
  /** `undefined`: download URLs use the origin of each request. */
  publicUrl: string | undefined
  maxUploadBytes: number
  logLevel: LogLevel
  /** Count update checks that carry a device id. */
  telemetry: boolean
  /** Performance mode: cache whole update answers (in process, or in Redis with `redisUrl`). */
  cache: boolean
  /** `undefined`: the answer cache lives in the process. */
  redisUrl: string | undefined
  /** `undefined`: SQLite in `<dataDir>/ferry.db`; else a `postgres://` URL. */
  databaseUrl: string | undefined
  /** PostgreSQL connections per instance. */
  databasePoolSize: number
  /** PostgreSQL cancels a statement running longer than this. */
  databaseStatementTimeoutMs: number
  /** Where artifact bytes live: files under `<dataDir>/blobs`, or an S3-compatible bucket. */
  blobs: BlobLocation
  /** With object storage: answer downloads with a redirect to a presigned URL, or stream them. */
  downloadMode: DownloadMode
  /** The start-up orphan sweep keeps blobs younger than this (other instances' uploads in flight). */
  orphanMinAgeSeconds: number
  /** Browser origins allowed to call the API; `[]` or absent: none (no CORS headers). */
  corsOrigins?: CorsOrigins
  /** Login attempts per client address and window; 0: no per-address limit. Absent: the app's default. */
  loginAttemptsPerAddress?: number
  /**
   * Addresses and CIDR ranges of reverse proxies whose `X-Forwarded-For` is believed; a request
   * from any other peer is that peer. Empty: the header is ignored.
   */
  trustedProxies: string[]
  /** Prometheus metrics on their own listener (`GET /metrics`); `undefined`: off. */
  metrics: { host: string; port: number } | undefined
  /** When health reports pause a rollout, for versions without a `healthPolicy` of their own. */
  healthPolicy: HealthPolicy
}

export const DOWNLOAD_MODES = ['stream', 'redirect'] as const
export type DownloadMode = (typeof DOWNLOAD_MODES)[number]

export interface S3Location {
  kind: 's3'
  bucket: string
  /** Empty, or ends with `/`; every blob key is stored under it. */
  prefix: string
  /** `undefined`: AWS S3 itself (the SDK's endpoint for the region). */
  endpoint: string | undefined
  /** `undefined`: the AWS SDK's default chain (AWS_REGION, profile), or us-east-1 with an endpoint. */
  region: string | undefined
  /** `undefined`: the AWS SDK's default credential chain (AWS_* variables, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined
  forcePathStyle: boolean
  /** Lifetime of presigned download URLs. */
  presignSeconds: number
}

export type BlobLocation = { kind: 'fs' } | S3Location

export const DEFAULT_MAX_UPLOAD_BYTES = 2 * 1024 ** 3
export const DEFAULT_PRESIGN_SECONDS = 900
export const DEFAULT_ORPHAN_MIN_AGE_SECONDS = 3600

type Env = Record<string, string | undefined>

export class ConfigError extends Error {
  readonly problems: string[]
  constructor(problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.problems = problems
  }
}

function integer(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`)
  }
  return Number(raw)
}

/** A decimal from 0 to 1, such as `0.2`. */
function ratio(name: string, raw: string): number {
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) > 1) throw new Error(`${name} must be a decimal from 0 to 1 (0.2 is 20 %), got ${JSON.stringify(raw)}`)
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
function corsOrigins(raw: string): CorsOrigins {
  const name = 'FERRY_CORS_ORIGINS'
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
      throw new Error(`${name} must be * or comma-separated origins like https://admin.example.com (scheme, host and port only, no path or trailing /), got ${JSON.stringify(entry)}`)
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
function trustedProxies(raw: string): string[] {
  const name = 'FERRY_TRUSTED_PROXIES'
  const entries = raw.split(',').map((e) => e.trim()).filter(Boolean)
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/')
    const version = ipVersion(address)
    const max = version === 4 ? 32 : 128
    if (!version || extra !== undefined || (bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > max))) {
      throw new Error(`${name} must be comma-separated IP addresses or CIDR ranges like 10.0.0.0/8 or fd00::/8, got ${JSON.stringify(entry)}`)
    }
  }
  return [...new Set(entries)]
}

/** Reads and validates every variable; throws one `ConfigError` listing all problems. */
export function loadConfig(env: Env): ServerConfig {
  const problems: string[] = []
  const read = <T>(name: string, fallback: T, parse: (raw: string) => T): T => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    try {
      return parse(raw)
    } catch (error) {
      problems.push((error as Error).message)
      return fallback
    }
  }
  const host = read('FERRY_HOST', '127.0.0.1', (raw) => {
    if (!/^[A-Za-z0-9.:[\]-]+$/.test(raw)) throw new Error(`FERRY_HOST must be a host name or IP address, got ${JSON.stringify(raw)}`)
    return raw
  })
  const port = read('FERRY_PORT', 8080, (raw) => integer('FERRY_PORT', raw, 0, 65535))
  const dataDir = read('FERRY_DATA_DIR', './data', (raw) => raw)
  const signupKey = read<string | undefined>('FERRY_SIGNUP_KEY', undefined, (raw) => secret('FERRY_SIGNUP_KEY', raw, 16))
  const jwtSecret = read<string | undefined>('FERRY_JWT_SECRET', undefined, (raw) => secret('FERRY_JWT_SECRET', raw, 32))
  const publicUrl = read<string | undefined>('FERRY_PUBLIC_URL', undefined, (raw) => {
    let url: URL
    try {
      url = new URL(raw)
    } catch {
      throw new Error(`FERRY_PUBLIC_URL must be an absolute http(s) URL, got ${JSON.stringify(raw)}`)
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('FERRY_PUBLIC_URL must start with http:// or https://')
    return raw.replace(/\/+$/, '')
  })
  const maxUploadBytes = read('FERRY_MAX_UPLOAD_BYTES', DEFAULT_MAX_UPLOAD_BYTES, (raw) =>
    integer('FERRY_MAX_UPLOAD_BYTES', raw, 1, DEFAULT_MAX_UPLOAD_BYTES))
  const logLevel = read<LogLevel>('FERRY_LOG_LEVEL', 'info', (raw) => {
    if (!(LOG_LEVELS as readonly string[]).includes(raw)) throw new Error(`FERRY_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(raw)}`)
    return raw as LogLevel
  })
  const telemetry = read('FERRY_TELEMETRY', true, (raw) => onOff('FERRY_TELEMETRY', raw))
  const cache = read('FERRY_CACHE', true, (raw) => onOff('FERRY_CACHE', raw))
  const redisUrl = read<string | undefined>('FERRY_REDIS_URL', undefined, (raw) => {
    if (!/^rediss?:\/\/[^\s]+$/.test(raw)) throw new Error(`FERRY_REDIS_URL must be a redis:// or rediss:// URL, got ${JSON.stringify(raw)}`)
    return raw
  })
  const databaseUrl = read<string | undefined>('FERRY_DATABASE_URL', undefined, (raw) => {
    if (!/^postgres(?:ql)?:\/\/[^\s]+$/.test(raw)) throw new Error(`FERRY_DATABASE_URL must be a postgres:// or postgresql:// URL, got ${JSON.stringify(raw.replace(/:[^:@/]*@/, ':***@'))}`)
    return raw
  })
  const databasePoolSize = read('FERRY_DATABASE_POOL_SIZE', 10, (raw) => integer('FERRY_DATABASE_POOL_SIZE', raw, 1, 1000))
  const databaseStatementTimeoutMs = read('FERRY_DATABASE_STATEMENT_TIMEOUT_MS', 15_000, (raw) => integer('FERRY_DATABASE_STATEMENT_TIMEOUT_MS', raw, 100, 3_600_000))
  // Instances that share a database must share their secrets too: a file each one generates
  // for itself would make one instance refuse the tokens another issued.
  if (databaseUrl && (signupKey === undefined || jwtSecret === undefined)) {
    problems.push('FERRY_DATABASE_URL (PostgreSQL) needs FERRY_JWT_SECRET and FERRY_SIGNUP_KEY: every instance must use the same secrets, so they are not generated per instance')
  }
  const { blobs, downloadMode, orphanMinAgeSeconds } = readBlobSettings(env, read, problems)
  const cors = read<CorsOrigins>('FERRY_CORS_ORIGINS', [], corsOrigins)
  const loginAttemptsPerAddress = read('FERRY_LOGIN_ATTEMPTS_PER_ADDRESS', DEFAULT_LOGIN_LIMITS.attemptsPerAddress, (raw) =>
    integer('FERRY_LOGIN_ATTEMPTS_PER_ADDRESS', raw, 0, 1_000_000))
  const proxies = read<string[]>('FERRY_TRUSTED_PROXIES', [], trustedProxies)
  const metricsPort = read<number | undefined>('FERRY_METRICS_PORT', undefined, (raw) => integer('FERRY_METRICS_PORT', raw, 1, 65535))
  const metricsHost = read('FERRY_METRICS_HOST', '127.0.0.1', (raw) => {
    if (!/^[A-Za-z0-9.:[\]-]+$/.test(raw)) throw new Error(`FERRY_METRICS_HOST must be a host name or IP address, got ${JSON.stringify(raw)}`)
    return raw
  })
  if (metricsPort !== undefined && metricsPort === port && metricsHost === host) problems.push(`FERRY_METRICS_PORT ${metricsPort} is the API's own port on ${host}; give metrics a port of their own`)
  if (env.FERRY_METRICS_HOST && metricsPort === undefined) problems.push('FERRY_METRICS_HOST is set but FERRY_METRICS_PORT is not: metrics are off without a port')
  const healthPolicy: HealthPolicy = {
    maxFailureRatio: read('FERRY_HEALTH_POLICY_MAX_FAILURE_RATIO', DEFAULT_HEALTH_POLICY.maxFailureRatio, (raw) => ratio('FERRY_HEALTH_POLICY_MAX_FAILURE_RATIO', raw)),
    minReports: read('FERRY_HEALTH_POLICY_MIN_REPORTS', DEFAULT_HEALTH_POLICY.minReports, (raw) => integer('FERRY_HEALTH_POLICY_MIN_REPORTS', raw, 1, 1_000_000)),
  }
  if (problems.length) throw new ConfigError(problems)
  return {
    host, port, dataDir, signupKey, jwtSecret, publicUrl, maxUploadBytes, logLevel, telemetry, cache, redisUrl,
    databaseUrl, databasePoolSize, databaseStatementTimeoutMs, blobs, downloadMode, orphanMinAgeSeconds,
    corsOrigins: cors, loginAttemptsPerAddress, trustedProxies: proxies,
    metrics: metricsPort === undefined ? undefined : { host: metricsHost, port: metricsPort },
    healthPolicy,
  }
}

const S3_VARIABLES = ['FERRY_S3_ENDPOINT', 'FERRY_S3_REGION', 'FERRY_S3_ACCESS_KEY_ID', 'FERRY_S3_SECRET_ACCESS_KEY', 'FERRY_S3_FORCE_PATH_STYLE', 'FERRY_S3_PRESIGN_SECONDS'] as const

/** `s3://bucket` or `s3://bucket/some/prefix` (bucket names as S3 allows them). */
function parseBlobUrl(raw: string): { bucket: string; prefix: string } {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/([A-Za-z0-9._/-]*))?$/.exec(raw)
  const prefix = (m?.[2] ?? '').replace(/^\/+|\/+$/g, '')
  if (!m?.[1] || prefix.split('/').some((part) => part === '.' || part === '..') || prefix.includes('//')) {
    throw new Error(`FERRY_BLOB_URL must be s3://<bucket> or s3://<bucket>/<prefix> (bucket: 3–63 lower-case letters, digits, dots, hyphens), got ${JSON.stringify(raw)}`)
  }
  return { bucket: m[1], prefix: prefix ? `${prefix}/` : '' }
}

function readBlobSettings(env: Env, read: <T>(name: string, fallback: T, parse: (raw: string) => T) => T, problems: string[]) {
  const bucket = read<{ bucket: string; prefix: string } | undefined>('FERRY_BLOB_URL', undefined, parseBlobUrl)
  const endpoint = read<string | undefined>('FERRY_S3_ENDPOINT', undefined, (raw) => {
    if (!/^https?:\/\/[^\s/]+\/?$/.test(raw)) throw new Error(`FERRY_S3_ENDPOINT must be an http(s) URL without a path, got ${JSON.stringify(raw)}`)
    return raw.replace(/\/$/, '')
  })
  const region = read<string | undefined>('FERRY_S3_REGION', undefined, (raw) => {
    if (!/^[a-z0-9-]{1,32}$/.test(raw)) throw new Error(`FERRY_S3_REGION must be a region name such as us-east-1 or auto, got ${JSON.stringify(raw)}`)
    return raw
  })
  const accessKeyId = read<string | undefined>('FERRY_S3_ACCESS_KEY_ID', undefined, (raw) => raw)
  const secretAccessKey = read<string | undefined>('FERRY_S3_SECRET_ACCESS_KEY', undefined, (raw) => raw)
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    problems.push(`${accessKeyId === undefined ? 'FERRY_S3_ACCESS_KEY_ID' : 'FERRY_S3_SECRET_ACCESS_KEY'} must be set together with ${accessKeyId === undefined ? 'FERRY_S3_SECRET_ACCESS_KEY' : 'FERRY_S3_ACCESS_KEY_ID'}`)
  }
  // Self-hosted object stores (MinIO, Garage, Ceph RGW) mostly serve path-style only.
  const forcePathStyle = read('FERRY_S3_FORCE_PATH_STYLE', endpoint !== undefined, (raw) => onOff('FERRY_S3_FORCE_PATH_STYLE', raw))
  const presignSeconds = read('FERRY_S3_PRESIGN_SECONDS', DEFAULT_PRESIGN_SECONDS, (raw) => integer('FERRY_S3_PRESIGN_SECONDS', raw, 1, 604800))
  const downloadMode = read<DownloadMode>('FERRY_DOWNLOAD_MODE', 'stream', (raw) => {
    if (!(DOWNLOAD_MODES as readonly string[]).includes(raw)) throw new Error(`FERRY_DOWNLOAD_MODE must be stream or redirect, got ${JSON.stringify(raw)}`)
    return raw as DownloadMode
  })
  const orphanMinAgeSeconds = read('FERRY_ORPHAN_MIN_AGE_SECONDS', DEFAULT_ORPHAN_MIN_AGE_SECONDS, (raw) => integer('FERRY_ORPHAN_MIN_AGE_SECONDS', raw, 0, 30 * 86400))
  if (!env.FERRY_BLOB_URL) {
    for (const name of S3_VARIABLES) if (env[name]) problems.push(`${name} needs FERRY_BLOB_URL=s3://<bucket>[/<prefix>]`)
    if (downloadMode === 'redirect') problems.push('FERRY_DOWNLOAD_MODE=redirect needs FERRY_BLOB_URL=s3://<bucket>[/<prefix>]')
  }
  const blobs: BlobLocation = bucket
    ? {
      kind: 's3', ...bucket, endpoint, region: region ?? (endpoint ? 'us-east-1' : undefined), forcePathStyle, presignSeconds,
      credentials: accessKeyId !== undefined && secretAccessKey !== undefined ? { accessKeyId, secretAccessKey } : undefined,
    }
    : { kind: 'fs' }
  return { blobs, downloadMode, orphanMinAgeSeconds }
}
