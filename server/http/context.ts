/** @module The per-request context of a Hono handler: who is asking, the request id, the operation. */
import type { Context } from 'hono'
import type { AuthUser } from '../auth/auth-user.ts'

export type FerryEnv = { Variables: { user: AuthUser | undefined; reqId: string; operation: string } }
export type Ctx = Context<FerryEnv>
