/**
 * @module Webhook subscriptions' and their delivery log's SQL, as the API manages them: insert,
 * count, find, page, update, delete with their deliveries, and redeliver; and the enabled ones an
 * event goes to. Claiming due deliveries is the outbox's (`webhook-outbox.ts`).
 */
import type { Db, WebhookDeliveriesTable, WebhookSubscriptionsTable } from '../../core/storage.ts'

/** Those of `slugs` that name apps of the team. */
export async function teamAppSlugs(db: Db, teamId: string, slugs: string[]): Promise<Set<string>> {
  const rows = await db
    .selectFrom('apps')
    .select('slug')
    .where('team_id', '=', teamId)
    .where('slug', 'in', slugs)
    .execute()
  return new Set(rows.map((r) => r.slug))
}

export function findSubscription(db: Db, teamId: string, id: string) {
  return db
    .selectFrom('webhook_subscriptions')
    .selectAll()
    .where('id', '=', id)
    .where('team_id', '=', teamId)
    .executeTakeFirst()
}

export function findDelivery(db: Db, id: string) {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function countSubscriptions(db: Db, teamId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_subscriptions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function insertSubscription(db: Db, row: WebhookSubscriptionsTable): Promise<void> {
  await db.insertInto('webhook_subscriptions').values(row).execute()
}

/** The team's subscriptions, oldest first, at most `limit`. */
export function teamSubscriptions(db: Db, teamId: string, limit: number) {
  return db
    .selectFrom('webhook_subscriptions')
    .selectAll()
    .where('team_id', '=', teamId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute()
}

export async function updateSubscription(
  db: Db,
  id: string,
  changes: Partial<WebhookSubscriptionsTable>,
): Promise<void> {
  await db.updateTable('webhook_subscriptions').set(changes).where('id', '=', id).execute()
}

/** Makes the subscription's waiting deliveries (not leased to a sender) due at `at`. */
export async function dueWaitingDeliveries(db: Db, subscriptionId: string, at: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: at })
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'pending')
    .where('lease_until', 'is', null)
    .execute()
}

/** Deletes the subscription and its delivery log. */
export async function deleteSubscription(db: Db, id: string): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('subscription_id', '=', id).execute()
  await db.deleteFrom('webhook_subscriptions').where('id', '=', id).execute()
}

/** One page of a subscription's deliveries, newest first, after the cursor `(createdAt, id)`. */
export function deliveriesPage(
  db: Db,
  subscriptionId: string,
  after: { c: string; i: string } | undefined,
  count: number,
) {
  let q = db.selectFrom('webhook_deliveries').selectAll().where('subscription_id', '=', subscriptionId)
  if (after)
    q = q.where((eb) =>
      eb.or([eb('created_at', '<', after.c), eb.and([eb('created_at', '=', after.c), eb('id', '<', after.i)])]),
    )
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(count).execute()
}

export async function insertDelivery(db: Db, row: WebhookDeliveriesTable): Promise<void> {
  await db.insertInto('webhook_deliveries').values(row).execute()
}

/** Whether the team has an enabled subscription. */
export async function teamHasEnabledSubscription(db: Db, teamId: string): Promise<boolean> {
  const any = await db
    .selectFrom('webhook_subscriptions')
    .select('id')
    .where('team_id', '=', teamId)
    .where('enabled', '=', 1)
    .limit(1)
    .executeTakeFirst()
  return any !== undefined
}

/** The team's enabled subscriptions (only `subscriptionId`, when given), with the events and apps each asks for. */
export function enabledSubscriptions(db: Db, teamId: string, subscriptionId?: string) {
  let q = db
    .selectFrom('webhook_subscriptions')
    .select(['id', 'events', 'apps'])
    .where('team_id', '=', teamId)
    .where('enabled', '=', 1)
  if (subscriptionId !== undefined) q = q.where('id', '=', subscriptionId)
  return q.execute()
}
