/**
 * @module Bounded health storage: reports older than a month are summed into `health_daily` (per
 * version, UTC day and client address) and their raw rows deleted, in bounded batches. Adoption
 * and the health tally read both, so their figures stay the same. Rows whose time still matters
 * stay raw: a gated ramp's (each step counts the reports made since it began), and those of the
 * day a version was last resumed (reports before the resume stop counting, later ones do not).
 */
import { sql } from 'kysely'
import { dialectOf } from './dialect.ts'
import type { Db } from './types.ts'

/** Raw reports summed per statement at most, so that one batch never holds locks for long. */
export const AGGREGATE_BATCH = 1000
/** Days a health report stays raw. */
export const RAW_HEALTH_DAYS = 30

export const dayOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`

/**
 * Sums raw reports of whole UTC days older than `days` before `now` into `health_daily` and
 * deletes them, at most `maxBatches` batches of `batch` rows, each in one transaction; returns
 * how many raw rows went. On PostgreSQL, `SKIP LOCKED` keeps two instances from summing one row twice.
 */
export async function aggregateHealthReports(
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
        .selectFrom('health_reports as h')
        .innerJoin('versions as v', 'v.id', 'h.version_id')
        .leftJoin('update_offers as o', (j) =>
          j.onRef('o.version_id', '=', 'h.version_id').onRef('o.device_hash', '=', 'h.device_hash'),
        )
        .select(['h.version_id', 'h.device_hash', 'h.outcome', 'h.reported_at', 'o.address_hash'])
        .where('h.reported_at', '<', cutoff)
        .where('v.ramp_gate', 'is', null)
        .where((eb) =>
          eb.or([eb('v.health_since', 'is', null), eb(dayOf('h.reported_at'), '!=', dayOf('v.health_since'))]),
        )
        .limit(batch)
      if (dialectOf(trx) === 'postgres') due = due.forUpdate('h').skipLocked()
      const rows = await due.execute()
      if (!rows.length) return 0
      const sums = new Map<
        string,
        { version_id: string; day: string; address_hash: string; installed: number; failed: number }
      >()
      const devices = new Map<string, string[]>()
      for (const r of rows) {
        const day = r.reported_at.slice(0, 10)
        const address = r.address_hash ?? ''
        const key = `${r.version_id}\n${day}\n${address}`
        const sum = sums.get(key) ?? { version_id: r.version_id, day, address_hash: address, installed: 0, failed: 0 }
        sum[r.outcome]++
        sums.set(key, sum)
        devices.set(r.version_id, [...(devices.get(r.version_id) ?? []), r.device_hash])
      }
      await trx
        .insertInto('health_daily')
        .values([...sums.values()])
        .onConflict((oc) =>
          oc.columns(['version_id', 'day', 'address_hash']).doUpdateSet((eb) => ({
            installed: eb('health_daily.installed', '+', eb.ref('excluded.installed')),
            failed: eb('health_daily.failed', '+', eb.ref('excluded.failed')),
          })),
        )
        .execute()
      for (const [versionId, hashes] of devices) {
        await trx
          .deleteFrom('health_reports')
          .where('version_id', '=', versionId)
          .where('device_hash', 'in', hashes)
          .where('reported_at', '<', cutoff)
          .execute()
      }
      return rows.length
    })
    moved += n
    if (n < batch) break
  }
  return moved
}
