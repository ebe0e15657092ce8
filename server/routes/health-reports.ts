/**
 * @module Health reports: installed apps tell how an update went. A report counts only from a
 * device Ferry offered the version (server/updates/health-evidence.ts); one row per device and version
 * (its latest outcome), device id and address kept only as keyed hashes. Limits per device and
 * per client address bound what one machine can send. A report (of either outcome) that leaves
 * the version past its health policy pauses its rollout (logged, cached answers dropped); on a gated ramp,
 * a report that brings or takes away the gate's evidence opens or closes it. The report, the gate
 * and the pause commit in one transaction.
 */
import type { Handlers } from '../http/respond.ts'
import type { Services } from '../http/services.ts'
import { FixedWindows, secondsUntil } from '../auth/fixed-windows.ts'
import { addressNetwork, deviceHash } from '../updates/health-evidence.ts'
import { notFound, tooManyRequests, validationProblem } from '../core/problem.ts'
import { failsPolicy, policyOf, tallyReports } from '../updates/rollout.ts'
import { offerExists, reportsByAddress } from '../storage/telemetry/health-evidence.ts'
import { versionInput } from '../http/version-input.ts'
import { versionKeyOf } from '../storage/releases/version-key.ts'
import { announceGateChange, pauseInTransaction } from './rollouts.ts'
import { reviewGate } from '../updates/ramp-gate.ts'
import { reportedVersion, reportingApp, saveHealthReport } from '../storage/telemetry/health-reports.ts'
import { invalidateAnswers } from '../http/writes/invalidation.ts'
import { enqueueAutomaticPause } from '../webhooks/operation-events.ts'
import { SYSTEM_ACTOR } from '../audit/entry.ts'
import { appendAudit } from '../audit/store.ts'

/** Reports one device may send per app in `WINDOW_MS`. */
export const HEALTH_REPORTS_PER_WINDOW = 10
/** Reports one client address may send per app in `WINDOW_MS`. */
export const HEALTH_REPORTS_PER_ADDRESS = 60
const WINDOW_MS = 60_000
/** Devices and addresses the limiters remember at once (the least recently seen are forgotten first). */
const TRACKED_KEYS = 20_000

export function healthHandlers(s: Services): Pick<Handlers, 'reportUpdateOutcome'> {
  // Per app and device, and per app and address; bounded, in memory only (never stored).
  const byDevice = new FixedWindows(HEALTH_REPORTS_PER_WINDOW, WINDOW_MS, TRACKED_KEYS, () => s.now().getTime())
  const byAddress = new FixedWindows(HEALTH_REPORTS_PER_ADDRESS, WINDOW_MS, TRACKED_KEYS, () => s.now().getTime())

  function limit(windows: FixedWindows, key: string, who: string) {
    const waitMs = windows.hit(key)
    if (waitMs === undefined) return
    const wait = secondsUntil(waitMs)
    throw tooManyRequests(`This ${who} sent too many health reports; try again in ${wait} seconds.`, wait)
  }

  return {
    async reportUpdateOutcome(c, { path, body }, respond) {
      const version = versionInput('version', body.version)
      if (body.outcome === 'failed' && !body.reason)
        throw validationProblem([{ pointer: '/reason', message: 'is required when outcome is failed' }])
      if (body.outcome === 'installed' && body.reason !== undefined)
        throw validationProblem([{ pointer: '/reason', message: 'is sent only when outcome is failed' }])
      const app = await reportingApp(s.db, path.app)
      if (!app) throw notFound(`No app with slug ${path.app}.`)
      limit(byAddress, `${app.slug}\n${addressNetwork(s.clientIp(c))}`, 'address')
      limit(byDevice, `${app.slug}\n${body.deviceId}`, 'device')
      const row = await reportedVersion(s.db, {
        app: app.slug,
        channel: body.channel,
        platform: body.platform,
        arch: body.arch,
        versionKey: versionKeyOf(version),
      })
      if (!row) return respond(202, { counted: false, paused: false })
      const device = await deviceHash(s.config.jwtSecret, row.id, body.deviceId)
      // Only a device an update check offered this version: a made-up id costs a check and a bucket.
      if (!(await offerExists(s.db, row.id, device))) return respond(202, { counted: false, paused: false })
      const now = s.now()
      const report = {
        version_id: row.id,
        device_hash: device,
        outcome: body.outcome,
        reason: body.reason ?? '',
        from_version: body.fromVersion ?? null,
        // Milliseconds: compared with `health_since`, set at a resume in the same second.
        reported_at: now.toISOString(),
      }
      // The report, the gate it opens or closes, and a pause it causes (with its audit entry by
      // the system and its webhook event) commit together.
      const { gate, paused } = await s.db.transaction().execute(async (trx) => {
        await saveHealthReport(trx, report)
        const gate = row.ramp_gate === null ? null : await reviewGate(trx, row.id, s.config.healthPolicy, now)
        // Judged on every counted report: an install can bring the count to the policy's minimum
        // while the failures already counted are past its share.
        if (row.paused_at !== null) return { gate, paused: null }
        const { policy } = policyOf(row, s.config.healthPolicy)
        const tally = tallyReports((await reportsByAddress(trx, [row.id])).get(row.id) ?? [], policy)
        if (!failsPolicy(tally, policy)) return { gate, paused: null }
        const share = Math.round((tally.failed / tally.reports) * 100)
        const reason =
          `Health reports: ${tally.failed} of ${tally.reports} devices failed (${share} %, from ${tally.failedAddresses} ${tally.failedAddresses === 1 ? 'address' : 'addresses'}), ` +
          `above the ${Math.round(policy.maxFailureRatio * 100)} % allowed.`
        if (!(await pauseInTransaction(trx, now, app.slug, row.id, reason, true))) return { gate, paused: null }
        await appendAudit(trx, {
          teamId: app.team_id,
          at: now,
          actor: SYSTEM_ACTOR,
          operationId: null,
          action: 'version.pause',
          target: { type: 'version', id: row.id, app: app.slug },
          changes: { paused: { from: false, to: true }, pauseReason: { to: reason } },
          address: null,
        })
        await enqueueAutomaticPause(trx, now, app.team_id, row.id)
        return { gate, paused: { tally, policy } }
      })
      await announceGateChange(s, gate, c.get('reqId'))
      if (paused) {
        s.logger.warn(
          { app: app.slug, versionId: row.id, version: row.version, ...paused.tally, policy: paused.policy },
          'rollout paused by health reports',
        )
        // Its operation invalidates nothing (most reports change no answer): this one paused a version.
        await invalidateAnswers(s, [app.slug], c.get('reqId')).catch((err: unknown) =>
          s.logger.error({ err }, 'answer cache invalidation failed'),
        )
      }
      return respond(202, { counted: true, paused: paused !== null })
    },
  }
}
