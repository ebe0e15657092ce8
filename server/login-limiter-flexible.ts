/**
 * @module A `LoginLimiter` over two rate-limiter-flexible limiters, for stores shared by several
 * processes (`RateLimiterRedis`, `RateLimiterPostgres`, ...). Configure both with `points` =
 * the limit, `duration` = the window and no `blockDuration`, `execEvenly` or insurance that
 * changes the answer. Only types are imported: the caller brings the store (in the Node runtime;
 * the package's index pulls in cluster and database clients the browser cannot load).
 */
import type { RateLimiterCompatibleAbstract } from 'rate-limiter-flexible'
import { addressKey, emailKey, secondsUntil, type LoginLimiter } from './login-limiter.ts'

type Counter = Pick<RateLimiterCompatibleAbstract, 'consume' | 'delete'>

/** rate-limiter-flexible rejects with a `RateLimiterRes` when over the limit, with an `Error` when the store fails. */
function overLimitWait(rejection: unknown): number | undefined {
  if (rejection instanceof Error || typeof rejection !== 'object' || rejection === null) return undefined
  const ms = (rejection as { msBeforeNext?: unknown }).msBeforeNext
  return typeof ms === 'number' ? ms : undefined
}

async function consume(counter: Counter, key: string): Promise<number | undefined> {
  try {
    await counter.consume(key)
    return undefined
  } catch (rejection) {
    const wait = overLimitWait(rejection)
    if (wait === undefined) throw rejection
    return wait
  }
}

export function flexibleLoginLimiter(counters: { byEmail: Counter; byAddress: Counter }): LoginLimiter {
  return {
    async take({ email, address }) {
      const addressWait = address === undefined ? undefined : await consume(counters.byAddress, addressKey(address))
      if (addressWait !== undefined) return { allowed: false, limit: 'address', retryAfterSeconds: secondsUntil(addressWait) }
      const emailWait = await consume(counters.byEmail, emailKey(email))
      if (emailWait !== undefined) return { allowed: false, limit: 'email', retryAfterSeconds: secondsUntil(emailWait) }
      return { allowed: true }
    },
    async succeeded({ email }) {
      await counters.byEmail.delete(emailKey(email))
    },
  }
}
