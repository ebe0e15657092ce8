/**
 * @module Performance mode across processes: answers in Redis, one hash per app
 * (`ferry:answers:<app>`) and a generation counter per app (`ferry:gen:<app>`), on a client
 * storage opened (`storage/drivers/redis-node.ts`), which closing the cache closes.
 *
 * When Redis is unreachable, requests are answered without the cache (commands fail fast instead
 * of queueing), and an invalidation that could not be delivered is retried before this process
 * uses the cache for that app again.
 */
import { LRUCache } from 'lru-cache'
import type { RedisClient } from '../storage/drivers/redis-node.ts'
import type { AnswerCache, CachedAnswer } from './answer-cache.ts'

/** Stores the answer only if the app's generation is still the one read before computing it. */
const SET_IF_CURRENT = `
if (redis.call('GET', KEYS[1]) or '0') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1`

/** Safety net only: an app's answers untouched for an hour expire even if an invalidation was lost. */
const HASH_TTL_MS = 3600 * 1000
/** `generation` when Redis did not answer: `set` then stores nothing. */
const UNAVAILABLE = 'unavailable'

/**
 * Answers read lately, with the text Redis held: while Redis holds the same text, `get` returns
 * the same object, so what is kept per answer object (its bytes as sent, its headers as sent) is
 * made once per answer, as with the in-process cache, and not again for every hit.
 */
const READ_ENTRIES = 1000
const READ_BYTES = 16 * 1024 * 1024

interface Stored {
  v: CachedAnswer
  exp?: number
}

export function createRedisCache(client: RedisClient, onError: (error: unknown) => void): AnswerCache {
  const answers = (app: string) => `ferry:answers:${app}`
  const gen = (app: string) => `ferry:gen:${app}`
  /** Apps whose invalidation has not reached Redis yet. */
  const pending = new Set<string>()
  const read = new LRUCache<string, { raw: string; stored: Stored }>({
    max: READ_ENTRIES,
    maxSize: READ_BYTES,
    sizeCalculation: (entry, id) => 2 * (entry.raw.length + id.length) + 200,
  })

  async function deliver(apps: string[]): Promise<void> {
    const multi = client.multi()
    for (const app of apps) multi.incr(gen(app)).del(answers(app))
    await multi.exec()
  }
  /** Whether this process may use Redis for `app` (after retrying its pending invalidation). */
  async function usable(app: string): Promise<boolean> {
    if (!pending.has(app)) return true
    try {
      await deliver([...pending])
      pending.clear()
      return true
    } catch (error) {
      onError(error)
      return false
    }
  }

  return {
    kind: 'redis',
    async get(app, key) {
      try {
        if (!(await usable(app))) return undefined
        const raw = await client.hGet(answers(app), key)
        if (raw == null) return undefined
        const id = `${app}\u0000${key}`
        const last = read.get(id)
        const stored = last?.raw === raw ? last.stored : (JSON.parse(raw) as Stored)
        if (stored !== last?.stored) read.set(id, { raw, stored })
        return stored.exp !== undefined && stored.exp <= Date.now() ? undefined : stored.v
      } catch (error) {
        onError(error)
        return undefined
      }
    },
    async generation(app) {
      try {
        if (!(await usable(app))) return UNAVAILABLE
        return (await client.get(gen(app))) ?? '0'
      } catch (error) {
        onError(error)
        return UNAVAILABLE
      }
    },
    async set(app, key, value, generation, ttlMs) {
      if (generation === UNAVAILABLE) return
      const stored: Stored = ttlMs ? { v: value, exp: Date.now() + ttlMs } : { v: value }
      try {
        await client.eval(SET_IF_CURRENT, {
          keys: [gen(app), answers(app)],
          arguments: [generation, key, JSON.stringify(stored), String(HASH_TTL_MS)],
        })
      } catch (error) {
        onError(error)
      }
    },
    async invalidate(apps) {
      if (apps.length === 0) return
      try {
        await deliver(apps)
      } catch (error) {
        for (const app of apps) pending.add(app)
        throw error
      }
    },
    // Every process reads the generations in Redis itself: none can have missed one.
    async invalidateAll() {},
    async close() {
      read.clear()
      await client.close()
    },
  }
}
