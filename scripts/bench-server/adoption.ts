/**
 * The adoption query in `npm run bench:server -- --catalogue`: seeds a version's activity (offers,
 * downloads, reports, devices running it over 30 days) plus one offer on every other version of
 * the catalogue, then times `adoptionByDay` in process and prints each query's plan (EXPLAIN).
 */
import { CompiledQuery } from 'kysely'
import { adoptionByDay, adoptionQueries, type AdoptionVersion } from '../../server/storage/telemetry/adoption.ts'
import { dialectOf } from '../../server/storage/dialect.ts'
import type { Db } from '../../server/core/storage.ts'
import { CATALOGUE_APP, catalogueVersion } from './catalogue.ts'

const DAYS = 30
const DEVICES_PER_DAY = 200
const dayOf = (d: number) => new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10)

/** Activity on the newest of `count` versions (its 6,000 devices over 30 days) and one offer on each other version. */
export async function seedAdoption(db: Db, count: number): Promise<AdoptionVersion> {
  const target = `ver_${count - 1}`
  for (let start = 0; start < count; start += 1000) {
    await db
      .insertInto('update_offers')
      .values(
        Array.from({ length: Math.min(1000, count - start) }, (_, k) => ({
          version_id: `ver_${start + k}`,
          device_hash: `other-${start + k}`,
          address_hash: 'a',
          offered_at: `${dayOf(0)}T00:00:00.000Z`,
        })),
      )
      .execute()
  }
  for (let d = 0; d < DAYS; d++) {
    const at = `${dayOf(d)}T12:00:00.000Z`
    const ids = Array.from({ length: DEVICES_PER_DAY })
    await db
      .insertInto('update_offers')
      .values(
        ids.map((_, i) => ({
          version_id: target,
          device_hash: `d${d}-${i}`,
          address_hash: `a${i % 50}`,
          offered_at: at,
        })),
      )
      .execute()
    await db
      .insertInto('health_reports')
      .values(
        ids.map((_, i) => ({
          version_id: target,
          device_hash: `d${d}-${i}`,
          outcome: i % 20 === 0 ? ('failed' as const) : ('installed' as const),
          reason: '',
          from_version: null,
          reported_at: at,
        })),
      )
      .execute()
    await db
      .insertInto('telemetry_devices')
      .values(
        ids.map((_, i) => ({
          app_slug: CATALOGUE_APP,
          day: dayOf(d),
          version: catalogueVersion(count - 1),
          channel: 'stable',
          platform: 'windows',
          arch: 'x64',
          device_hash: `t${d}-${i}`,
        })),
      )
      .execute()
    await db
      .insertInto('version_downloads')
      .values({ version_id: target, day: dayOf(d), downloads: DEVICES_PER_DAY })
      .execute()
  }
  return {
    id: target,
    app_slug: CATALOGUE_APP,
    version: catalogueVersion(count - 1),
    channel: 'stable',
    platform: 'windows',
    arch: 'x64',
  }
}

/** p50 and p99 (ms) of `runs` adoption reads of 30 days, and the plan of each query. */
export async function measureAdoption(
  db: Db,
  v: AdoptionVersion,
  runs = 200,
): Promise<{ p50: number; p99: number; plans: string[] }> {
  const [from, to] = [dayOf(0), dayOf(DAYS - 1)]
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    await adoptionByDay(db, v, from, to)
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  const explain = dialectOf(db) === 'postgres' ? 'EXPLAIN ' : 'EXPLAIN QUERY PLAN '
  const plans: string[] = []
  for (const [name, query] of Object.entries(adoptionQueries(db, v, from, to))) {
    const compiled = query.compile()
    const result = await db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(explain + compiled.sql, [...compiled.parameters]),
    )
    plans.push(
      `${name}: ${result.rows.map((r) => String(r['QUERY PLAN'] ?? r.detail ?? JSON.stringify(r)).trim()).join(' | ')}`,
    )
  }
  return { p50: times[Math.floor(runs / 2)] ?? 0, p99: times[Math.floor(runs * 0.99)] ?? 0, plans }
}
