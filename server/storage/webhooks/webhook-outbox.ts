/**
 * @module The webhook outbox's SQL: writing an event's deliveries, claiming due ones (a claim pushes
 * `next_attempt_at` past a lease, so a delivery whose worker died is due again when the lease ends),
 * recording an attempt's outcome and its subscription's failing streak, and the per-version ramp
 * marks that make "ramp step reached" fire once per step, and "ramp holding" once per hold, across
 * instances.
 */
import { sql, type Selectable } from 'kysely'
import { dialectOf } from '../dialect.ts'
import { V_POLICY_COLUMNS, V_ROLLOUT_COLUMNS } from '../releases/rollouts.ts'
import type { Db, WebhookDeliveriesTable, WebhookSubscriptionsTable } from '../../core/storage.ts'

export type ClaimedDelivery = Selectable<WebhookDeliveriesTable> &
  Pick<Selectable<WebhookSubscriptionsTable>, 'url' | 'secret'>

/**
 * Claims up to `limit` due deliveries of enabled subscriptions: each gets one more attempt and
 * is due again at `leaseUntil` unless the attempt's outcome is recorded first. On PostgreSQL
 * `FOR UPDATE SKIP LOCKED` keeps two instances from claiming the same row; SQLite has one writer.
 */
export async function claimDueDeliveries(
  db: Db,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<ClaimedDelivery[]> {
  return db.transaction().execute(async (trx) => {
    let due = trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_subscriptions as s', 's.id', 'd.subscription_id')
      .select('d.id')
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', now)
      .where('s.enabled', '=', 1)
      .orderBy('d.next_attempt_at')
      .limit(limit)
    if (dialectOf(trx) === 'postgres') due = due.forUpdate('d').skipLocked()
    const ids = (await due.execute()).map((r) => r.id)
    if (!ids.length) return []
    await trx
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        next_attempt_at: leaseUntil,
        lease_until: leaseUntil,
        last_attempt_at: now,
      }))
      .where('id', 'in', ids)
      .execute()
    return trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_subscriptions as s', 's.id', 'd.subscription_id')
      .selectAll('d')
      .select(['s.url', 's.secret'])
      .where('d.id', 'in', ids)
      .execute()
  })
}

/**
 * Records `step` as announced for a version when it is later than the last one announced.
 * Returns whether this call moved the mark (exactly one caller does, whichever instance).
 */
export async function advanceRampMark(
  db: Db,
  versionId: string,
  rampStartedAt: string,
  step: number,
): Promise<boolean> {
  const moved = await db
    .updateTable('webhook_ramp_marks')
    .set({ step, ramp_started_at: rampStartedAt })
    .where('version_id', '=', versionId)
    .where((eb) => eb.or([eb('step', '<', step), eb('ramp_started_at', '!=', rampStartedAt)]))
    .executeTakeFirst()
  if (Number(moved.numUpdatedRows) > 0) return true
  const inserted = await db
    .insertInto('webhook_ramp_marks')
    .values({ version_id: versionId, ramp_started_at: rampStartedAt, step })
    .onConflict((oc) => oc.column('version_id').doNothing())
    .executeTakeFirst()
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0
}

/**
 * Records the hold that began at `since` as announced in `column` (holding, or paused at its
 * deadline). Returns whether this call moved the mark: one caller per hold, whichever instance.
 */
export async function markRampHold(
  db: Db,
  versionId: string,
  column: 'held_since' | 'lapsed_since',
  since: string,
): Promise<boolean> {
  const moved = await db
    .updateTable('webhook_ramp_marks')
    .set(column === 'held_since' ? { held_since: since } : { lapsed_since: since })
    .where('version_id', '=', versionId)
    .where((eb) => eb.or([eb(column, 'is', null), eb(column, '!=', since)]))
    .executeTakeFirst()
  return Number(moved.numUpdatedRows) > 0
}

/** Versions whose ramp runs now (published, not paused or pulled), with their last announced step. */
export async function rampingVersions(db: Db) {
  return (
    db
      .selectFrom('versions as v')
      .innerJoin('apps as a', 'a.slug', 'v.app_slug')
      .leftJoin('webhook_ramp_marks as m', 'm.version_id', 'v.id')
      .select([
        'v.id',
        'v.app_slug',
        'a.team_id',
        ...V_ROLLOUT_COLUMNS,
        ...V_POLICY_COLUMNS,
        'v.health_since',
        'm.step as mark',
        'm.ramp_started_at as markStartedAt',
        'm.held_since as heldSince',
        'm.lapsed_since as lapsedSince',
      ])
      .where('v.ramp_steps', 'is not', null)
      .where('v.ramp_started_at', 'is not', null)
      .where('v.published', '=', 1)
      .where('v.paused_at', 'is', null)
      .where('v.pulled_at', 'is', null)
      // Only teams that subscribe to anything: no work for a server without webhooks.
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('webhook_subscriptions as s').select(sql.lit(1).as('one')).whereRef('s.team_id', '=', 'a.team_id'),
        ),
      )
      .execute()
  )
}

/**
 * Makes deliveries whose attempt was in flight due now. Only for SQLite at start: one process
 * owns that database, so a lease left behind belonged to a process that is gone.
 */
export async function releaseLeases(db: Db, now: string): Promise<number> {
  const released = await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now, lease_until: null })
    .where('status', '=', 'pending')
    .where('lease_until', 'is not', null)
    .executeTakeFirst()
  return Number(released.numUpdatedRows)
}

/** Writes an event's deliveries (one per subscription) in one statement. */
export async function insertDeliveries(db: Db, rows: WebhookDeliveriesTable[]): Promise<void> {
  await db.insertInto('webhook_deliveries').values(rows).execute()
}

/**
 * Records how a claimed delivery's attempt `attempts` ended and ends its lease. An outcome that
 * comes after a later claim of the same delivery (its lease ran out) records nothing.
 */
export async function recordDeliveryOutcome(
  db: Db,
  id: string,
  attempts: number,
  outcome: Pick<WebhookDeliveriesTable, 'status' | 'next_attempt_at' | 'response_status' | 'error'>,
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.status,
      next_attempt_at: outcome.next_attempt_at,
      lease_until: null,
      response_status: outcome.response_status,
      error: outcome.error,
    })
    .where('id', '=', id)
    .where('attempts', '=', attempts)
    .execute()
}

/**
 * Records when the subscription's deliveries started failing (`null`: a delivery succeeded, it is
 * healthy again). A streak already recorded keeps its start.
 */
export async function setSubscriptionFailingSince(db: Db, subscriptionId: string, since: string | null): Promise<void> {
  await db
    .updateTable('webhook_subscriptions')
    .set({ failing_since: since })
    .where('id', '=', subscriptionId)
    .where('failing_since', since === null ? 'is not' : 'is', null)
    .execute()
}

/**
 * Disables the subscription, with `reason`, when it is enabled and has been failing since `since`
 * or earlier. Returns whether this call disabled it.
 */
export async function disableSubscriptionFailingSince(
  db: Db,
  subscriptionId: string,
  since: string,
  reason: string,
  at: string,
): Promise<boolean> {
  const disabled = await db
    .updateTable('webhook_subscriptions')
    .set({ enabled: 0, disabled_reason: reason, updated_at: at })
    .where('id', '=', subscriptionId)
    .where('enabled', '=', 1)
    .where('failing_since', '<=', since)
    .executeTakeFirst()
  return Number(disabled.numUpdatedRows) > 0
}
