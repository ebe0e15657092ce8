/**
 * @module The audit log's table: append an entry (inside the caller's transaction when it has
 * one), and prune entries older than the retention in bounded batches.
 */
import type { Kysely } from 'kysely'
import { randomId } from '../auth/crypto.ts'
import type { AuditLogTable, Database } from '../storage/types.ts'
import type { AuditEntry } from './entry.ts'

export function auditRow(entry: AuditEntry): AuditLogTable {
  return {
    id: randomId('aud'),
    team_id: entry.teamId,
    at: entry.at.toISOString(),
    actor_type: entry.actor.type,
    actor_id: entry.actor.id,
    actor_name: entry.actor.name,
    actor_email: entry.actor.email,
    actor_user_id: entry.actor.userId,
    creator_email: entry.actor.creatorEmail,
    operation_id: entry.operationId,
    action: entry.action,
    target_type: entry.target.type,
    target_id: entry.target.id,
    app_slug: entry.target.app,
    changes: JSON.stringify(entry.changes),
    address: entry.address,
  }
}

/** Appends one entry; `db` may be a transaction, so the entry commits or rolls back with the change. */
export async function appendAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db.insertInto('audit_log').values(auditRow(entry)).execute()
}

/** Rows one prune statement deletes at most, so that it never holds locks for long. */
export const PRUNE_BATCH = 1000

/**
 * Deletes entries older than `retentionDays` before `now`, at most `maxBatches` batches of
 * `PRUNE_BATCH`; returns how many went. 0 days keeps everything.
 */
export async function pruneAudit(db: Kysely<Database>, now: Date, retentionDays: number, maxBatches = 100, batch = PRUNE_BATCH): Promise<number> {
  if (retentionDays <= 0) return 0
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString()
  let removed = 0
  for (let i = 0; i < maxBatches; i++) {
    const result = await db.deleteFrom('audit_log')
      .where('id', 'in', (eb) => eb.selectFrom('audit_log').select('id').where('at', '<', cutoff).limit(batch))
      .executeTakeFirst()
    const n = Number(result.numDeletedRows)
    removed += n
    if (n < batch) break
  }
  return removed
}
