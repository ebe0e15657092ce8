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
import { offerExists } from '../storage/telemetry/health-evidence.ts'
import { versionInput } from '../http/version-input.ts'
import { versionKeyOf } from '../storage/releases/version-key.ts'
import { announceGateChange } from './rollouts.ts'
import { announceHealthPause, pauseIfPastPolicy } from './health-pause.ts'
import { reviewGate } from '../updates/ramp-gate.ts'
import { reportedVersion, reportingApp, saveHealthReport } from '../storage/telemetry/health-reports.ts'

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
        return { gate, paused: await pauseIfPastPolicy(trx, now, s.config.healthPolicy, app, row) }
      })
      await announceGateChange(s, gate, c.get('reqId'))
      await announceHealthPause(s, paused, c.get('reqId'))
      return respond(202, { counted: true, paused: paused !== null })
    },
  }
}
