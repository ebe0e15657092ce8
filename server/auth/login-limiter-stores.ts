/**
 * @module Login limiting shared by every instance: rate-limiter-flexible's counters in Redis or
 * in PostgreSQL behind the `LoginLimiter` contract (`login-limiter-flexible.ts`), with the same
 * limits as the in-memory default. Node only: `runtime/node.ts` imports this module dynamically
 * when FERRY_REDIS_URL or FERRY_DATABASE_URL is set, so neither the package's index nor the
 * clients reach other runtimes.
 */
import pg from 'pg'
import { RateLimiterPostgres, RateLimiterRedis } from 'rate-limiter-flexible'
import { createClient } from 'redis'
import { flexibleLoginLimiter, type FlexibleCounters } from './login-limiter-flexible.ts'
import { resolveLimits, type LoginLimiter, type LoginLimits } from './login-limiter.ts'
import { LOGIN_LIMITS_TABLE } from '../storage/migrations.ts'

export interface SharedLoginLimiter {
  limiter: LoginLimiter
  close(): Promise<void>
}

interface CounterOptions {
  keyPrefix: string
  points: number
  duration: number
}

/** One counter per limit; none for a per-address limit of 0 (a store counter of 0 points refuses everything). */
function counters(
  limits: Partial<LoginLimits>,
  make: (options: CounterOptions, first: boolean) => FlexibleCounters['byEmail'],
): FlexibleCounters {
  const l = resolveLimits(limits)
  const byEmail = make({ keyPrefix: 'ferry-login-email', points: l.failuresPerEmail, duration: l.windowSeconds }, true)
  if (!l.attemptsPerAddress) return { byEmail }
  return {
    byEmail,
    byAddress: make(
      { keyPrefix: 'ferry-login-address', points: l.attemptsPerAddress, duration: l.windowSeconds },
      false,
    ),
  }
}

/**
 * Counters in Redis at `url`, on a client of their own. Commands fail at once while Redis is
 * unreachable (no offline queue): a login then answers 503 instead of waiting.
 */
export async function redisLoginLimiter(
  url: string,
  limits: Partial<LoginLimits>,
  secret: string,
  onError: (error: unknown) => void,
): Promise<SharedLoginLimiter> {
  const client = createClient({ url, disableOfflineQueue: true })
  client.on('error', onError)
  await client.connect()
  const limiter = flexibleLoginLimiter(
    counters(limits, (options) => new RateLimiterRedis({ ...options, storeClient: client, useRedisPackage: true })),
    secret,
  )
  return {
    limiter,
    async close() {
      await client.close()
    },
  }
}

export interface PostgresLimiterOptions {
  /** Longest a statement may run (FERRY_DATABASE_STATEMENT_TIMEOUT_MS). */
  statementTimeoutMs: number
  /** How long to wait for a connection before the login answers 503. */
  connectTimeoutMs?: number
}

/**
 * Counters in the `ferry_login_limits` table of the database at `url` (made by the migrations,
 * which every instance runs before this), on a small pool of their own.
 */
export async function postgresLoginLimiter(
  url: string,
  limits: Partial<LoginLimits>,
  secret: string,
  options: PostgresLimiterOptions,
): Promise<SharedLoginLimiter> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 4,
    statement_timeout: options.statementTimeoutMs,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
  })
  // An idle client that loses its server (a restart) must not crash the process.
  pool.on('error', () => undefined)
  const limiter = flexibleLoginLimiter(
    counters(
      limits,
      (o, first) =>
        new RateLimiterPostgres({
          ...o,
          storeClient: pool,
          storeType: 'pool',
          tableName: LOGIN_LIMITS_TABLE,
          tableCreated: true,
          // Both counters share the table: one timer deleting rows that expired an hour ago is enough.
          clearExpiredByTimeout: first,
        }),
    ),
    secret,
  )
  return {
    limiter,
    async close() {
      await pool.end()
    },
  }
}
