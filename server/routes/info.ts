/** @module Health (database and blob store probes) and whoami. */
import type { Handlers } from '../http/respond.ts'
import type { Services } from '../http/services.ts'
import { currentUser } from '../auth/auth-user.ts'
import { toTeam, toUser } from './api-objects.ts'
import { HttpProblem } from '../core/problem.ts'
import { problemResponse } from '../http/problem-response.ts'
import { pingDatabase } from '../storage/drivers/ping.ts'
import { userAndTeam } from '../storage/accounts/users.ts'

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
      const database = await probe(() => pingDatabase(s.db))
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
      const rows = await userAndTeam(s.db, user.id, user.teamId)
      return respond(200, { user: toUser(rows.user), team: toTeam(rows.team), permissions: user.permissions })
    },
  }
}
