/**
 * @module The webhook event types, in the contract's order: one list the server and the console
 * both read. `satisfies` makes the compiler refuse a list that misses or invents a type, and
 * `SELECTOR_IS_EVERY_TYPE` a contract whose `WebhookEventSelector` is not exactly the event types
 * and `*`, so a new event type is subscribable as soon as it exists.
 */
import type { components } from '../../contract/generated/api.ts'

export type WebhookEventType = components['schemas']['WebhookEventType']
/** What a subscription's `events` holds: event types, or `*` alone for every event type. */
export type WebhookEventSelector = components['schemas']['WebhookEventSelector']

/** Every event type, those added later included. */
export const EVERY_EVENT = '*'

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const SELECTOR_IS_EVERY_TYPE: Same<WebhookEventSelector, WebhookEventType | typeof EVERY_EVENT> = true
void SELECTOR_IS_EVERY_TYPE

const EVENT_TYPES = {
  'version.uploaded': true,
  'version.published': true,
  'version.unpublished': true,
  'version.ramp_step': true,
  'version.paused': true,
  'version.resumed': true,
  'version.pulled': true,
  'token.created': true,
  'token.revoked': true,
  'version.ramp_holding': true,
  'rule.created': true,
  'rule.deleted': true,
} satisfies Record<WebhookEventType, true>

/** Every event type a subscription may ask for. */
export const WEBHOOK_EVENT_TYPES = Object.keys(EVENT_TYPES) as readonly WebhookEventType[]

/** Whether a subscription asking for `events` gets an event of type `type`. */
export const asksFor = (events: readonly string[], type: string): boolean =>
  events.includes(EVERY_EVENT) || events.includes(type)
