/**
 * @module What the audit log records of a request: the gate's operation and caller, the target
 * from path parameters (or the created object), the body's fields as changes, and whatever the
 * handler noted (`noteAudit`). `write-unit.ts` writes it in the write's own transaction.
 */
import type { AuthUser } from '../../auth/auth-user.ts'
import {
  actionOf,
  changesOf,
  isRecord,
  targetOfPath,
  type AuditActor,
  type AuditEntry,
  type AuditNote,
} from '../../audit/entry.ts'
import type { Ctx } from '../context.ts'
import type { Services } from '../services.ts'
import type { OperationSpec } from '../spec.ts'

/** Adds to the audit entry of this request (merged with earlier notes). */
export function noteAudit(c: Ctx, note: AuditNote): void {
  const earlier = c.get('auditNote')
  c.set(
    'auditNote',
    earlier
      ? {
          ...earlier,
          ...note,
          before: { ...earlier.before, ...note.before },
          changes: { ...earlier.changes, ...note.changes },
        }
      : note,
  )
}

export function actorOf(user: AuthUser): AuditActor {
  return user.tokenId === undefined
    ? { type: 'user', id: user.id, name: user.name, email: user.email, userId: user.id, creatorEmail: null }
    : {
        type: 'token',
        id: user.tokenId,
        name: user.tokenName ?? user.tokenId,
        email: null,
        userId: user.id,
        creatorEmail: user.email,
      }
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

/**
 * Whether a call of this operation is a write the audit log records (when it succeeds and has a
 * caller). Not /mcp: each write an MCP tool makes is a request of its own, audited as such.
 */
export const isAuditedWrite = (op: OperationSpec) => op.method !== 'get' && op.operationId !== 'callMcp'

/**
 * The entry of a successful write, or `undefined` when nobody is behind it (a device's health
 * report): writes without a team member are not management actions. `created`: the object the
 * write created, as its answer carries it.
 */
export function auditEntryOf(
  s: Services,
  op: OperationSpec,
  c: Ctx,
  input: { path: unknown; body: unknown },
  created: unknown,
): AuditEntry | undefined {
  const user = c.get('user')
  const note = c.get('auditNote')
  const params: Record<string, string> = {}
  if (isRecord(input.path)) for (const [k, v] of Object.entries(input.path)) if (typeof v === 'string') params[k] = v
  const target = targetOfPath(op.path, params)
  let who: { actor: AuditActor; teamId: string } | undefined = user
    ? { actor: actorOf(user), teamId: user.teamId }
    : undefined
  who ??= responder(created)
  if (!who) return undefined
  if (op.operationId === 'updateAdminPassword' && user) {
    target.type = 'user'
    target.id = user.id
  } else if (target.type === 'team') {
    target.id = who.teamId
  } else if (target.id === null) {
    target.id = note?.targetId ?? (isRecord(created) ? (str(created.id) ?? str(created.slug) ?? null) : null)
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
