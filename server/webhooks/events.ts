/**
 * @module Webhook events: their types, the JSON each carries (`data`), and how one becomes
 * deliveries in the outbox, one per subscription of the team that asks for it (and for its app).
 */
import type { components } from '../../contract/generated/api.ts'
import { randomId } from '../core/crypto.ts'
import { timestamp } from '../core/time.ts'
import type { Db } from '../core/storage.ts'
import { versionForEvent } from '../storage/webhooks/webhook-events.ts'
import { insertDeliveries } from '../storage/webhooks/webhook-outbox.ts'
import { enabledSubscriptions } from '../storage/webhooks/webhook-subscriptions.ts'
import { asksFor, type WebhookEventType } from './event-types.ts'

export { EVERY_EVENT, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './event-types.ts'

type Schemas = components['schemas']

export interface WebhookEvent {
  type: WebhookEventType | 'webhook.test'
  teamId: string
  /** The app the event is about; subscriptions limited to other apps do not get it. */
  app: string | null
  data: object
}

/** Who caused an event: a person (or their API token), or `null` when Ferry did it by itself. */
export type Actor = Schemas['WebhookActor'] | null

/** A version as events describe it. */
export async function versionSummary(db: Db, versionId: string): Promise<Schemas['WebhookVersion'] | undefined> {
  const row = await versionForEvent(db, versionId)
  if (!row) return undefined
  return {
    id: row.id,
    app: row.app_slug,
    version: row.version,
    channel: row.channel,
    platform: row.platform,
    arch: row.arch,
    published: row.published === 1,
    paused:
      row.paused_at === null
        ? null
        : {
            at: timestamp(new Date(row.paused_at)),
            reason: row.pause_reason ?? '',
            automatic: row.pause_automatic === 1,
          },
    pulled: row.pulled_at === null ? null : { at: timestamp(new Date(row.pulled_at)), reason: row.pull_reason ?? '' },
  }
}

const subscribes = (eventsJson: string, appsJson: string | null, event: WebhookEvent) => {
  const events: unknown = JSON.parse(eventsJson)
  if (!Array.isArray(events) || !asksFor(events, event.type)) return false
  if (appsJson === null || event.app === null) return true
  const apps: unknown = JSON.parse(appsJson)
  return Array.isArray(apps) && apps.includes(event.app)
}

/** The body every delivery of an event carries (Standard Webhooks: `type`, `timestamp`, `data`). */
export const eventPayload = (event: WebhookEvent, at: Date) =>
  JSON.stringify({ type: event.type, timestamp: timestamp(at), data: event.data })

/**
 * Writes an event's deliveries to the outbox, due now. `subscriptionId` sends it to that one
 * subscription whatever it asks for (the test event). Returns the deliveries' ids.
 */
export async function enqueueEvent(db: Db, now: Date, event: WebhookEvent, subscriptionId?: string): Promise<string[]> {
  const subscriptions = (await enabledSubscriptions(db, event.teamId, subscriptionId)).filter(
    (s) => subscriptionId !== undefined || subscribes(s.events, s.apps, event),
  )
  if (!subscriptions.length) return []
  const eventId = randomId('msg', 22)
  const payload = eventPayload(event, now)
  const at = now.toISOString()
  const rows = subscriptions.map((s) => ({
    id: randomId('dlv'),
    subscription_id: s.id,
    event_id: eventId,
    event_type: event.type,
    payload,
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: at,
    lease_until: null,
    last_attempt_at: null,
    response_status: null,
    error: null,
    created_at: at,
  }))
  await insertDeliveries(db, rows)
  return rows.map((r) => r.id)
}
