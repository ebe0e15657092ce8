/**
 * @module The audit log's SQL: append a row (inside the caller's transaction when it has one), and
 * prune rows older than the retention in bounded batches.
 */
import type { AuditLogTable, Db } from './types.ts'

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
