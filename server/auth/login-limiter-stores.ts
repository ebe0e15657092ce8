/**
 * @module Login limiting shared by every instance: rate-limiter-flexible's counters in Redis or
 * in PostgreSQL behind the `LoginLimiter` contract (`login-limiter-flexible.ts`), with the same
 * limits as the in-memory default. Node only: `runtime/node.ts` imports this module dynamically
 * when FERRY_REDIS_URL or FERRY_DATABASE_URL is set, so neither the package's index nor the
 * clients reach other runtimes.
 */
import type pg from 'pg'
import { RateLimiterPostgres, RateLimiterRedis } from 'rate-limiter-flexible'
import { flexibleLoginLimiter, type FlexibleCounters } from './login-limiter-flexible.ts'
import { resolveLimits, type LoginLimiter, type LoginLimits } from './login-limiter.ts'
import { LOGIN_LIMITS_TABLE } from '../storage/migrations/0004-login-limits.ts'
import type { RedisClient } from '../storage/drivers/redis-node.ts'

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
 * Counters in Redis, on a client of their own (`openRedis`: commands fail at once while Redis is
 * unreachable, so a login then answers 503 instead of waiting), closed with the limiter.
 */
export function redisLoginLimiter(
  client: RedisClient,
  limits: Partial<LoginLimits>,
  secret: string,
): SharedLoginLimiter {
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

/**
 * Counters in the `ferry_login_limits` table (made by the migrations, which every instance runs
 * before this), on a small pool of their own (`openPostgresPool`), ended with the limiter.
 */
export function postgresLoginLimiter(pool: pg.Pool, limits: Partial<LoginLimits>, secret: string): SharedLoginLimiter {
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
