/** @module A version's adoption per day (offers, downloads, reports, devices running it), for its team. */
import type { Handlers } from '../http/respond.ts'
import type { Services } from '../http/services.ts'
import { currentUser } from '../auth/auth-user.ts'
import { visibleApps } from '../auth/permissions.ts'
import { notFound, validationProblem } from '../core/problem.ts'
import { adoptionByDay } from '../storage/telemetry/adoption.ts'
import { versionQuery } from '../storage/releases/versions.ts'
import { findTeamApp } from './api-objects.ts'

/** Days one answer covers at most: bounds its cost. */
export const MAX_ADOPTION_DAYS = 92
const DEFAULT_DAYS = 30
const DAY_MS = 24 * 3600 * 1000
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

export function adoptionHandlers(s: Services): Pick<Handlers, 'getVersionAdoption'> {
  return {
    async getVersionAdoption(c, { path, query }, respond) {
      const user = currentUser(c.get('user'))
      const visible = visibleApps(user)
      if (visible && !visible.has(path.app)) throw notFound(`No app with slug ${path.app}.`)
      const app = await findTeamApp(s, user, path.app)
      const to =
        query.to ??
        (query.from !== undefined
          ? isoDay(Date.parse(query.from) + (DEFAULT_DAYS - 1) * DAY_MS)
          : isoDay(s.now().getTime()))
      const from = query.from ?? isoDay(Date.parse(to) - (DEFAULT_DAYS - 1) * DAY_MS)
      const days = (Date.parse(to) - Date.parse(from)) / DAY_MS
      if (days < 0) throw validationProblem([{ field: 'to', message: 'must not be before from' }])
      if (days >= MAX_ADOPTION_DAYS)
        throw validationProblem([{ field: 'to', message: `must be less than ${MAX_ADOPTION_DAYS} days after from` }])
      const version = await versionQuery(s.db)
        .where('v.id', '=', path.version)
        .where('v.app_slug', '=', app.slug)
        .executeTakeFirst()
      if (!version) throw notFound(`No version ${path.version} of app ${app.slug}.`)
      // Downloads and running devices counted on this instance reach the answer at once.
      await Promise.all([s.downloads.flush(), s.telemetry?.flush()])
      const byDay = await adoptionByDay(s.db, version, from, to)
      return respond(
        200,
        {
          version: version.version,
          from,
          to,
          days: [...byDay].sort(([a], [b]) => a.localeCompare(b)).map(([day, counts]) => ({ day, ...counts })),
        },
        { 'cache-control': 'no-store' },
      )
    },
  }
}
