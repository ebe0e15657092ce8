/**
 * @module Performance mode: whole update-check, latest-build and App Installer answers, cached per app.
 * Every write to an app (or to the catalogs its answers depend on) invalidates that app's
 * answers; `set` stores only when no invalidation happened since `generation` was read, so an
 * answer computed from data a write has since replaced never lands in the cache.
 */
import { LRUCache } from 'lru-cache'
import type { Answer } from '../protocols/answer.ts'

/**
 * A cache entry: an answer, or "the answer depends on the device's buckets for these [version,
 * percentage]s". `until`: epoch ms on the app's clock after which the entry is stale (a ramp
 * takes its next step then); readers treat it as absent.
 */
export type CachedAnswer = (Answer | { vary: Array<[string, number]> }) & { until?: number }

export interface AnswerCache {
  readonly kind: 'memory' | 'redis'
  get(app: string, key: string): Promise<CachedAnswer | undefined>
  /** Read before computing an answer; pass to `set`. */
  generation(app: string): Promise<string>
  /** `ttlMs`: for answers with time-limited links (private apps). Entries are never mutated. */
  set(app: string, key: string, value: CachedAnswer, generation: string, ttlMs?: number): Promise<void>
  invalidate(apps: string[]): Promise<void>
  /** Forgets every answer (after a gap in which invalidations may have been missed). */
  invalidateAll(): Promise<void>
  close(): Promise<void>
}

export const DEFAULT_MAX_ENTRIES = 10_000
/**
 * Entries are also bounded by size: keys and answers carry the request's origin (download
 * URLs), which a client picks with its Host header, so 10 000 entries alone could hold GiBs.
 */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024

/** Approximate heap bytes of an entry (UTF-16 upper bound plus object overhead). */
function entryBytes(value: CachedAnswer, key: string): number {
  let chars = key.length
  if ('vary' in value) for (const [version] of value.vary) chars += version.length + 8
  else {
    chars += value.body.length
    for (const [name, header] of Object.entries(value.headers)) chars += name.length + header.length
  }
  return 2 * chars + 200
}

/** The in-process cache (default): an LRU of answers, keyed by app generation. */
export function createMemoryCache(maxEntries = DEFAULT_MAX_ENTRIES, maxBytes = DEFAULT_MAX_BYTES): AnswerCache {
  const lru = new LRUCache<string, CachedAnswer>({ max: maxEntries, maxSize: maxBytes, sizeCalculation: entryBytes })
  const generations = new Map<string, number>()
  // Part of every generation: bumping it makes every stored answer unreachable at once.
  let epoch = 0
  const gen = (app: string) => epoch * 1_000_000_000 + (generations.get(app) ?? 0)
  const fullKey = (app: string, g: number, key: string) => `${app}\u0000${g}\u0000${key}`
  return {
    kind: 'memory',
    async get(app, key) {
      return lru.get(fullKey(app, gen(app), key))
    },
    async generation(app) {
      return String(gen(app))
    },
    async set(app, key, value, generation, ttlMs) {
      if (String(gen(app)) !== generation) return
      lru.set(fullKey(app, gen(app), key), value, ttlMs ? { ttl: ttlMs } : {})
    },
    async invalidate(apps) {
      // Older generations' entries become unreachable and age out of the LRU.
      for (const app of apps) generations.set(app, (generations.get(app) ?? 0) + 1)
    },
    async invalidateAll() {
      epoch++
      generations.clear()
      lru.clear()
    },
    async close() {
      lru.clear()
    },
  }
}
