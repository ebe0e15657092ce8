/** @module An audit entry as the audit log's row (server/storage/accounts/audit-log.ts holds the SQL). */
import { randomId } from '../core/crypto.ts'
import { insertAuditRow } from '../storage/accounts/audit-log.ts'
import type { AuditLogTable, Db } from '../core/storage.ts'
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
export async function appendAudit(db: Db, entry: AuditEntry): Promise<void> {
  await insertAuditRow(db, auditRow(entry))
}
