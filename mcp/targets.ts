/**
 * @module Where call_operation sends requests: an in-process sandbox (the server's own app on
 * sql.js and in-memory files, seeded like /demo, started on first use) or a real Ferry server
 * given by URL and token. Writes to a real server need the user's explicit `--allow-writes`.
 */
import type { Sandbox } from '../server/runtime/browser.ts'
import type { Target } from './target.ts'

export type { Target, TargetName } from './target.ts'

export const SANDBOX_URL = 'http://sandbox.ferry.test'
/** A real server that does not answer within this is reported as unreachable. */
const SERVER_TIMEOUT_MS = 30_000

function withBearer(init: RequestInit, token: string | undefined): RequestInit {
  const headers = new Headers(init.headers)
  if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`)
  return { ...init, headers }
}

export function sandboxTarget(): Target & { close(): Promise<void> } {
  let starting: Promise<Sandbox> | undefined
  // Loaded on first use: an installed Ferry has no sql.js (a dependency of the site's sandbox only),
  // and its `ferry mcp` serves the docs and a server's /mcp without it.
  const sandbox = () =>
    (starting ??= import('../server/runtime/browser.ts').then(({ createSandbox }) =>
      createSandbox({ publicUrl: SANDBOX_URL }),
    ))
  let token: string | undefined
  return {
    name: 'sandbox',
    label: `the sandbox (${SANDBOX_URL}: Ferry in this process, in memory, seeded with the /demo data)`,
    base: new URL(SANDBOX_URL),
    allowsWrites: true,
    async send(path, init) {
      const running = await sandbox()
      const url = new URL(path, SANDBOX_URL)
      // The demo admin's session; an agent client may keep this process for days, past the token's 24 h.
      token ??= running.demo?.token
      const res = await running.fetch(new Request(url, withBearer(init, token)))
      if (res.status !== 401 || new Headers(init.headers).has('authorization')) return res
      const login = await running.request('/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(running.login),
      })
      if (login.status !== 200) return res
      token = ((await login.json()) as { token: string }).token
      return running.fetch(new Request(url, withBearer(init, token)))
    },
    async close() {
      if (starting) await (await starting).close()
    },
  }
}

export class Unreachable extends Error {}

export function serverTarget(url: URL, token: string | undefined, allowWrites: boolean): Target {
  const base = new URL(url.href.endsWith('/') ? url.href : `${url.href}/`)
  return {
    name: 'server',
    label: `the Ferry server at ${url.origin}${url.pathname === '/' ? '' : url.pathname}`,
    base,
    allowsWrites: allowWrites,
    async send(path, init) {
      // A base URL with a path (https://host/ferry/) keeps it: resolve `v1/…` against it.
      const target = new URL(path.replace(/^\//, ''), base)
      try {
        return await fetch(target, { ...withBearer(init, token), signal: AbortSignal.timeout(SERVER_TIMEOUT_MS) })
      } catch (error) {
        const cause =
          error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)
        throw new Unreachable(`cannot reach ${url.origin}: ${cause}`)
      }
    },
  }
}
