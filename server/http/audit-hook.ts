/**
 * @module Feeds the audit log from the request path: after a write succeeded, the gate's
 * operation and caller, the target from path parameters (or the created object in the
 * response), the body's fields as changes, and whatever the handler noted (`noteAudit`).
 */
import type { AuthUser } from '../auth/auth-user.ts'
import { actionOf, changesOf, isRecord, targetOfPath, type AuditActor, type AuditEntry, type AuditNote } from '../audit/entry.ts'
import { appendAudit } from '../audit/store.ts'
import type { Ctx } from './context.ts'
import type { Services } from './services.ts'
import type { OperationSpec } from './spec.ts'

/** Adds to the audit entry of this request (merged with earlier notes). */
export function noteAudit(c: Ctx, note: AuditNote): void {
  const earlier = c.get('auditNote')
  c.set('auditNote', earlier ? { ...earlier, ...note, before: { ...earlier.before, ...note.before }, changes: { ...earlier.changes, ...note.changes } } : note)
}

export function actorOf(user: AuthUser): AuditActor {
  return user.tokenId === undefined
    ? { type: 'user', id: user.id, name: user.name, email: user.email, userId: user.id, creatorEmail: null }
    : { type: 'token', id: user.tokenId, name: user.tokenName ?? user.tokenId, email: null, userId: user.id, creatorEmail: user.email }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

/** The caller a signup or login names in its response (there is no token yet). */
function responder(body: unknown): { actor: AuditActor; teamId: string } | undefined {
  if (!isRecord(body) || !isRecord(body.user) || !isRecord(body.team)) return undefined
  const id = str(body.user.id)
  const teamId = str(body.team.id)
  if (!id || !teamId) return undefined
  const email = str(body.user.email) ?? null
  return { actor: { type: 'user', id, name: str(body.user.name) ?? id, email, userId: id, creatorEmail: null }, teamId }
}

async function jsonOf(response: Response): Promise<unknown> {
  if (!/json/i.test(response.headers.get('content-type') ?? '')) return undefined
  return response.clone().json().catch(() => undefined)
}

/** Whether a call of this operation is a write the audit log records (when it succeeds and has a caller). */
export const isAuditedWrite = (op: OperationSpec) => op.method !== 'get'

/**
 * The entry of a successful write, or `undefined` when nobody is behind it (a device's health
 * report): writes without a team member are not management actions.
 */
export async function auditEntryOf(s: Services, op: OperationSpec, c: Ctx, input: { path: unknown; body: unknown }, response: Response): Promise<AuditEntry | undefined> {
  const user = c.get('user')
  const note = c.get('auditNote')
  const params: Record<string, string> = {}
  if (isRecord(input.path)) for (const [k, v] of Object.entries(input.path)) if (typeof v === 'string') params[k] = v
  const target = targetOfPath(op.path, params)
  let created: unknown
  const readCreated = async () => (created ??= await jsonOf(response))
  let who: { actor: AuditActor; teamId: string } | undefined = user ? { actor: actorOf(user), teamId: user.teamId } : undefined
  who ??= responder(await readCreated())
  if (!who) return undefined
  if (op.operationId === 'updateAdminPassword' && user) {
    target.type = 'user'
    target.id = user.id
  } else if (target.type === 'team') {
    target.id = who.teamId
  } else if (target.id === null) {
    const body = await readCreated()
    target.id = note?.targetId ?? (isRecord(body) ? str(body.id) ?? str(body.slug) ?? null : null)
  }
  const app = params.app ?? note?.app ?? (target.type === 'app' ? target.id : null)
  return {
    teamId: who.teamId,
    at: s.now(),
    actor: who.actor,
    operationId: op.operationId,
    action: actionOf(op.operationId, input.body),
    target: { ...target, app },
    changes: changesOf(input.body, note),
    address: s.clientIp(c) ?? null,
  }
}

/**
 * Records a successful write. Called after the handler's change committed and before the
 * response leaves, so a client never sees success without its entry; if the entry cannot be
 * written the change stands, and the entry goes to the log instead (`audit entry not written`).
 */
export async function recordWrite(s: Services, op: OperationSpec, c: Ctx, input: { path: unknown; body: unknown }, response: Response): Promise<void> {
  let entry: AuditEntry | undefined
  try {
    entry = await auditEntryOf(s, op, c, input, response)
    if (entry) await appendAudit(s.db, entry)
  } catch (err) {
    s.logger.error({ reqId: c.get('reqId'), err, audit: entry }, 'audit entry not written')
  }
}
