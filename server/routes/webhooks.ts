/**
 * @module Webhook subscriptions (admin only): create (the secret shown once), list, get, update,
 * delete; the delivery log with redelivery, and a test event. Sending is the worker's
 * (server/webhooks/worker.ts); these handlers only write the outbox.
 */
import type { components } from '../../contract/generated/api.ts'
import { randomId } from '../core/crypto.ts'
import { currentUser } from '../auth/auth-user.ts'
import { noContent, type Handlers } from '../http/respond.ts'
import { timestamp } from '../core/time.ts'
import { noteAudit } from '../http/writes/audit-hook.ts'
import { commitWrite } from '../http/writes/write-unit.ts'
import { removedChanges } from '../audit/entry.ts'
import type { Services } from '../http/services.ts'
import { conflict, notFound, validationProblem } from '../core/problem.ts'
import { decodeCursor, hasString, page } from '../http/pagination.ts'
import type { WebhookDeliveriesTable, WebhookSubscriptionsTable } from '../core/storage.ts'
import {
  countSubscriptions,
  deleteSubscription,
  deliveriesPage,
  dueWaitingDeliveries,
  findDelivery,
  findSubscription,
  insertDelivery,
  insertSubscription,
  teamAppSlugs,
  teamSubscriptions,
  updateSubscription,
} from '../storage/webhooks/webhook-subscriptions.ts'
import { EVERY_EVENT, WEBHOOK_EVENT_TYPES, enqueueEvent } from '../webhooks/events.ts'

type Schemas = components['schemas']
type Ops =
  | 'createWebhook'
  | 'listWebhooks'
  | 'getWebhook'
  | 'updateWebhook'
  | 'deleteWebhook'
  | 'listWebhookDeliveries'
  | 'redeliverWebhook'
  | 'testWebhook'

/** Subscriptions one team may hold. */
export const MAX_WEBHOOKS_PER_TEAM = 50

const iso = (value: string) => timestamp(new Date(value))
const list = (json: string): string[] => {
  const value: unknown = JSON.parse(json)
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}
const isSelector = (v: string): v is Schemas['WebhookEventSelector'] =>
  v === EVERY_EVENT || (WEBHOOK_EVENT_TYPES as readonly string[]).includes(v)

function toWebhook(row: WebhookSubscriptionsTable): Schemas['Webhook'] {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: list(row.events).filter(isSelector),
    apps: row.apps === null ? null : list(row.apps),
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  }
}

function toDelivery(row: WebhookDeliveriesTable): Schemas['WebhookDelivery'] {
  return {
    id: row.id,
    eventId: row.event_id,
    event: row.event_type,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.response_status,
    error: row.error,
    lastAttemptAt: row.last_attempt_at === null ? null : iso(row.last_attempt_at),
    nextAttemptAt: row.next_attempt_at === null ? null : iso(row.next_attempt_at),
    createdAt: iso(row.created_at),
  }
}

/** `whsec_` and 24 random bytes in base64, the format Standard Webhooks libraries take. */
function newSecret(): string {
  let s = ''
  for (const b of crypto.getRandomValues(new Uint8Array(24))) s += String.fromCharCode(b)
  return `whsec_${btoa(s)}`
}

