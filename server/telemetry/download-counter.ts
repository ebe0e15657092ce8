/**
 * @module Downloads counted in memory and written in batches (with telemetry's flush), so the
 * download path never waits on a write. Bounded: past `MAX_KEYS` versions and days in one batch,
 * further downloads of new keys are counted as lost until the next flush.
 */
import { addDownloads } from '../storage/telemetry/adoption.ts'
import type { Db } from '../core/storage.ts'

const MAX_KEYS = 10_000

export class DownloadCounter {
  private counts = new Map<string, number>()
  private lost = 0
  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  /** One whole-file download of an artifact of `versionId`. */
  count(versionId: string): void {
    const key = `${versionId}\n${this.now().toISOString().slice(0, 10)}`
    const n = this.counts.get(key)
    if (n !== undefined) this.counts.set(key, n + 1)
    else if (this.counts.size < MAX_KEYS) this.counts.set(key, 1)
    else this.lost++
  }

  /** Downloads dropped because the batch was full, since the last flush. */
  get dropped(): number {
    return this.lost
  }

  /** Writes the batch; on failure the counts go back into the next one. */
  async flush(): Promise<void> {
    if (this.counts.size === 0) return
    const batch = this.counts
    this.counts = new Map()
    this.lost = 0
    try {
      await addDownloads(
        this.db,
        [...batch].map(([key, downloads]) => {
          const [versionId = '', day = ''] = key.split('\n')
          return { versionId, day, downloads }
        }),
      )
    } catch (err) {
      for (const [key, n] of batch)
        if (this.counts.size < MAX_KEYS || this.counts.has(key)) this.counts.set(key, (this.counts.get(key) ?? 0) + n)
      throw err
    }
  }
}
