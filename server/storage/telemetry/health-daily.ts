/**
 * @module Bounded health storage: reports older than a month are summed into `health_daily` (per
 * version, UTC day and client address) and their raw rows deleted, in bounded batches. Adoption,
 * the health tally and a gated ramp's evidence read both, so their figures stay the same. Only
 * rows whose exact time still matters stay raw: those of the day a version was last resumed
 * (reports before the resume stop counting, later ones do not), and on a gated ramp those of the
 * day its evidence window opened (the step in force counts the reports made since it began).
 */
import { sql } from 'kysely'
import { sumRows } from './daily-sums.ts'
import { dialectOf } from '../dialect.ts'
import { ROLLOUT_COLUMNS } from '../releases/rollouts.ts'
import type { Db } from '../../core/storage.ts'

/** Raw reports summed per statement at most, so that one batch never holds locks for long. */
export const AGGREGATE_BATCH = 1000
/** Days a health report stays raw. */
export const RAW_HEALTH_DAYS = 30

export const dayOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`

/**
 * Where a gated ramp's evidence window opens (ISO time; `null`: it has none), per gated version.
 * The reports of that day stay raw: the window counts them from its exact time, and summed days
 * only whole. Windows never move back, so a later window's day is never one already summed.
 */
export type GateWindows = ReadonlyMap<string, string | null>

/**
 * Sums raw reports of whole UTC days older than `days` before `now` into `health_daily` and
 * deletes them, at most `maxBatches` batches of `batch` rows, each in one transaction; returns
 * how many raw rows went. On PostgreSQL, `SKIP LOCKED` keeps two instances from summing one row
 * twice. A gated version's reports are summed only when `windows` names it (its window's day stays raw).
 */
export async function aggregateHealthReports(
  db: Db,
  now: Date,
  days = RAW_HEALTH_DAYS,
  maxBatches = 100,
  batch = AGGREGATE_BATCH,
  windows: GateWindows = new Map(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10)
  let moved = 0
  let batches = 0
  for (const scope of [{ gated: null }, ...[...windows].map(([id, since]) => ({ gated: { id, since } }))]) {
    // Only batches that moved rows count against `maxBatches`: a gated version with nothing old costs one read.
    while (batches < maxBatches) {
      const n = await sumBatch(db, cutoff, batch, scope.gated)
      moved += n
      if (n > 0) batches++
      if (n < batch) break
    }
  }
  return moved
}

/** One batch: ungated versions' reports (`gated` null), or one gated version's outside its window's day. */
async function sumBatch(
  db: Db,
  cutoff: string,
  batch: number,
  gated: { id: string; since: string | null } | null,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let due = trx
      .selectFrom('health_reports as h')
      .innerJoin('versions as v', 'v.id', 'h.version_id')
      .leftJoin('update_offers as o', (j) =>
        j.onRef('o.version_id', '=', 'h.version_id').onRef('o.device_hash', '=', 'h.device_hash'),
      )
      .select(['h.version_id', 'h.device_hash', 'h.outcome', 'h.reported_at', 'o.address_hash'])
      .where('h.reported_at', '<', cutoff)
      .where((eb) =>
        eb.or([eb('v.health_since', 'is', null), eb(dayOf('h.reported_at'), '!=', dayOf('v.health_since'))]),
      )
      .limit(batch)
    if (gated === null) due = due.where('v.ramp_gate', 'is', null)
    else {
      due = due.where('h.version_id', '=', gated.id).where('v.ramp_gate', 'is not', null)
      if (gated.since !== null) due = due.where(dayOf('h.reported_at'), '!=', gated.since.slice(0, 10))
    }
    if (dialectOf(trx) === 'postgres') due = due.forUpdate('h').skipLocked()
    const rows = await due.execute()
    if (!rows.length) return 0
    const { sums, devices } = sumRows(
      rows,
      (r) => `${r.version_id}\n${r.reported_at.slice(0, 10)}\n${r.address_hash ?? ''}`,
      (r) => ({
        version_id: r.version_id,
        day: r.reported_at.slice(0, 10),
        address_hash: r.address_hash ?? '',
        installed: 0,
        failed: 0,
      }),
      (sum, r) => {
        sum[r.outcome]++
      },
    )
    await trx
      .insertInto('health_daily')
      .values(sums)
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
}

/** Gated versions' rollout columns, for their evidence windows (server/updates/ramp-gate.ts). */
export async function gatedRamps(db: Db) {
  return db
    .selectFrom('versions')
    .select(['id', ...ROLLOUT_COLUMNS])
    .where('ramp_gate', 'is not', null)
    .execute()
}
