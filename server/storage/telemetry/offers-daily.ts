/**
 * @module Bounded offer storage: offers that update checks recorded (storage/telemetry/health-evidence.ts)
 * on whole UTC days older than the health reports' retention are counted per version and day into
 * `update_offers_daily` and deleted, in bounded batches. An offer that a raw health report still
 * needs (to count it, and to know its address) stays until that report is summed. Adoption reads
 * both, so its figures stay the same.
 */
import { AGGREGATE_BATCH, RAW_HEALTH_DAYS } from './health-daily.ts'
import { sumRows } from './daily-sums.ts'
import { dialectOf } from '../dialect.ts'
import type { Db } from '../../core/storage.ts'

/**
 * Counts and deletes offers of whole UTC days older than `days` before `now`, at most `maxBatches`
 * batches of `batch` rows, each in one transaction; returns how many raw rows went. On
 * PostgreSQL, `SKIP LOCKED` keeps two instances from counting one offer twice.
 */
export async function aggregateOffers(
  db: Db,
  now: Date,
  days = RAW_HEALTH_DAYS,
  maxBatches = 100,
  batch = AGGREGATE_BATCH,
): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10)
  let moved = 0
  for (let i = 0; i < maxBatches; i++) {
    const n = await db.transaction().execute(async (trx) => {
      let due = trx
        .selectFrom('update_offers as o')
        .select(['o.version_id', 'o.device_hash', 'o.offered_at'])
        .where('o.offered_at', '<', cutoff)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('health_reports as h')
                .select('h.device_hash')
                .whereRef('h.version_id', '=', 'o.version_id')
                .whereRef('h.device_hash', '=', 'o.device_hash'),
            ),
          ),
        )
        .limit(batch)
      if (dialectOf(trx) === 'postgres') due = due.forUpdate('o').skipLocked()
      const rows = await due.execute()
      if (!rows.length) return 0
      const { sums, devices } = sumRows(
        rows,
        (r) => `${r.version_id}\n${r.offered_at.slice(0, 10)}`,
        (r) => ({ version_id: r.version_id, day: r.offered_at.slice(0, 10), offered: 0 }),
        (sum) => {
          sum.offered++
        },
      )
      await trx
        .insertInto('update_offers_daily')
        .values(sums)
        .onConflict((oc) =>
          oc.columns(['version_id', 'day']).doUpdateSet((eb) => ({
            offered: eb('update_offers_daily.offered', '+', eb.ref('excluded.offered')),
          })),
        )
        .execute()
      for (const [versionId, hashes] of devices) {
        await trx
          .deleteFrom('update_offers')
          .where('version_id', '=', versionId)
          .where('device_hash', 'in', hashes)
          .where('offered_at', '<', cutoff)
          .execute()
      }
      return rows.length
    })
    moved += n
    if (n < batch) break
  }
  return moved
}
