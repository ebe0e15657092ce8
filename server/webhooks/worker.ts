/**
 * @module The delivery worker: one pass announces ramp steps reached and gated ramps that began
 * holding or reached their deadline since the last pass, then
 * claims due deliveries from the outbox, signs each (Standard Webhooks) and sends it. A failure
 * is retried with growing delays; a subscription whose deliveries fail for a day is disabled.
 * Runtimes call `pass` on a timer; nothing is lost between passes, the outbox is the state.
 */
import { Webhook } from 'standardwebhooks'
import type { Db } from '../core/storage.ts'
import {
  advanceRampMark,
  claimDueDeliveries,
  disableSubscriptionFailingSince,
  markRampHold,
  rampingVersions,
  recordDeliveryOutcome,
  setSubscriptionFailingSince,
  type ClaimedDelivery,
} from '../storage/webhooks/webhook-outbox.ts'
import {
  DEFAULT_HEALTH_POLICY,
  gateProgress,
  lapsedReason,
  parseGate,
  policyOf,
  rolloutAt,
  tallyReports,
  type FullHealthPolicy,
  type RolloutPosition,
} from '../updates/rollout.ts'
import { stepEvidence } from '../updates/ramp-gate.ts'
import { timestamp } from '../core/time.ts'
import { enqueueEvent, versionSummary, type WebhookEvent } from './events.ts'
import type { Logger } from '../core/logger.ts'

/** What one HTTP attempt came to: a response status, or an error that stopped it (refused, timed out). */
export interface SendResult {
  status?: number
  error?: string
}

/** Sends one signed request; never follows redirects. Node's is `sendWebhookNode` (server/webhooks/send-node.ts). */
export type SendWebhook = (url: string, headers: Record<string, string>, body: string) => Promise<SendResult>

const S = 1000
const M = 60 * S
const H = 60 * M
/** Waits before attempt 2, 3, …: 15 attempts over about two days. */
export const RETRY_DELAYS_MS: readonly number[] = [
  5 * S,
  30 * S,
  2 * M,
  5 * M,
  15 * M,
  30 * M,
  H,
  2 * H,
  3 * H,
  4 * H,
  6 * H,
  8 * H,
  10 * H,
  10 * H,
]
/** A claimed delivery is due again after this unless its attempt finished (a killed worker's); longer than a send's 10 s timeout. */
export const DELIVERY_LEASE_MS = 30 * S
/** A subscription whose deliveries all failed this long is disabled. */
export const DISABLE_AFTER_MS = 24 * H

export interface WorkerOptions {
  db: Db
  now: () => Date
  send: SendWebhook
  logger: Logger
  /** Delays between attempts (tests shorten them); the attempts are one more than the delays. */
  retryDelaysMs?: readonly number[]
  leaseMs?: number
  /** Deliveries claimed per pass. */
  batch?: number
  /** The server's health policy (how a gated ramp's evidence is counted); Ferry's default without it. */
  healthPolicy?: FullHealthPolicy
}

type RampingVersion = Awaited<ReturnType<typeof rampingVersions>>[number]

export interface WebhookWorker {
  /** One pass; resolves with the number of delivery attempts it made. */
  pass(): Promise<number>
  /** Runs a pass every `intervalMs` (one at a time) until `stop`. */
  start(intervalMs: number): void
  /** Stops the timer and waits for the running pass. */
  stop(): Promise<void>
}

const describe = (r: SendResult) => r.error ?? `HTTP ${r.status ?? 'status missing'}`

