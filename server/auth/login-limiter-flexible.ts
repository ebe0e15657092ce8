/**
 * @module A `LoginLimiter` over two rate-limiter-flexible limiters, for stores shared by several
 * processes (`RateLimiterRedis`, `RateLimiterPostgres`: see `login-limiter-stores.ts`). Configure
 * both with `points` = the limit, `duration` = the window and no `blockDuration`, `execEvenly` or
 * insurance that changes the answer. Only types are imported: the caller brings the store (in the
 * Node runtime; the package's index pulls in cluster and database clients the browser cannot load).
 *
 * Keys reach the store as HMACs of the email or address (keyed with the server's secret, which
 * every instance shares), so no email or client address is written to Redis or PostgreSQL.
 */
import type { RateLimiterCompatibleAbstract } from 'rate-limiter-flexible'
import { hmacSha256Hex } from './crypto.ts'
import { secondsUntil } from './fixed-windows.ts'
import { addressKey, emailKey, type LoginLimiter } from './login-limiter.ts'
import { DependencyUnavailable } from '../storage/outage.ts'

type Counter = Pick<RateLimiterCompatibleAbstract, 'consume' | 'delete'>

export interface LoginCounters {
  byEmail: Counter
  /** Absent when there is no per-address limit (`attemptsPerAddress: 0`). */
  byAddress?: Counter
}

/** What a login answers while the store cannot count: 503, never an uncounted password check. */
const LOGIN_STORE = 'The store of login attempts'

/** rate-limiter-flexible rejects with a `RateLimiterRes` when over the limit, with an `Error` when the store fails. */
function overLimitWait(rejection: unknown): number | undefined {
  if (rejection instanceof Error || typeof rejection !== 'object' || rejection === null) return undefined
  const ms: unknown = Reflect.get(rejection, 'msBeforeNext')
  return typeof ms === 'number' ? ms : undefined
}

async function consume(counter: Counter, key: string): Promise<number | undefined> {
  try {
    await counter.consume(key)
    return undefined
  } catch (rejection) {
    const wait = overLimitWait(rejection)
    if (wait === undefined) throw new DependencyUnavailable(LOGIN_STORE, rejection)
    return wait
  }
}

export function flexibleLoginLimiter(counters: LoginCounters, secret: string): LoginLimiter {
  const hashed = async (kind: 'email' | 'address', key: string) => (await hmacSha256Hex(secret, `login-${kind}\n${key}`)).slice(0, 32)
  const { byEmail, byAddress } = counters
  return {
    async take({ email, address }) {
      const addressWait = address === undefined || !byAddress ? undefined : await consume(byAddress, await hashed('address', addressKey(address)))
      if (addressWait !== undefined) return { allowed: false, limit: 'address', retryAfterSeconds: secondsUntil(addressWait) }
      const emailWait = await consume(byEmail, await hashed('email', emailKey(email)))
      if (emailWait !== undefined) return { allowed: false, limit: 'email', retryAfterSeconds: secondsUntil(emailWait) }
      return { allowed: true }
    },
    async succeeded({ email }) {
      const key = await hashed('email', emailKey(email))
      await byEmail.delete(key).catch((error: unknown) => {
        throw new DependencyUnavailable(LOGIN_STORE, error)
      })
    },
  }
}
