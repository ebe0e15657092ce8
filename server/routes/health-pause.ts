/**
 * @module The automatic pause: a version whose counted health reports are past its policy is
 * paused by the system, with the audit entry and `version.paused` webhook event of any such pause,
 * in the caller's transaction. Judged after every counted report, and after an edit that changes
 * the version's policy (a stricter policy pauses a version already past it, without a new report).
 */
import type { Transaction } from 'kysely'
import type { Database } from '../core/storage.ts'
import type { Services } from '../http/services.ts'
import { failsPolicy, policyOf, tallyReports, type FullHealthPolicy, type HealthTally } from '../updates/rollout.ts'
import type { PolicyColumns } from '../updates/rollout.ts'
import { reportsByAddress } from '../storage/telemetry/health-evidence.ts'
import { pauseInTransaction } from './rollouts.ts'
import { enqueueAutomaticPause } from '../webhooks/operation-events.ts'
import { SYSTEM_ACTOR } from '../audit/entry.ts'
import { appendAudit } from '../audit/store.ts'
import { invalidateAnswers } from '../http/writes/invalidation.ts'

export interface HealthPause {
  app: string
  versionId: string
  version: string
  tally: HealthTally
  policy: FullHealthPolicy
}

/**
 * Pauses `row` when its counted reports fail its policy (the server's `fallback` where it has
 * none) and it is not paused yet. Returns the pause, or `null` when it did not pause.
 */
export async function pauseIfPastPolicy(
  trx: Transaction<Database>,
  now: Date,
  fallback: FullHealthPolicy,
  app: { slug: string; team_id: string },
  row: PolicyColumns & { id: string; version: string; paused_at: string | null },
): Promise<HealthPause | null> {
  if (row.paused_at !== null) return null
  const { policy } = policyOf(row, fallback)
  const tally = tallyReports((await reportsByAddress(trx, [row.id])).get(row.id) ?? [], policy)
  if (!failsPolicy(tally, policy)) return null
  const share = Math.round((tally.failed / tally.reports) * 100)
  const reason =
    `Health reports: ${tally.failed} of ${tally.reports} devices failed (${share} %, from ${tally.failedAddresses} ${tally.failedAddresses === 1 ? 'address' : 'addresses'}), ` +
    `above the ${Math.round(policy.maxFailureRatio * 100)} % allowed.`
  if (!(await pauseInTransaction(trx, now, app.slug, row.id, reason, true))) return null
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
  return { app: app.slug, versionId: row.id, version: row.version, tally, policy }
}

/** After the pause committed: logs it and drops the app's cached answers, in front too. */
export async function announceHealthPause(s: Services, paused: HealthPause | null, reqId?: string): Promise<void> {
  if (!paused) return
  const { app, versionId, version, tally, policy } = paused
  s.logger.warn({ app, versionId, version, ...tally, policy }, 'rollout paused by health reports')
  await invalidateAnswers(s, [app], reqId).catch((err: unknown) =>
    s.logger.error({ err }, 'answer cache invalidation failed'),
  )
}