export function createWebhookWorker(o: WorkerOptions): WebhookWorker {
  const delays = o.retryDelaysMs ?? RETRY_DELAYS_MS
  const leaseMs = o.leaseMs ?? DELIVERY_LEASE_MS
  const batch = o.batch ?? 20

  /** Ramp steps reached, and gated ramps that began holding or reached their deadline, since the last pass. */
  async function announceRamps(): Promise<void> {
    const now = o.now()
    for (const v of await rampingVersions(o.db)) {
      const { step, percentage, hold } = rolloutAt(v, now.getTime())
      if (step === null || v.ramp_started_at === null) continue
      const announced = v.markStartedAt === v.ramp_started_at && v.mark !== null && v.mark >= step
      const startedAt = v.ramp_started_at
      // The mark and the event commit together: a step is announced once, and never lost.
      if (!announced) {
        await o.db.transaction().execute(async (trx) => {
          if (!(await advanceRampMark(trx, v.id, startedAt, step))) return
          const version = await versionSummary(trx, v.id)
          if (version)
            await enqueueEvent(trx, now, {
              type: 'version.ramp_step',
              teamId: v.team_id,
              app: v.app_slug,
              data: { app: v.app_slug, version, step, percentage, actor: null },
            })
        })
      }
      if (hold) await announceHold(v, now, step, percentage, hold)
    }
  }

  /**
   * `version.ramp_holding` once when a hold begins, with the evidence so far; `version.paused`
   * (automatic, no actor) once when it reaches its deadline. The marks are in the database, so
   * neither repeats on a later pass or on another instance.
   */
  async function announceHold(
    v: RampingVersion,
    now: Date,
    step: number,
    percentage: number,
    hold: NonNullable<RolloutPosition['hold']>,
  ) {
    const since = new Date(hold.since).toISOString()
    const gate = parseGate(v.ramp_gate)
    if (!gate || (hold.expired ? v.lapsedSince : v.heldSince) === since) return
    const { policy } = policyOf(v, o.healthPolicy ?? DEFAULT_HEALTH_POLICY)
    const tally = tallyReports((await stepEvidence(o.db, [v], now.getTime())).get(v.id) ?? [], policy)
    const version = await versionSummary(o.db, v.id)
    if (!version) return
    const base = { teamId: v.team_id, app: v.app_slug }
    const event: WebhookEvent = hold.expired
      ? {
          ...base,
          type: 'version.paused',
          data: {
            app: v.app_slug,
            version: {
              ...version,
              paused: {
                at: timestamp(new Date(hold.deadline)),
                reason: lapsedReason(gate, hold, tally),
                automatic: true,
              },
            },
            actor: null,
          },
        }
      : {
          ...base,
          type: 'version.ramp_holding',
          data: {
            app: v.app_slug,
            version,
            step,
            percentage,
            actor: null,
            holding: {
              step: hold.step,
              since: timestamp(new Date(hold.since)),
              deadline: timestamp(new Date(hold.deadline)),
            },
            evidence: {
              installs: tally.reports - tally.failed,
              minInstalls: gate.minInstalls,
              reports: tally.reports,
              failed: tally.failed,
              failureRatio: tally.reports ? tally.failed / tally.reports : 0,
              maxFailureRatio: gate.maxFailureRatio,
              progress: gateProgress(tally, gate),
            },
          },
        }
    // The mark and the event commit together: announced exactly once, or not yet.
    await o.db.transaction().execute(async (trx) => {
      if (await markRampHold(trx, v.id, hold.expired ? 'lapsed_since' : 'held_since', since))
        await enqueueEvent(trx, now, event)
    })
  }

  async function attempt(d: ClaimedDelivery): Promise<void> {
    const sentAt = o.now()
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Ferry-Webhooks',
      'webhook-id': d.event_id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': new Webhook(d.secret).sign(d.event_id, sentAt, d.payload),
    }
    const result = await o
      .send(d.url, headers, d.payload)
      .catch((err: unknown): SendResult => ({ error: err instanceof Error ? err.message : String(err) }))
    const ok = result.error === undefined && result.status !== undefined && result.status >= 200 && result.status < 300
    const done = o.now()
    const finished = ok || d.attempts >= delays.length + 1
    const delay = delays[Math.min(d.attempts - 1, delays.length - 1)] ?? 0
    await recordDeliveryOutcome(o.db, d.id, d.attempts, {
      status: ok ? 'succeeded' : finished ? 'failed' : 'pending',
      next_attempt_at: finished ? null : new Date(done.getTime() + delay).toISOString(),
      response_status: result.status ?? null,
      error: ok ? null : describe(result).slice(0, 500),
    })
    if (ok) {
      await setSubscriptionFailingSince(o.db, d.subscription_id, null)
      return
    }
    o.logger.warn(
      {
        subscription: d.subscription_id,
        delivery: d.id,
        event: d.event_type,
        attempt: d.attempts,
        error: describe(result),
      },
      'webhook delivery failed',
    )
    await setSubscriptionFailingSince(o.db, d.subscription_id, d.last_attempt_at ?? done.toISOString())
    const disabled = await disableSubscriptionFailingSince(
      o.db,
      d.subscription_id,
      new Date(done.getTime() - DISABLE_AFTER_MS).toISOString(),
      `Every delivery failed for 24 hours; the last: ${describe(result).slice(0, 200)}.`,
      done.toISOString(),
    )
    if (disabled) o.logger.warn({ subscription: d.subscription_id }, 'webhook subscription disabled')
  }

  async function pass(): Promise<number> {
    await announceRamps()
    const now = o.now()
    const claimed = await claimDueDeliveries(
      o.db,
      now.toISOString(),
      new Date(now.getTime() + leaseMs).toISOString(),
      batch,
    )
    await Promise.all(claimed.map(attempt))
    return claimed.length
  }

  let timer: ReturnType<typeof setInterval> | undefined
  let running: Promise<unknown> = Promise.resolve()
  let busy = false
  return {
    pass,
    start(intervalMs) {
      timer = setInterval(() => {
        if (busy) return
        busy = true
        running = pass()
          .catch((err: unknown) => o.logger.error({ err }, 'webhook pass failed'))
          .finally(() => {
            busy = false
          })
      }, intervalMs)
      if (typeof timer === 'object' && 'unref' in timer) timer.unref()
    },
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
