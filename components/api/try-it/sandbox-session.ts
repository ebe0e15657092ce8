/**
 * In sandbox mode Try it works as the demo team admin from the first send: the demo login is
 * used, not just shown. After the reader logs out, requests go without a token (to see a 401).
 */
import { DEMO_LOGIN } from '../../../server/demo/seed.ts'
import { SANDBOX_ORIGIN } from '../../demo/sandbox-loader'
import { send } from './send'
import { session, updateSession } from './session'

let signingIn: Promise<string | undefined> | undefined

/** The sandbox token to send with: the held one, or a fresh demo login (once, shared by every panel). */
export function sandboxToken(): Promise<string | undefined> {
  const s = session()
  const held = s.credentials.sandbox
  if (held) return Promise.resolve(held.token)
  if (s.sandboxLoggedOut) return Promise.resolve(undefined)
  signingIn ??= signIn().finally(() => {
    signingIn = undefined
  })
  return signingIn
}

async function signIn(): Promise<string | undefined> {
  const answer = await send('sandbox', `${SANDBOX_ORIGIN}/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(DEMO_LOGIN),
  })
  const body = answer.json
  if (
    answer.status !== 200 ||
    typeof body !== 'object' ||
    body === null ||
    !('token' in body) ||
    typeof body.token !== 'string'
  ) {
    throw new Error(`the demo login answered ${answer.status}`)
  }
  const token = body.token
  updateSession((old) => ({ ...old, credentials: { ...old.credentials, sandbox: { token, who: DEMO_LOGIN.email } } }))
  return token
}

export function logOutOfSandbox(): void {
  updateSession((old) => ({
    ...old,
    sandboxLoggedOut: true,
    credentials: Object.fromEntries(Object.entries(old.credentials).filter(([k]) => k !== 'sandbox')),
  }))
}

/** Forgets a token the sandbox no longer accepts (a password change or a reset ends sessions). */
export function dropSandboxToken(): void {
  updateSession((old) => ({
    ...old,
    credentials: Object.fromEntries(Object.entries(old.credentials).filter(([k]) => k !== 'sandbox')),
  }))
}

/** A GET to the sandbox with the demo session, signing in again once if its token has lapsed. */
export async function sandboxGet(path: string): Promise<{ status: number; json: unknown }> {
  const get = async () => {
    const token = await sandboxToken()
    return send('sandbox', `${SANDBOX_ORIGIN}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} })
  }
  let answer = await get()
  if (answer.status === 401 && session().credentials.sandbox) {
    dropSandboxToken()
    answer = await get()
  }
  return { status: answer.status, json: answer.json }
}
