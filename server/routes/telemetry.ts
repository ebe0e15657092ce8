/** @module Telemetry aggregates for the caller's team: update checks and unique devices per day. */
import type { Handlers } from '../http/respond.ts'
import type { Services } from '../http/services.ts'
import { currentUser } from '../auth/auth-user.ts'
import { visibleApps } from '../auth/permissions.ts'
import { HttpProblem, validationProblem } from '../core/problem.ts'
import { versionInput } from '../http/version-input.ts'
import { teamTelemetryDays } from '../storage/telemetry/telemetry-days.ts'

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
      const rows = await teamTelemetryDays(s.db, user.teamId, {
        from: q.from,
        to: q.to,
        apps: visibleApps(user),
        app: q.app,
        version: q.version === undefined ? undefined : versionInput('version', q.version).raw,
        channel: q.channel,
        platform: q.platform,
        arch: q.arch,
      })
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
            devices: r.devices,
          })),
        },
        { 'cache-control': 'no-store' },
      )
    },
  }
}