export function webhookHandlers(s: Services): Pick<Handlers, Ops> {
  async function checkUrl(url: string) {
    const problem = await s.webhookUrlProblem(url)
    if (problem) throw validationProblem([{ pointer: '/url', message: problem }])
  }
  function checkEvents(events: readonly string[] | undefined) {
    const i = events && events.length > 1 ? events.indexOf(EVERY_EVENT) : -1
    if (i >= 0)
      throw validationProblem([
        { pointer: `/events/${i}`, message: `${EVERY_EVENT} already means every event type; send it alone` },
      ])
  }
  async function checkApps(teamId: string, apps: string[] | null | undefined) {
    if (!apps) return
    const known = await teamAppSlugs(s.db, teamId, apps)
    const i = apps.findIndex((a) => !known.has(a))
    if (i >= 0) throw validationProblem([{ pointer: `/apps/${i}`, message: `names no app of your team (${apps[i]})` }])
  }
  async function find(teamId: string, id: string) {
    const row = await findSubscription(s.db, teamId, id)
    if (!row) throw notFound(`No webhook subscription with id ${id}.`)
    return row
  }
  async function delivery(id: string) {
    const row = await findDelivery(s.db, id)
    if (!row) throw notFound(`No webhook delivery with id ${id}.`)
    return row
  }

  return {
    async createWebhook(c, { body }, respond) {
      const user = currentUser(c.get('user'))
      checkEvents(body.events)
      await checkUrl(body.url)
      await checkApps(user.teamId, body.apps)
      if ((await countSubscriptions(s.db, user.teamId)) >= MAX_WEBHOOKS_PER_TEAM)
        throw conflict(`A team holds at most ${MAX_WEBHOOKS_PER_TEAM} webhook subscriptions; delete one first.`)
      const at = s.now().toISOString()
      const row: WebhookSubscriptionsTable = {
        id: randomId('whk'),
        team_id: user.teamId,
        url: body.url,
        description: body.description ?? '',
        events: JSON.stringify(body.events),
        apps: body.apps ? JSON.stringify(body.apps) : null,
        secret: newSecret(),
        enabled: 1,
        disabled_reason: null,
        failing_since: null,
        created_at: at,
        updated_at: at,
      }
      await commitWrite(s, c, async (trx) => {
        await insertSubscription(trx, row)
        noteAudit(c, { created: toWebhook(row) })
      })
      s.logger.info({ subscription: row.id, by: user.id }, 'webhook subscription created')
      return respond(201, { ...toWebhook(row), secret: row.secret }, { 'cache-control': 'no-store' })
    },

    async listWebhooks(c, _input, respond) {
      const user = currentUser(c.get('user'))
      const rows = await teamSubscriptions(s.db, user.teamId, MAX_WEBHOOKS_PER_TEAM)
      return respond(200, { items: rows.map(toWebhook) })
    },

    async getWebhook(c, { path }, respond) {
      return respond(200, toWebhook(await find(currentUser(c.get('user')).teamId, path.id)))
    },

    async updateWebhook(c, { path, body }, respond) {
      const user = currentUser(c.get('user'))
      const row = await find(user.teamId, path.id)
      checkEvents(body.events)
      if (body.url !== undefined) await checkUrl(body.url)
      await checkApps(user.teamId, body.apps)
      const changes: Partial<WebhookSubscriptionsTable> = { updated_at: s.now().toISOString() }
      if (body.url !== undefined) changes.url = body.url
      if (body.description !== undefined) changes.description = body.description
      if (body.events !== undefined) changes.events = JSON.stringify(body.events)
      if (body.apps !== undefined) changes.apps = body.apps === null ? null : JSON.stringify(body.apps)
      if (body.enabled !== undefined)
        Object.assign(changes, { enabled: body.enabled ? 1 : 0, disabled_reason: null, failing_since: null })
      const was = toWebhook(row)
      await commitWrite(s, c, async (trx) => {
        noteAudit(c, {
          before: {
            url: was.url,
            description: was.description,
            events: was.events,
            apps: was.apps,
            enabled: was.enabled,
          },
        })
        await updateSubscription(trx, row.id, changes)
        // Enabled again: what waited (retries pushed far out while it failed) goes out now.
        if (body.enabled === true && row.enabled !== 1) await dueWaitingDeliveries(trx, row.id, s.now().toISOString())
      })
      return respond(200, toWebhook({ ...row, ...changes }))
    },

    async deleteWebhook(c, { path }) {
      const row = await find(currentUser(c.get('user')).teamId, path.id)
      await commitWrite(s, c, async (trx) => {
        noteAudit(c, { changes: removedChanges({ url: row.url }) })
        await deleteSubscription(trx, row.id)
      })
      return noContent()
    },

    async listWebhookDeliveries(c, { path, query }, respond) {
      const row = await find(currentUser(c.get('user')).teamId, path.id)
      const cursor = decodeCursor(query.cursor, hasString('c', 'i'))
      const rows = await deliveriesPage(s.db, row.id, cursor, query.limit + 1)
      return respond(
        200,
        page(rows, query.limit, toDelivery, (r) => ({ c: r.created_at, i: r.id })),
      )
    },

    async redeliverWebhook(c, { path }, respond) {
      const row = await find(currentUser(c.get('user')).teamId, path.id)
      const first = await delivery(path.delivery)
      if (first.subscription_id !== row.id) throw notFound(`No webhook delivery with id ${path.delivery}.`)
      const at = s.now().toISOString()
      const again: WebhookDeliveriesTable = {
        ...first,
        id: randomId('dlv'),
        status: 'pending',
        attempts: 0,
        next_attempt_at: at,
        lease_until: null,
        last_attempt_at: null,
        response_status: null,
        error: null,
        created_at: at,
      }
      await commitWrite(s, c, (trx) => insertDelivery(trx, again))
      return respond(202, toDelivery(again))
    },

    async testWebhook(c, { path }, respond) {
      const row = await find(currentUser(c.get('user')).teamId, path.id)
      if (row.enabled !== 1)
        throw conflict(
          `Webhook subscription ${row.id} is disabled; enable it first (updateWebhook with enabled: true).`,
        )
      const [id] = await commitWrite(s, c, (trx) =>
        enqueueEvent(
          trx,
          s.now(),
          { type: 'webhook.test', teamId: row.team_id, app: null, data: { subscription: row.id } },
          row.id,
        ),
      )
      return respond(202, toDelivery(await delivery(id ?? '')))
    },
  }
}
