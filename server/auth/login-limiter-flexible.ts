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
import { hmacSha256Hex } from '../core/crypto.ts'
import { countingLoginLimiter, type CounterStore, type LoginLimiter } from './login-limiter.ts'
import { DependencyUnavailable } from '../core/outage.ts'

type Counter = Pick<RateLimiterCompatibleAbstract, 'consume' | 'delete'>

export interface FlexibleCounters {
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

/** One rate-limiter-flexible limiter as a `CounterStore`; a store failure is a `DependencyUnavailable`. */
function flexibleStore(counter: Counter): CounterStore {
  return {
    async hit(key) {
      try {
        await counter.consume(key)
        return undefined
      } catch (rejection) {
        const wait = overLimitWait(rejection)
        if (wait === undefined) throw new DependencyUnavailable(LOGIN_STORE, rejection)
        return wait
      }
    },
    async forget(key) {
      await counter.delete(key).catch((error: unknown) => {
        throw new DependencyUnavailable(LOGIN_STORE, error)
      })
    },
  }
}

export function flexibleLoginLimiter({ byEmail, byAddress }: FlexibleCounters, secret: string): LoginLimiter {
  return countingLoginLimiter(
    { byEmail: flexibleStore(byEmail), ...(byAddress ? { byAddress: flexibleStore(byAddress) } : {}) },
    async (kind, key) => (await hmacSha256Hex(secret, `login-${kind}\n${key}`)).slice(0, 32),
  )
}
