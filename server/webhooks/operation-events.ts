/**
 * @module Which webhook events a successful write raises: `before` is read in the write's
 * transaction ahead of its statements (the state a change is judged against), `after` once they
 * ran, and the events go to the outbox in that same transaction (server/http/writes/write-unit.ts).
 * Health reports' automatic pause and the worker's ramp steps raise theirs where they happen.
 */
import type { AuthUser } from '../auth/auth-user.ts'
import type { OperationId } from '../../contract/operation-spec.ts'
import type { Db } from '../core/storage.ts'
import { lockRollout, rolloutOf } from '../storage/releases/rollouts.ts'
import { teamToken, versionStates } from '../storage/webhooks/webhook-events.ts'
import { teamHasEnabledSubscription } from '../storage/webhooks/webhook-subscriptions.ts'
import { rolloutAt } from '../updates/rollout.ts'
import { findRule } from '../storage/releases/update-rules.ts'
import { toRule } from '../updates/rules.ts'
import type { components } from '../../contract/generated/api.ts'
import { enqueueEvent, versionSummary, type Actor, type WebhookEvent } from './events.ts'

type Schemas = components['schemas']

const VERSION_OPS = new Set<OperationId>(['updateVersion', 'pauseVersion', 'resumeVersion', 'pullVersion'])
const RULE_OPS = new Set<OperationId>(['createRule', 'deleteRule'])
const EVENT_OPS = new Set<OperationId>([
  ...VERSION_OPS,
  ...RULE_OPS,
  'uploadVersion',
  'createApiToken',
  'revokeApiToken',
])

/** Whether `operation` may raise events (the app skips the rest for every other one). */
export const raisesEvents = (operation: OperationId) => EVENT_OPS.has(operation)

const text = (record: unknown, key: string): string | undefined => {
  if (typeof record !== 'object' || record === null) return undefined
  const value: unknown = Reflect.get(record, key)
  return typeof value === 'string' ? value : undefined
}

export const actorOf = (user: AuthUser): Actor => ({
  id: user.id,
  name: user.name,
  ...(user.tokenId ? { tokenId: user.tokenId } : {}),
})

/** A gated ramp held past its deadline: paused by itself, with no column saying so (server/updates/rollout.ts). */
async function lapsed(db: Db, versionId: string, now: Date): Promise<boolean> {
  const row = await rolloutOf(db, versionId)
  return row !== undefined && row.paused_at === null && rolloutAt(row, now.getTime()).hold?.expired === true
}

export interface Before {
  version?: { published: boolean; paused: boolean; pulled: boolean }
  token?: { id: string; name: string; createdBy: string }
  /** The rule a `deleteRule` removes, as the API shows it. */
  rule?: Schemas['Rule']
}

/** What `after` compares with; `undefined` when the team has no subscription (nothing to do). */
export async function eventStateBefore(
  db: Db,
  operation: OperationId,
  user: AuthUser,
  input: unknown,
  now: Date,
): Promise<Before | undefined> {
  const path = typeof input === 'object' && input !== null ? Reflect.get(input, 'path') : undefined
  if (!(await teamHasEnabledSubscription(db, user.teamId))) return undefined
  const app = text(path, 'app')
  const version = text(path, 'version')
  if (VERSION_OPS.has(operation) && app !== undefined && version !== undefined) {
    // Locked until the write commits: a concurrent write on the version waits and then reads the
    // state this one left, so two resumes at once raise one `version.resumed`.
    await lockRollout(db, version, app)
    const row = await versionStates(db, app, version)
    return row
      ? {
          version: {
            published: row.published === 1,
            paused: row.paused_at !== null || (await lapsed(db, version, now)),
            pulled: row.pulled_at !== null,
          },
        }
      : {}
  }
  const ruleId = text(path, 'rule')
  if (operation === 'deleteRule' && app !== undefined && ruleId !== undefined) {
    const row = await findRule(db, app, ruleId)
    return row ? { rule: toRule(row) } : {}
  }
  const id = text(path, 'id')
  if (operation === 'revokeApiToken' && id !== undefined) {
    const row = await teamToken(db, user.teamId, id)
    return row ? { token: { id: row.id, name: row.name, createdBy: row.created_by } } : {}
  }
  return {}
}

