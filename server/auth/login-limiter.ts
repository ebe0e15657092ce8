/**
 * @module Login limiting: how many password checks one email and one client address may cost in
 * a window. The contract (`LoginLimiter`) is what the app needs, and `countingLoginLimiter` is
 * its one implementation, over a `CounterStore` per limit: the process's memory here (bounded,
 * in every runtime), or a store several processes share (Redis, PostgreSQL through
 * rate-limiter-flexible: `login-limiter-flexible.ts`, chosen by the Node runtime).
 */
import { FixedWindows, secondsUntil } from './fixed-windows.ts'

export interface LoginLimits {
  /** Failed logins per email in one window; further attempts are refused until it ends. */
  failuresPerEmail: number
  /** Login attempts (failed or not) per client address in one window; 0: no per-address limit. */
  attemptsPerAddress: number
  /** Length of a window in seconds; it starts at the first attempt of an email or address. */
  windowSeconds: number
}

export const DEFAULT_LOGIN_LIMITS: Readonly<LoginLimits> = {
  failuresPerEmail: 10,
  attemptsPerAddress: 100,
  windowSeconds: 15 * 60,
}

/** Emails and addresses the in-memory limiter tracks (each); beyond that the least recently seen are forgotten. */
export const DEFAULT_TRACKED_KEYS = 50_000

export interface LoginAttempt {
  /** Lower-cased. */
  email: string
  /** `undefined` when the runtime cannot tell (the browser sandbox): only the email limit applies. */
  address: string | undefined
}

export type LoginVerdict = { allowed: true } | { allowed: false; limit: 'email' | 'address'; retryAfterSeconds: number }

/**
 * Counts login attempts. `take` is called before the password is checked and must be atomic:
 * N concurrent calls for one email never allow more than the limit.
 */
export interface LoginLimiter {
  /** Counts one attempt for the address and the email; refused when either is over its limit. */
  take(attempt: LoginAttempt): Promise<LoginVerdict>
  /** The password was right: the email's count starts again (the address keeps its count). */
  succeeded(attempt: LoginAttempt): Promise<void>
}

/** Longer strings share a counter with their first 320 characters, so keys stay small. */
const MAX_EMAIL_KEY = 320

export const emailKey = (email: string) => email.slice(0, MAX_EMAIL_KEY)

/**
 * The counter key of a client address: IPv4 as is (also when mapped into IPv6), IPv6 by its /64
 * prefix, since one subscriber usually holds a whole /64 and could otherwise rotate addresses.
 */
export function addressKey(address: string): string {
  const ip = address.toLowerCase().replace(/%.*$/, '')
  if (!ip.includes(':')) return ip
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(ip)
  if (mapped?.[1]) return mapped[1]
  const [head = '', tail] = ip.split('::', 2)
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`
}

function checkLimits(limits: LoginLimits): void {
  for (const [name, value] of Object.entries(limits)) {
    const min = name === 'attemptsPerAddress' ? 0 : 1
    if (!Number.isInteger(value) || value < min)
      throw new Error(`loginLimits.${name} must be an integer from ${min}, got ${String(value)}`)
  }
}

export function resolveLimits(limits: Partial<LoginLimits> = {}): LoginLimits {
  const resolved = { ...DEFAULT_LOGIN_LIMITS, ...limits }
  checkLimits(resolved)
  return resolved
}

/**
 * Fixed-window counters per key in one store: the process's memory, Redis or PostgreSQL. One
 * store counts one limit (emails, or addresses).
 */
export interface CounterStore {
  /**
   * Counts one attempt for `key`, atomically; resolves `undefined` when it is within the limit,
   * else the milliseconds until the key's window ends (and counts nothing).
   */
  hit(key: string): Promise<number | undefined>
  /** Starts the key's count again. */
  forget(key: string): Promise<void>
}

export interface LoginCounters {
  byEmail: CounterStore
  /** Absent when there is no per-address limit (`attemptsPerAddress: 0`). */
  byAddress?: CounterStore
}

/**
 * The one `LoginLimiter` over any store: the address is counted first (an address over its limit
 * costs the email nothing), then the email; a right password forgets the email's count.
 * `storeKey` turns an email or address key into the key the store sees.
 */
export function countingLoginLimiter(
  { byEmail, byAddress }: LoginCounters,
  storeKey: (kind: 'email' | 'address', key: string) => string | Promise<string> = (_kind, key) => key,
): LoginLimiter {
  return {
    async take({ email, address }) {
      const addressWait =
        address === undefined || !byAddress
          ? undefined
          : await byAddress.hit(await storeKey('address', addressKey(address)))
      if (addressWait !== undefined)
        return { allowed: false, limit: 'address', retryAfterSeconds: secondsUntil(addressWait) }
      const emailWait = await byEmail.hit(await storeKey('email', emailKey(email)))
      if (emailWait !== undefined) return { allowed: false, limit: 'email', retryAfterSeconds: secondsUntil(emailWait) }
      return { allowed: true }
    },
    async succeeded({ email }) {
      await byEmail.forget(await storeKey('email', emailKey(email)))
    },
  }
}

/** `FixedWindows` as a store: counting is synchronous, so every `hit` is atomic. */
function memoryStore(windows: FixedWindows): CounterStore {
  return {
    hit: async (key) => windows.hit(key),
    forget: async (key) => windows.forget(key),
  }
}

/**
 * The default limiter, in the process's memory (one server process; the browser sandbox), each
 * limit bounded to `maxKeys` keys. `now` is in milliseconds.
 */
export function createMemoryLoginLimiter(
  limits: Partial<LoginLimits> = {},
  now: () => number = Date.now,
  maxKeys = DEFAULT_TRACKED_KEYS,
): LoginLimiter & { readonly trackedKeys: number } {
  const l = resolveLimits(limits)
  const windowMs = l.windowSeconds * 1000
  const emails = new FixedWindows(l.failuresPerEmail, windowMs, maxKeys, now)
  const addresses = new FixedWindows(l.attemptsPerAddress, windowMs, maxKeys, now)
  const limiter = countingLoginLimiter({
    byEmail: memoryStore(emails),
    ...(l.attemptsPerAddress ? { byAddress: memoryStore(addresses) } : {}),
  })
  return {
    take: limiter.take,
    succeeded: limiter.succeeded,
    get trackedKeys() {
      return emails.size + addresses.size
    },
  }
}
