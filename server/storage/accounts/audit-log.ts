/**
 * @module The audit log's SQL: append a row (inside the caller's transaction when it has one),
 * prune rows older than the retention in bounded batches, and page a team's entries newest first.
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely'
import type { AuditLogTable, Database, Db } from '../../core/storage.ts'

/** Appends one row; `db` may be a transaction, so the entry commits or rolls back with the change. */
export async function insertAuditRow(db: Db, row: AuditLogTable): Promise<void> {
  await db.insertInto('audit_log').values(row).execute()
}

/** Rows one prune statement deletes at most, so that it never holds locks for long. */
export const PRUNE_BATCH = 1000

/**
 * Deletes entries older than `retentionDays` before `now`, at most `maxBatches` batches of
 * `PRUNE_BATCH`; returns how many went. 0 days keeps everything.
 */
export async function pruneAudit(
  db: Db,
  now: Date,
  retentionDays: number,
  maxBatches = 100,
  batch = PRUNE_BATCH,
): Promise<number> {
  if (retentionDays <= 0) return 0
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString()
  let removed = 0
  for (let i = 0; i < maxBatches; i++) {
    const result = await db
      .deleteFrom('audit_log')
      .where('id', 'in', (eb) => eb.selectFrom('audit_log').select('id').where('at', '<', cutoff).limit(batch))
      .executeTakeFirst()
    const n = Number(result.numDeletedRows)
    removed += n
    if (n < batch) break
  }
  return removed
}

/** Which entries of the team a page holds; members left out do not filter. */
export interface AuditFilter {
  /** A team user (not the admin): the entries of the apps they may read (`apps`; `null`: all), and their own. */
  reader?: { userId: string; apps: ReadonlySet<string> | null }
  app?: string
  /** The system, a user or token by id, or a user by email (or a token by its creator's email). */
  actor?: { system: true } | { id: string } | { email: string }
  /** An action, or a prefix of actions when it ends in a dot. */
  action?: string
  /** Stored instants (UTC with milliseconds): `from` included, `to` not. */
  from?: string
  to?: string
}

type Eb = ExpressionBuilder<Database, 'audit_log'>

/** One page of the team's entries, newest first, after the cursor `(at, id)`. */
export function auditEntriesPage(
  db: Db,
  teamId: string,
  filter: AuditFilter,
  after: { a: string; i: string } | undefined,
  count: number,
): Promise<AuditLogTable[]> {
  let q = db.selectFrom('audit_log').selectAll().where('team_id', '=', teamId)
  const { reader, actor, action } = filter
  if (reader) {
    const visible = reader.apps
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
        eb.and([eb('actor_user_id', '=', reader.userId), eb.or([eb('app_slug', 'is', null), ...readable])]),
      ])
    })
  }
  if (filter.app !== undefined) q = q.where('app_slug', '=', filter.app)
  if (actor && 'system' in actor) q = q.where('actor_type', '=', 'system')
  else if (actor && 'id' in actor)
    q = q.where((eb: Eb) => eb.or([eb('actor_user_id', '=', actor.id), eb('actor_id', '=', actor.id)]))
  else if (actor)
    q = q.where((eb: Eb) => eb.or([eb('actor_email', '=', actor.email), eb('creator_email', '=', actor.email)]))
  // A prefix ends in a dot; '/' is the character after '.', so the range holds exactly the prefix.
  if (action?.endsWith('.')) q = q.where('action', '>=', action).where('action', '<', `${action.slice(0, -1)}/`)
  else if (action !== undefined) q = q.where('action', '=', action)
  if (filter.from !== undefined) q = q.where('at', '>=', filter.from)
  if (filter.to !== undefined) q = q.where('at', '<', filter.to)
  if (after) {
    q = q.where((eb: Eb) => eb.or([eb('at', '<', after.a), eb.and([eb('at', '=', after.a), eb('id', '<', after.i)])]))
  }
  return q.orderBy('at', 'desc').orderBy('id', 'desc').limit(count).execute()
}
