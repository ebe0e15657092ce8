/** @module Telemetry aggregates for the caller's team: update checks and unique devices per day. */
import { sql } from 'kysely'
import type { Handlers } from '../http/respond.ts'
import type { Services } from '../http/services.ts'
import { currentUser } from '../auth/auth-user.ts'
import { visibleApps } from '../auth/permissions.ts'
import { HttpProblem, validationProblem } from '../http/problem.ts'
import { versionInput } from '../http/version-input.ts'

const MAX_DAYS = 366
const DAY_MS = 24 * 3600 * 1000

export function telemetryHandlers(s: Services): Pick<Handlers, 'getTelemetry'> {
  return {
    async getTelemetry(c, { query: q }, respond) {
      const user = currentUser(c.get('user'))
      if (!s.telemetry)
        throw new HttpProblem('telemetry-disabled', 'Telemetry is switched off on this server (FERRY_TELEMETRY=off).')
      const days = (Date.parse(q.to) - Date.parse(q.from)) / DAY_MS
      if (days < 0) throw validationProblem([{ field: 'to', message: 'must not be before from' }])
      if (days >= MAX_DAYS)
        throw validationProblem([{ field: 'to', message: `must be less than ${MAX_DAYS} days after from` }])
      await s.telemetry.flush()
      let query = s.db
        .selectFrom('telemetry_counts as t')
        .innerJoin('apps', 'apps.slug', 't.app_slug')
        .where('apps.team_id', '=', user.teamId)
        .where('t.day', '>=', q.from)
        .where('t.day', '<=', q.to)
      const visible = visibleApps(user)
      if (visible) query = query.where('t.app_slug', 'in', visible.size ? [...visible] : [''])
      if (q.app !== undefined) query = query.where('t.app_slug', '=', q.app)
      if (q.version !== undefined) query = query.where('t.version', '=', versionInput('version', q.version).raw)
      if (q.channel !== undefined) query = query.where('t.channel', '=', q.channel)
      if (q.platform !== undefined) query = query.where('t.platform', '=', q.platform)
      if (q.arch !== undefined) query = query.where('t.arch', '=', q.arch)
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
      return respond(
        200,
        {
          from: q.from,
          to: q.to,
          items: rows.map((r) => ({
            day: r.day,
            app: r.app_slug,
            version: r.version,
            channel: r.channel,
            platform: r.platform,
            arch: r.arch,
            checks: r.checks,
            devices: Number(r.devices ?? 0),
          })),
        },
        { 'cache-control': 'no-store' },
      )
    },
  }
}
