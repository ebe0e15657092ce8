/**
 * @module The webhook event types, in the contract's order: one list the server and the console
 * both read. `satisfies` makes the compiler refuse a list that misses or invents a type.
 */
import type { components } from '../generated/api.ts'

export type WebhookEventType = components['schemas']['WebhookEventType']

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
} satisfies Record<WebhookEventType, true>

/** Every event type a subscription may ask for. */
export const WEBHOOK_EVENT_TYPES = Object.keys(EVENT_TYPES) as readonly WebhookEventType[]
