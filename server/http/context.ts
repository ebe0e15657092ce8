/** @module The per-request context of a Hono handler: who is asking, the request id, the operation. */
import type { Context } from 'hono'
import type { AuthUser } from '../auth/auth-user.ts'
import type { AuditNote } from '../audit/entry.ts'
import type { PendingWrite } from './write-unit.ts'

export type FerryEnv = { Variables: { user: AuthUser | undefined; reqId: string; operation: string; auditNote: AuditNote | undefined; write: PendingWrite | undefined } }
export type Ctx = Context<FerryEnv>
