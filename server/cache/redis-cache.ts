/**
 * @module Performance mode across processes: answers in Redis, one hash per app
 * (`ferry:answers:<app>`) and a generation counter per app (`ferry:gen:<app>`). Node only: the
 * Node runtime imports this module dynamically when `FERRY_REDIS_URL` is set, so the redis
 * client never reaches the browser bundle.
 */
import { createClient } from 'redis'
import type { AnswerCache, CachedAnswer } from './answer-cache.ts'

/** Stores the answer only if the app's generation is still the one read before computing it. */
const SET_IF_CURRENT = `
if (redis.call('GET', KEYS[1]) or '0') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1`

/** Safety net only: a hash untouched for a day expires even if an invalidation was lost. */
const HASH_TTL_MS = 24 * 3600 * 1000

interface Stored { v: CachedAnswer; exp?: number }

export async function createRedisCache(url: string, onError: (error: unknown) => void): Promise<AnswerCache> {
  const client = createClient({ url })
  client.on('error', onError)
  await client.connect()
  const answers = (app: string) => `ferry:answers:${app}`
  const gen = (app: string) => `ferry:gen:${app}`
  return {
    kind: 'redis',
    async get(app, key) {
      const raw = await client.hGet(answers(app), key)
      if (raw == null) return undefined
      const stored = JSON.parse(raw) as Stored
      return stored.exp !== undefined && stored.exp <= Date.now() ? undefined : stored.v
    },
    async generation(app) {
      return (await client.get(gen(app))) ?? '0'
    },
    async set(app, key, value, generation, ttlMs) {
      const stored: Stored = ttlMs ? { v: value, exp: Date.now() + ttlMs } : { v: value }
      await client.eval(SET_IF_CURRENT, {
        keys: [gen(app), answers(app)],
        arguments: [generation, key, JSON.stringify(stored), String(HASH_TTL_MS)],
      })
    },
    async invalidate(apps) {
      if (apps.length === 0) return
      const multi = client.multi()
      for (const app of apps) multi.incr(gen(app)).del(answers(app))
      await multi.exec()
    },
    async close() {
      await client.close()
    },
  }
}
