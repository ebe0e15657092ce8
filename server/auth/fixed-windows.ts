/** @module Request counting in fixed windows per key, in memory and bounded (login limits, health reports). */
import { LRUCache } from 'lru-cache'

/** Whole seconds to wait for `ms`, at least one (a Retry-After value). */
export function secondsUntil(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000))
}

/** Fixed windows per key in a bounded LRU: memory stays bounded whatever the number of keys. */
export class FixedWindows {
  private readonly windows: LRUCache<string, { count: number; endsAt: number }>
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    maxKeys: number,
    private readonly now: () => number,
  ) {
    this.windows = new LRUCache({ max: maxKeys })
  }

  /** Counts one attempt; when the key is already at its limit, returns the ms until its window ends instead. */
  hit(key: string): number | undefined {
    const now = this.now()
    let window = this.windows.get(key)
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + this.windowMs }
      this.windows.set(key, window)
    }
    if (window.count >= this.limit) return window.endsAt - now
    window.count++
    return undefined
  }

  forget(key: string): void {
    this.windows.delete(key)
  }

  get size(): number {
    return this.windows.size
  }
}
