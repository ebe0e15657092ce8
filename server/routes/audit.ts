/**
 * @module The audit log, read-only: the team admin sees every entry of the team; a team user
 * (or their token) the entries of apps they may read, and their own entries.
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely'
import type { Handlers } from '../http/respond.ts'
import type { Schemas } from '../http/spec.ts'
import type { Services } from '../http/services.ts'
import { currentUser } from '../auth/auth-user.ts'
import { visibleApps } from '../auth/permissions.ts'
import { decodeCursor, hasString, page } from '../http/pagination.ts'
import { validationProblem } from '../http/problem.ts'
import type { AuditLogTable, Database } from '../storage/types.ts'
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

type Eb = ExpressionBuilder<Database, 'audit_log'>

export function auditHandlers(s: Services): Pick<Handlers, 'listAuditEntries'> {
  return {
    async listAuditEntries(c, { query }, respond) {
      const user = currentUser(c.get('user'))
      const cursor = decodeCursor(query.cursor, hasString('a', 'i'))
      const from = instant(query.from, 'from')
      const to = instant(query.to, 'to')
      let q = s.db.selectFrom('audit_log').selectAll().where('team_id', '=', user.teamId)
      if (user.role !== 'admin') {
        const visible = visibleApps(user)
        q = q.where((eb: Eb) => {
          // Apps they may read; team-wide entries only when they made them.
          const readable: Array<Expression<SqlBool>> =
            visible === null
              ? [eb('app_slug', 'is not', null)]
              : visible.size > 0
                ? [eb('app_slug', 'in', [...visible])]
                : []
          return eb.or([
            ...readable,
            eb.and([eb('actor_user_id', '=', user.id), eb.or([eb('app_slug', 'is', null), ...readable])]),
          ])
        })
      }
      if (query.app !== undefined) q = q.where('app_slug', '=', query.app)
      const actor = query.actor
      if (actor === 'system') q = q.where('actor_type', '=', 'system')
      else if (actor !== undefined && ID.test(actor))
        q = q.where((eb: Eb) => eb.or([eb('actor_user_id', '=', actor), eb('actor_id', '=', actor)]))
      else if (actor !== undefined)
        q = q.where((eb: Eb) =>
          eb.or([eb('actor_email', '=', actor.toLowerCase()), eb('creator_email', '=', actor.toLowerCase())]),
        )
      const action = query.action
      // A prefix ends in a dot; '/' is the character after '.', so the range holds exactly the prefix.
      if (action?.endsWith('.')) q = q.where('action', '>=', action).where('action', '<', `${action.slice(0, -1)}/`)
      else if (action !== undefined) q = q.where('action', '=', action)
      if (from !== undefined) q = q.where('at', '>=', from)
      if (to !== undefined) q = q.where('at', '<', to)
      if (cursor) {
        q = q.where((eb: Eb) =>
          eb.or([eb('at', '<', cursor.a), eb.and([eb('at', '=', cursor.a), eb('id', '<', cursor.i)])]),
        )
      }
      const rows = await q
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(query.limit + 1)
        .execute()
      return respond(
        200,
        page(rows, query.limit, toAuditEntry, (r) => ({ a: r.at, i: r.id })),
      )
    },
  }
}
