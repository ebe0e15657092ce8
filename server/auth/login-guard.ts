/**
 * @module What surrounds a login's password check: the limiter's count taken before it (so
 * parallel guesses cannot all be checked), and after a success, the email's failures forgiven
 * and a password hash weaker than configured replaced.
 */
import { replacePasswordHash } from '../storage/accounts/users.ts'
import { hashIterations, hashPassword } from '../core/crypto.ts'
import type { LoginAttempt, LoginLimiter } from './login-limiter.ts'
import { tooManyRequests } from '../core/problem.ts'
import type { Db, UsersTable } from '../core/storage.ts'

/** What a login needs of the app: the limiter, and the database and hash cost for an upgrade. */
export interface LoginDeps {
  db: Db
  loginLimiter: LoginLimiter
  config: { passwordIterations: number }
}

/** Counts the attempt; throws a 429 problem with `Retry-After` when the email or address is over its limit. */
export async function admitLogin(limiter: LoginLimiter, attempt: LoginAttempt): Promise<LoginAttempt> {
  const verdict = await limiter.take(attempt)
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
  s: LoginDeps,
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
