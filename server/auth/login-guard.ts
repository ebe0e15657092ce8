/**
 * @module What surrounds a login's password check: the limiter's count taken before it (so
 * parallel guesses cannot all be checked), and after a success, the email's failures forgiven
 * and a password hash weaker than configured replaced.
 */
import { replacePasswordHash } from '../storage/users.ts'
import type { Ctx } from '../http/context.ts'
import type { Services } from '../http/services.ts'
import { hashIterations, hashPassword } from './crypto.ts'
import type { LoginAttempt } from './login-limiter.ts'
import { tooManyRequests } from '../http/problem.ts'
import type { UsersTable } from '../storage/types.ts'

/** Counts the attempt; throws a 429 problem with `Retry-After` when the email or address is over its limit. */
export async function admitLogin(s: Services, c: Ctx, email: string): Promise<LoginAttempt> {
  const attempt: LoginAttempt = { email, address: s.clientIp(c) }
  const verdict = await s.loginLimiter.take(attempt)
  if (!verdict.allowed) {
    const n = verdict.retryAfterSeconds
    throw tooManyRequests(
      verdict.limit === 'email'
        ? `Too many failed logins for this email; try again in ${n} seconds.`
        : `Too many login attempts from this address; try again in ${n} seconds.`,
      n,
    )
  }
  return attempt
}

/** After a correct password: resets the email's failures and upgrades a hash made with fewer iterations than configured. */
export async function loginSucceeded(
  s: Services,
  attempt: LoginAttempt,
  user: UsersTable,
  password: string,
): Promise<void> {
  await s.loginLimiter.succeeded(attempt)
  const iterations = hashIterations(user.password_hash)
  if (iterations !== undefined && iterations < s.config.passwordIterations) {
    // Only if the hash is still the one just verified (a concurrent password change wins).
    // Tokens stay valid: the password did not change.
    await replacePasswordHash(
      s.db,
      user.id,
      user.password_hash,
      await hashPassword(password, s.config.passwordIterations),
      false,
    )
  }
}
