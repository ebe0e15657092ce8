/**
 * @module Answer-cache misses computed once per instance, and a write's hot answers computed
 * again by the write instead of by every check that follows it.
 *
 * `SingleFlight`: concurrent computations of one answer (same app, cache generation and key)
 * share the first one's promise; it leaves the table when it settles, so an error is never kept.
 * The generation is part of the flight: a check that reads the generation a write's invalidation
 * left never joins a computation started before it.
 *
 * `HotAnswers`: per app, how to compute its most recently asked answers again; after a write
 * drops an app's answers, `refresh` runs those computations one after another, through the
 * same flights, so the checks arriving meanwhile wait for one computation each. One loop per
 * app: writes that land during it make it go round once more.
 */

/** At most this many computations shared at once; past it, a miss computes on its own. */
export const MAX_FLIGHTS = 1000

export class SingleFlight<T> {
  private readonly flights = new Map<string, Promise<T>>()
  constructor(private readonly max = MAX_FLIGHTS) {}

  /** `compute()`, or the computation of the same `app`, `generation` and `key` already under way. */
  run(app: string, generation: string, key: string, compute: () => Promise<T>): Promise<T> {
    const id = `${app}\u0000${generation}\u0000${key}`
    const current = this.flights.get(id)
    if (current) return current
    if (this.flights.size >= this.max) return compute()
    const flight = compute().finally(() => this.flights.delete(id))
    this.flights.set(id, flight)
    return flight
  }

  /** Computations under way (for tests and bounds). */
  get size(): number {
    return this.flights.size
  }
}

/** Computes an answer again and stores it in the answer cache. */
export type Recompute = () => Promise<unknown>

/** Answers remembered per app; apps remembered (least recently asked forgotten first). */
export const HOT_PER_APP = 8
export const MAX_HOT_APPS = 1000

export class HotAnswers {
  /** Per app, its answers' recomputations, least recently asked first (Map order). */
  private readonly apps = new Map<string, Map<string, Recompute>>()
  constructor(
    private readonly onError: (error: unknown) => void,
    private readonly perApp = HOT_PER_APP,
    private readonly maxApps = MAX_HOT_APPS,
  ) {}

  /** `key` of `app` was just asked for; `recompute` computes it again. */
  asked(app: string, key: string, recompute: Recompute): void {
    let keys = this.apps.get(app)
    if (keys) this.apps.delete(app)
    else keys = new Map()
    this.apps.set(app, keys)
    keys.delete(key)
    keys.set(key, recompute)
    if (keys.size > this.perApp) keys.delete(keys.keys().next().value ?? '')
    if (this.apps.size > this.maxApps) this.apps.delete(this.apps.keys().next().value ?? '')
  }

  /** Apps being computed again, and those whose answers a write dropped again meanwhile. */
  private readonly refreshing = new Set<string>()
  private readonly dropped = new Set<string>()

  /**
   * Computes `apps`' hot answers again, most recently asked first, one at a time; call after the
   * cache dropped them. An app already being computed again goes round once more when done (one
   * loop per app, however many writes). A failure is reported, never thrown.
   */
  refresh(apps: string[]): void {
    for (const app of apps) {
      if (this.refreshing.has(app)) this.dropped.add(app)
      else if (this.apps.has(app)) void this.recompute(app)
    }
  }

  private async recompute(app: string): Promise<void> {
    this.refreshing.add(app)
    try {
      do {
        this.dropped.delete(app)
        for (const recompute of [...(this.apps.get(app)?.values() ?? [])].reverse()) {
          try {
            await recompute()
          } catch (error) {
            this.onError(error)
          }
        }
      } while (this.dropped.has(app))
    } finally {
      this.refreshing.delete(app)
    }
  }
}