/** The events a write raised, compared with `before`. `body`: the created object (upload, token creation). */
export async function eventsAfter(
  db: Db,
  operation: OperationId,
  user: AuthUser,
  input: unknown,
  body: unknown,
  before: Before,
  now: Date,
): Promise<WebhookEvent[]> {
  const path = typeof input === 'object' && input !== null ? Reflect.get(input, 'path') : undefined
  const actor = actorOf(user)
  const team = user.teamId
  if (operation === 'createApiToken') {
    const id = text(body, 'id')
    const name = text(body, 'name')
    const createdBy = text(body, 'createdBy')
    if (id === undefined || name === undefined || createdBy === undefined) return []
    return [{ type: 'token.created', teamId: team, app: null, data: { token: { id, name, createdBy }, actor } }]
  }
  if (operation === 'revokeApiToken')
    return before.token
      ? [{ type: 'token.revoked', teamId: team, app: null, data: { token: before.token, actor } }]
      : []
  if (RULE_OPS.has(operation)) {
    const app = text(path, 'app')
    const created = operation === 'createRule' ? text(body, 'id') : undefined
    const row = created === undefined || app === undefined ? undefined : await findRule(db, app, created)
    const rule = operation === 'createRule' ? row && toRule(row) : before.rule
    if (app === undefined || rule === undefined) return []
    const type = operation === 'createRule' ? 'rule.created' : 'rule.deleted'
    return [{ type, teamId: team, app, data: { app, rule, actor } }]
  }
  const versionId = operation === 'uploadVersion' ? text(body, 'id') : text(path, 'version')
  if (versionId === undefined) return []
  const version = await versionSummary(db, versionId)
  if (!version) return []
  const event = (type: WebhookEvent['type']): WebhookEvent => ({
    type,
    teamId: team,
    app: version.app,
    data: { app: version.app, version, actor },
  })
  if (operation === 'uploadVersion')
    return version.published ? [event('version.uploaded'), event('version.published')] : [event('version.uploaded')]
  const was = before.version
  if (!was) return []
  const out: WebhookEvent[] = []
  if (!was.published && version.published) out.push(event('version.published'))
  if (was.published && !version.published) out.push(event('version.unpublished'))
  // An automatic pause a write caused (a stricter health policy) raised its own, without an actor.
  if (!was.paused && version.paused !== null && !version.paused.automatic) out.push(event('version.paused'))
  if (!was.pulled && version.pulled !== null) out.push(event('version.pulled'))
  // Any pause ends with one `version.resumed`: a person's, health reports', or a gated ramp's
  // deadline (the worker announced that one as paused; a resume starts its wait over).
  if (
    (was.paused || was.pulled) &&
    version.paused === null &&
    version.pulled === null &&
    !(await lapsed(db, versionId, now))
  )
    out.push(event('version.resumed'))
  return out
}

/** Writes events to the outbox; `db` is the write's transaction, so they commit or roll back with it. */
export async function enqueueEvents(db: Db, now: Date, events: WebhookEvent[]): Promise<void> {
  for (const event of events) await enqueueEvent(db, now, event)
}

/** `version.paused` with no actor: health reports paused the version (in the pause's transaction). */
export async function enqueueAutomaticPause(db: Db, now: Date, teamId: string, versionId: string): Promise<void> {
  const version = await versionSummary(db, versionId)
  if (!version) return
  await enqueueEvent(db, now, {
    type: 'version.paused',
    teamId,
    app: version.app,
    data: { app: version.app, version, actor: null },
  })
}
