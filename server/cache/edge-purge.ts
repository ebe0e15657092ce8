/**
 * @module Purges a CDN's or proxy's copies of update answers after a write, by surrogate key, so
 * a pull or pause reaches devices at once. `httpPurger` speaks the Varnish/nginx style (one
 * request to `FERRY_PURGE_URL` naming the keys in `X-Purge-Keys` and `xkey`); a CDN's own API
 * fits behind the same `EdgePurger` interface.
 */
import { appSurrogateKey } from './edge-headers.ts'

/** Where `purge failed` goes (pino's and the app's logger both fit). */
interface ErrorLog {
  error(obj: object, msg?: string): void
}

export interface EdgePurger {
  /** Drops every cached answer carrying one of `keys`; throws when the cache refused. */
  purge(keys: string[]): Promise<void>
}

export const PURGE_METHODS = ['PURGE', 'BAN'] as const
export type PurgeMethod = (typeof PURGE_METHODS)[number]

/** One request per purge: `method url` with the keys space-separated in `X-Purge-Keys` and `xkey`. */
export function httpPurger(url: string, method: PurgeMethod, fetcher: typeof fetch = fetch): EdgePurger {
  return {
    async purge(keys) {
      const list = keys.join(' ')
      const response = await fetcher(url, {
        method,
        headers: { 'x-purge-keys': list, xkey: list },
        signal: AbortSignal.timeout(5000),
      })
      await response.body?.cancel()
      if (response.status >= 300) throw new Error(`${method} ${url} answered ${response.status}`)
    },
  }
}

/** Waits between attempts: three tries in about a second and a half. */
const RETRY_MS = [250, 1000]

/**
 * Purges `apps`' answers, retrying, and logs `purge failed` when every attempt failed (the
 * copies then live until their TTL). Never throws: the write it follows has landed.
 */
export async function purgeApps(
  purger: EdgePurger,
  apps: string[],
  logger: ErrorLog,
  wait: (ms: number) => Promise<void>,
  reqId?: string,
): Promise<void> {
  if (!apps.length) return
  const keys = apps.map(appSurrogateKey)
  for (let attempt = 0; ; attempt++) {
    try {
      await purger.purge(keys)
      return
    } catch (err) {
      const delay = RETRY_MS[attempt]
      if (delay === undefined) {
        logger.error({ reqId, keys, attempts: attempt + 1, err }, 'purge failed')
        return
      }
      await wait(delay)
    }
  }
}
