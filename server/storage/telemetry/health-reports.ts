/**
 * @module The SQL of a health report's arrival: the app and the published version it is about,
 * and the one row per device and version that keeps its latest outcome.
 */
import type { Insertable } from 'kysely'
import type { Db, HealthReportsTable } from '../../core/storage.ts'

export async function reportingApp(db: Db, slug: string) {
  return db.selectFrom('apps').select(['slug', 'team_id']).where('slug', '=', slug).executeTakeFirst()
}

/** The published, not pulled version a report names, with what its gate and policy need. */
export async function reportedVersion(
  db: Db,
  at: { app: string; channel: string; platform: string; arch: string; versionKey: string },
) {
  return db
    .selectFrom('versions as v')
    .innerJoin('channels as c', 'c.id', 'v.channel_id')
    .innerJoin('platforms as p', 'p.id', 'v.platform_id')
    .innerJoin('archs as a', 'a.id', 'v.arch_id')
    .select([
      'v.id',
      'v.version',
      'v.paused_at',
      'v.ramp_gate',
      'v.health_max_failure_ratio',
      'v.health_min_reports',
      'v.health_min_addresses',
      'v.health_max_reports_per_address',
    ])
    .where('v.app_slug', '=', at.app)
    .where('c.name', '=', at.channel)
    .where('p.name', '=', at.platform)
    .where('a.name', '=', at.arch)
    .where('v.version_key', '=', at.versionKey)
    .where('v.published', '=', 1)
    .where('v.pulled_at', 'is', null)
    .executeTakeFirst()
}

/** Stores a device's report on a version, replacing its earlier one. */
export async function saveHealthReport(db: Db, report: Insertable<HealthReportsTable>): Promise<void> {
  await db
    .insertInto('health_reports')
    .values(report)
    .onConflict((oc) =>
      oc.columns(['version_id', 'device_hash']).doUpdateSet({
        outcome: report.outcome,
        reason: report.reason,
        from_version: report.from_version,
        reported_at: report.reported_at,
      }),
    )
    .execute()
}
