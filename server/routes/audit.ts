/**
 * @module The audit log, read-only: the team admin sees every entry of the team; a team user
 * (or their token) the entries of apps they may read, and their own entries.
 */
import type { Handlers } from '../http/respond.ts'
import type { Schemas } from '../http/spec.ts'
import type { Services } from '../http/services.ts'
import { currentUser } from '../auth/auth-user.ts'
import { visibleApps } from '../auth/permissions.ts'
import { decodeCursor, hasString, page } from '../http/pagination.ts'
import { validationProblem } from '../core/problem.ts'
import type { AuditLogTable } from '../core/storage.ts'
import { auditEntriesPage, type AuditFilter } from '../storage/accounts/audit-log.ts'
import { isRecord } from '../audit/entry.ts'

const ID = /^[a-z]+_[0-9A-Za-z]+$/

function changesOf(row: AuditLogTable): Schemas['AuditEntry']['changes'] {
  const value: unknown = JSON.parse(row.changes)
  const changes: Schemas['AuditEntry']['changes'] = {}
  if (!isRecord(value)) return changes
  for (const [name, change] of Object.entries(value)) if (isRecord(change)) changes[name] = change
  return changes
}

export function toAuditEntry(row: AuditLogTable): Schemas['AuditEntry'] {
  return {
    id: row.id,
    at: row.at,
    actor: {
      type: row.actor_type,
      id: row.actor_id,
      name: row.actor_name,
      email: row.actor_email,
      createdBy:
        row.actor_type === 'token' && row.actor_user_id !== null
          ? { id: row.actor_user_id, email: row.creator_email ?? '' }
          : null,
    },
    operationId: row.operation_id,
    action: row.action,
    target: { type: row.target_type, id: row.target_id, app: row.app_slug },
    changes: changesOf(row),
    address: row.address,
  }
}

/** A query's time bound as stored (UTC with milliseconds). */
function instant(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined
  const at = new Date(value)
  if (Number.isNaN(at.getTime())) throw validationProblem([{ field, message: 'is not a date-time' }])
  return at.toISOString()
}

/** `system`, a user's or token's id, or else an email (of a user, or of a token's creator). */
function actorFilter(actor: string | undefined): AuditFilter['actor'] {
  if (actor === undefined) return undefined
  if (actor === 'system') return { system: true }
  return ID.test(actor) ? { id: actor } : { email: actor.toLowerCase() }
}

export function auditHandlers(s: Services): Pick<Handlers, 'listAuditEntries'> {
  return {
    async listAuditEntries(c, { query }, respond) {
      const user = currentUser(c.get('user'))
      const cursor = decodeCursor(query.cursor, hasString('a', 'i'))
      const from = instant(query.from, 'from')
      const to = instant(query.to, 'to')
      const filter: AuditFilter = {
        reader: user.role === 'admin' ? undefined : { userId: user.id, apps: visibleApps(user) },
        app: query.app,
        actor: actorFilter(query.actor),
        action: query.action,
        from,
        to,
      }
      const rows = await auditEntriesPage(s.db, user.teamId, filter, cursor, query.limit + 1)
      return respond(
        200,
        page(rows, query.limit, toAuditEntry, (r) => ({ a: r.at, i: r.id })),
      )
    },
  }
}
