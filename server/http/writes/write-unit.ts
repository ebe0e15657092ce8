/**
 * @module A write's unit of work. A handler runs its statements through `commitWrite`; the same
 * transaction then appends the request's audit entry and its webhook events to the outbox, so a
 * write commits with its records or not at all. `finishWrite` records what a handler that wrote
 * nothing of its own (a login, an update that sent no member) did, after it answered.
 */
import { auditEntryOf } from './audit-hook.ts'
import { appendAudit } from '../../audit/store.ts'
import type { Transaction } from 'kysely'
import type { Database, Db } from '../../core/storage.ts'
import {
  enqueueEvents,
  eventStateBefore,
  eventsAfter,
  raisesEvents,
  type Before,
} from '../../webhooks/operation-events.ts'
import type { Ctx, PendingWrite } from '../context.ts'
import type { Services } from '../services.ts'

async function record(
  trx: Db,
  s: Services,
  c: Ctx,
  pending: PendingWrite,
  before: Before | undefined,
  created: unknown,
): Promise<void> {
  const entry = auditEntryOf(s, pending.op, c, pending.input, created)
  if (entry) await appendAudit(trx, entry)
  const user = c.get('user')
  if (before && user)
    await enqueueEvents(
      trx,
      s.now(),
      await eventsAfter(trx, pending.op.operationId, user, pending.input, created, before, s.now()),
    )
  pending.recorded = true
}

async function stateBefore(
  trx: Db,
  s: Services,
  c: Ctx,
  pending: PendingWrite | undefined,
): Promise<Before | undefined> {
  const user = c.get('user')
  if (!pending || !user || !raisesEvents(pending.op.operationId)) return undefined
  return eventStateBefore(trx, pending.op.operationId, user, pending.input, s.now())
}

/**
 * Runs `work` in a transaction that also records the request's audit entry and webhook events.
 * What the handler creates is named with `noteAudit(c, { created })` inside `work`. A throw from
 * `work` or from the records rolls everything back.
 */
export async function commitWrite<T>(
  s: Services,
  c: Ctx,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const pending = c.get('write')
  return s.db.transaction().execute(async (trx) => {
    const before = await stateBefore(trx, s, c, pending)
    const result = await work(trx)
    if (pending && !pending.recorded) await record(trx, s, c, pending, before, c.get('auditNote')?.created)
    return result
  })
}

/**
 * After a successful answer: records a write whose handler did not go through `commitWrite`
 * (its only change is the entry itself). A failure here answers 500, so a client never sees
 * success without its entry.
 */
export async function finishWrite(s: Services, c: Ctx, response: Response): Promise<void> {
  const pending = c.get('write')
  if (!pending || pending.recorded || response.status >= 400) return
  const created: unknown =
    c.get('auditNote')?.created ??
    (/json/i.test(response.headers.get('content-type') ?? '')
      ? await response
          .clone()
          .json()
          .catch(() => undefined)
      : undefined)
  // Nobody behind it (a device's health report): nothing to record.
  if (!auditEntryOf(s, pending.op, c, pending.input, created)) return
  await s.db.transaction().execute(async (trx) => {
    await record(trx, s, c, pending, await stateBefore(trx, s, c, pending), created)
  })
}
