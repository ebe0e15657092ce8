/**
 * @module Pause, resume and pull a version's rollout (a ramp's or a hand-set percentage's), and
 * the automatic pause health reports trigger. Each reads and writes the row in one transaction.
 */
import { noteAudit } from '../http/writes/audit-hook.ts'
import { commitWrite } from '../http/writes/write-unit.ts'
import type { Transaction } from 'kysely'
import { type Handlers } from '../http/respond.ts'
import { timestamp } from '../core/time.ts'
import type { Ctx } from '../http/context.ts'
import type { Services } from '../http/services.ts'
import { currentUser } from '../auth/auth-user.ts'
import { findTeamApp, oneVersion } from './api-objects.ts'
import { notFound } from '../core/problem.ts'
import { lockRollout, updateRollout } from '../storage/releases/rollouts.ts'
import type { Database } from '../core/storage.ts'
import { rampClock, rolloutAt } from '../updates/rollout.ts'
import type { RampGateEvent } from '../updates/ramp-gate.ts'
import { invalidateAnswers } from '../http/writes/invalidation.ts'

type Trx = Transaction<Database>

async function lockVersion(trx: Trx, slug: string, id: string) {
  const row = await lockRollout(trx, id, slug)
  if (!row) throw notFound(`No version ${id} of app ${slug}.`)
  return row
}

/**
 * Pauses a version unless it is paused already (the first pause and its reason stand). Returns
 * whether this call paused it. `automatic`: by health reports.
 */
export async function pauseInTransaction(
  trx: Trx,
  now: Date,
  slug: string,
  id: string,
  reason: string,
  automatic: boolean,
): Promise<boolean> {
  const row = await lockVersion(trx, slug, id)
  if (row.paused_at !== null) return false
  await updateRollout(trx, id, { paused_at: timestamp(now), pause_reason: reason, pause_automatic: automatic ? 1 : 0 })
  return true
}

/**
 * After the write that changed a gate committed: logs the change, tells `s.events`, and drops the
 * app's cached answers, in front too (a released hold changes them now, not at a cached `until`).
 */
export async function announceGateChange(s: Services, change: RampGateEvent | null, reqId?: string): Promise<void> {
  if (!change) return
  const fields = {
    app: change.app,
    versionId: change.versionId,
    version: change.version,
    released: change.released,
    progress: change.progress,
  }
  if (change.type === 'ramp.gate-opened') s.logger.info(fields, 'ramp gate opened')
  else s.logger.info(fields, 'ramp gate closed')
  try {
    s.events?.emit(change)
  } catch (err) {
    s.logger.error({ err }, 'ramp event listener failed')
  }
  await invalidateAnswers(s, [change.app], reqId).catch((err: unknown) =>
    s.logger.error({ err }, 'answer cache invalidation failed'),
  )
}

export function rolloutHandlers(s: Services): Pick<Handlers, 'pauseVersion' | 'resumeVersion' | 'pullVersion'> {
  const answer = (c: Ctx, slug: string, id: string) => oneVersion(s, c.req.url, slug, id)

  return {
    async pauseVersion(c, { path, body }, respond) {
      const user = currentUser(c.get('user'))
      const app = await findTeamApp(s, user, path.app)
      const now = s.now()
      const reason = body.reason ?? `Paused by ${user.name}`
      const paused = await commitWrite(s, c, async (trx) => {
        const done = await pauseInTransaction(trx, now, app.slug, path.version, reason, false)
        if (done) noteAudit(c, { changes: { paused: { from: false, to: true }, reason: { to: reason } } })
        return done
      })
      if (paused) s.logger.info({ app: app.slug, versionId: path.version, by: user.id }, 'rollout paused')
      return respond(200, await answer(c, app.slug, path.version))
    },

    async resumeVersion(c, { path }, respond) {
      const user = currentUser(c.get('user'))
      const app = await findTeamApp(s, user, path.app)
      const now = s.now()
      await commitWrite(s, c, async (trx) => {
        const row = await lockVersion(trx, app.slug, path.version)
        const expired = rolloutAt(row, now.getTime()).hold?.expired === true
        if (row.paused_at === null && row.pulled_at === null && !expired) return
        noteAudit(c, {
          changes: {
            ...(row.paused_at !== null ? { paused: { from: true, to: false } } : {}),
            ...(row.pulled_at !== null ? { pulled: { from: true, to: false } } : {}),
          },
        })
        // The ramp's clock stood still while paused (from the pause, or from the ramp's start if later).
        let pausedSeconds = row.ramp_paused_seconds
        if (row.paused_at !== null && row.ramp_started_at !== null) {
          const from = Math.max(Date.parse(row.paused_at), Date.parse(row.ramp_started_at))
          // Whole seconds, rounded down: the ramp's clock never runs behind the time it was set.
          pausedSeconds += Math.max(0, Math.floor((now.getTime() - from) / 1000))
        }
        const resumed = { ...row, paused_at: null, ramp_paused_seconds: pausedSeconds }
        // Reports before a resume stop counting, so a gate closes; a hold past its deadline starts over now.
        const hold = rolloutAt(resumed, now.getTime()).hold
        if (hold) resumed.ramp_paused_seconds += Math.max(0, Math.floor((now.getTime() - hold.since) / 1000))
        await updateRollout(trx, row.id, {
          paused_at: null,
          pause_reason: null,
          pause_automatic: 0,
          pulled_at: null,
          pull_reason: null,
          ramp_paused_seconds: resumed.ramp_paused_seconds,
          health_since: now.toISOString(),
          ...(row.ramp_gate !== null
            ? { gate_open: 0, gate_closed_seconds: Math.max(0, Math.floor(rampClock(resumed, now.getTime()) / 1000)) }
            : {}),
        })
      })
      s.logger.info({ app: app.slug, versionId: path.version, by: user.id }, 'rollout resumed')
      return respond(200, await answer(c, app.slug, path.version))
    },

    async pullVersion(c, { path, body }, respond) {
      const user = currentUser(c.get('user'))
      const app = await findTeamApp(s, user, path.app)
      const now = timestamp(s.now())
      await commitWrite(s, c, async (trx) => {
        const row = await lockVersion(trx, app.slug, path.version)
        if (row.pulled_at !== null) return
        const reason = body.reason ?? `Pulled by ${user.name}`
        await updateRollout(trx, row.id, { pulled_at: now, pull_reason: reason })
        noteAudit(c, { changes: { pulled: { from: false, to: true }, reason: { to: reason } } })
      })
      s.logger.warn({ app: app.slug, versionId: path.version, by: user.id }, 'version pulled')
      return respond(200, await answer(c, app.slug, path.version))
    },
  }
}
