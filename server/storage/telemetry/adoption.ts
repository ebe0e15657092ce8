/**
 * @module The SQL of a version's adoption: per UTC day, offers and health reports (raw, and
 * summed once a month old), downloads and devices running it. Each count is one grouped query over one version's rows in the day range,
 * on an index that starts with the version (so its cost follows that version's activity, not the
 * catalogue's or the fleet's size).
 */
import { sql } from 'kysely'
import type { Db } from '../../core/storage.ts'

export interface AdoptionCounts {
  offered: number
  downloads: number
  installed: number
  failed: number
  running: number
}
export interface AdoptionVersion {
  id: string
  app_slug: string
  version: string
  channel: string
  platform: string
  arch: string
}

/** Adds counted downloads in one transaction; a version deleted since they were counted is skipped. */
export async function addDownloads(
  db: Db,
  counts: Array<{ versionId: string; day: string; downloads: number }>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const c of counts) {
      await sql`INSERT INTO version_downloads (version_id, day, downloads)
        SELECT CAST(${c.versionId} AS text), CAST(${c.day} AS text), CAST(${c.downloads} AS integer)
        WHERE EXISTS (SELECT 1 FROM versions WHERE id = ${c.versionId})
        ON CONFLICT (version_id, day) DO UPDATE SET downloads = version_downloads.downloads + excluded.downloads`.execute(
        trx,
      )
    }
  })
}

const day = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`

/** The grouped queries of `adoptionByDay`, for it and for EXPLAIN (`bench:server -- --catalogue`). */
export function adoptionQueries(db: Db, v: AdoptionVersion, from: string, to: string) {
  // Timestamps are ISO text: the day range is a text range, `to` inclusive up to its last instant.
  const end = `${to}T99`
  return {
    offered: db
      .selectFrom('update_offers')
      .where('version_id', '=', v.id)
      .where('offered_at', '>=', from)
      .where('offered_at', '<', end)
      .select([day('offered_at').as('day'), sql<number | string>`count(*)`.as('n')])
      .groupBy(day('offered_at')),
    // Offers older than a month, counted per day (storage/telemetry/offers-daily.ts).
    offeredSummed: db
      .selectFrom('update_offers_daily')
      .where('version_id', '=', v.id)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .select(['day', 'offered as n']),
    downloads: db
      .selectFrom('version_downloads')
      .where('version_id', '=', v.id)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .select(['day', 'downloads as n']),
    reports: db
      .selectFrom('health_reports')
      .where('version_id', '=', v.id)
      .where('reported_at', '>=', from)
      .where('reported_at', '<', end)
      .select([day('reported_at').as('day'), 'outcome', sql<number | string>`count(*)`.as('n')])
      .groupBy([day('reported_at'), 'outcome']),
    // Reports older than a month, summed per day (storage/telemetry/health-daily.ts).
    reportsSummed: db
      .selectFrom('health_daily')
      .where('version_id', '=', v.id)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .select((eb) => [
        'day',
        eb.fn.sum<number | string>('installed').as('installed'),
        eb.fn.sum<number | string>('failed').as('failed'),
      ])
      .groupBy('day'),
    running: db
      .selectFrom('telemetry_devices')
      .where('app_slug', '=', v.app_slug)
      .where('version', '=', v.version)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .where('channel', '=', v.channel)
      .where('platform', '=', v.platform)
      .where('arch', '=', v.arch)
      .select(['day', sql<number | string>`count(*)`.as('n')])
      .groupBy('day'),
  }
}

/** The version's counts per day from `from` to `to` (inclusive `YYYY-MM-DD`), days with none left out. */
export async function adoptionByDay(
  db: Db,
  v: AdoptionVersion,
  from: string,
  to: string,
): Promise<Map<string, AdoptionCounts>> {
  const q = adoptionQueries(db, v, from, to)
  const [offers, offersSummed, downloads, reports, summed, running] = await Promise.all([
    q.offered.execute(),
    q.offeredSummed.execute(),
    q.downloads.execute(),
    q.reports.execute(),
    q.reportsSummed.execute(),
    q.running.execute(),
  ])
  const out = new Map<string, AdoptionCounts>()
  const of = (d: string) => {
    let c = out.get(d)
    if (!c) out.set(d, (c = { offered: 0, downloads: 0, installed: 0, failed: 0, running: 0 }))
    return c
  }
  for (const r of [...offers, ...offersSummed]) of(r.day).offered += Number(r.n)
  for (const r of downloads) of(r.day).downloads = Number(r.n)
  for (const r of reports) of(r.day)[r.outcome] = Number(r.n)
  for (const r of summed) {
    of(r.day).installed += Number(r.installed)
    of(r.day).failed += Number(r.failed)
  }
  for (const r of running) of(r.day).running = Number(r.n)
  return out
}
