/** @module Health (database and blob store probes) and whoami. */
import { sql } from 'kysely'
import type { Handlers } from '../http/respond.ts'
import type { Services } from '../http/services.ts'
import { currentUser } from '../auth/auth-user.ts'
import { toTeam, toUser } from './api-objects.ts'
import { HttpProblem, problemResponse } from '../http/problem.ts'

async function probe(fn: () => Promise<unknown>): Promise<{ status: 'ok' | 'failing'; latencyMs: number }> {
  const start = performance.now()
  try {
    await fn()
    return { status: 'ok', latencyMs: Math.round(performance.now() - start) }
  } catch {
    return { status: 'failing', latencyMs: Math.round(performance.now() - start) }
  }
}

export function infoHandlers(s: Services): Pick<Handlers, 'getHealth' | 'whoami'> {
  return {
    async getHealth(c, _input, respond) {
      const database = await probe(() => sql`SELECT 1`.execute(s.db))
      const storage = await probe(() => s.blobs.ping())
      // Without the database nothing can be served; without blob storage, metadata still can.
      if (database.status === 'failing') {
        return problemResponse(new HttpProblem('unavailable', 'The database does not answer.'), c.req.path)
      }
      return respond(
        200,
        {
          status: storage.status === 'ok' ? 'ok' : 'degraded',
          version: s.config.version,
          uptimeSeconds: Math.floor((Date.now() - s.startedAt) / 1000),
          checks: { database, storage },
        },
        { 'cache-control': 'no-store' },
      )
    },

    async whoami(c, _input, respond) {
      const user = currentUser(c.get('user'))
      const row = await s.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow()
      const team = await s.db.selectFrom('teams').selectAll().where('id', '=', user.teamId).executeTakeFirstOrThrow()
      return respond(200, { user: toUser(row), team: toTeam(team), permissions: user.permissions })
    },
  }
}
