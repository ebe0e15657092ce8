/**
 * @module The telemetry listing's SQL: a team's update checks per day, app, version, channel,
 * platform and architecture, each row with its count of unique devices.
 */
import { sql } from 'kysely'
import type { Db } from '../../core/storage.ts'

/** Which rows the listing holds: days `from` to `to` (both included); members left out do not filter. */
export interface TelemetryFilter {
  from: string
  to: string
  /** The apps the caller may see (`null`: all of the team's). */
  apps: ReadonlySet<string> | null
  app?: string | undefined
  version?: string | undefined
  channel?: string | undefined
  platform?: string | undefined
  arch?: string | undefined
}

export interface TelemetryDayRow {
  day: string
  app_slug: string
  version: string
  channel: string
  platform: string
  arch: string
  checks: number
  devices: number
}

/** The team's counts by day and group, in that order, each with its unique devices. */
export async function teamTelemetryDays(db: Db, teamId: string, f: TelemetryFilter): Promise<TelemetryDayRow[]> {
  let query = db
    .selectFrom('telemetry_counts as t')
    .innerJoin('apps', 'apps.slug', 't.app_slug')
    .where('apps.team_id', '=', teamId)
    .where('t.day', '>=', f.from)
    .where('t.day', '<=', f.to)
  // An empty IN list is not SQL: '' is no slug.
  if (f.apps) query = query.where('t.app_slug', 'in', f.apps.size ? [...f.apps] : [''])
  if (f.app !== undefined) query = query.where('t.app_slug', '=', f.app)
  if (f.version !== undefined) query = query.where('t.version', '=', f.version)
  if (f.channel !== undefined) query = query.where('t.channel', '=', f.channel)
  if (f.platform !== undefined) query = query.where('t.platform', '=', f.platform)
  if (f.arch !== undefined) query = query.where('t.arch', '=', f.arch)
  const rows = await query
    .select((eb) => [
      't.day',
      't.app_slug',
      't.version',
      't.channel',
      't.platform',
      't.arch',
      't.checks',
      eb
        .selectFrom('telemetry_devices as d')
        .select(sql<number>`count(*)`.as('n'))
        .whereRef('d.app_slug', '=', 't.app_slug')
        .whereRef('d.day', '=', 't.day')
        .whereRef('d.version', '=', 't.version')
        .whereRef('d.channel', '=', 't.channel')
        .whereRef('d.platform', '=', 't.platform')
        .whereRef('d.arch', '=', 't.arch')
        .as('devices'),
    ])
    .orderBy('t.day')
    .orderBy('t.app_slug')
    .orderBy('t.version')
    .orderBy('t.channel')
    .orderBy('t.platform')
    .orderBy('t.arch')
    .execute()
  return rows.map((r) => ({ ...r, devices: Number(r.devices ?? 0) }))
}
