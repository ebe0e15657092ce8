/** @module The per-request context of a Hono handler: who is asking, the request id, the operation. */
import type { Context } from 'hono'
import type { AuthUser } from '../auth/auth-user.ts'
import type { AuditNote } from '../audit/entry.ts'
import type { OperationSpec } from '../../contract/operation-spec.ts'

export type FerryEnv = {
  Variables: {
    user: AuthUser | undefined
    reqId: string
    operation: string
    auditNote: AuditNote | undefined
    write: PendingWrite | undefined
  }
}
export type Ctx = Context<FerryEnv>

/** The write a request is making, set by the app before its handler runs (see `write-unit.ts`). */
export interface PendingWrite {
  op: OperationSpec
  input: { path: unknown; body: unknown }
  /** Its audit entry and events are written. */
  recorded: boolean
}
