/**
 * The Ferry a bench script measures: the real Node server in process (127.0.0.1, a free port, a
 * temp data dir, silent logs), and a team signed up on it whose admin creates catalogs and apps.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ServerConfig } from '../server/runtime/config.ts'
import type { RunningServer } from '../server/runtime/node.ts'
import { localServerConfig, startLocalServer } from '../services/ferry-server.ts'

const SIGNUP_KEY = 'bench-signup-key-0123456789'
const ADMIN = { email: 'bench@ferry.test', password: 'bench-password-123' }

export interface BenchOrigin {
  server: RunningServer
  /** Stops the server and removes its data dir. */
  stop(): Promise<void>
}

/** Starts the server with the defaults, bench secrets and `config` on top. */
export async function startBenchOrigin(config: Partial<ServerConfig>): Promise<BenchOrigin> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ferry-bench-'))
  const secrets = { signupKey: SIGNUP_KEY, jwtSecret: 'bench-jwt-secret-0123456789abcdef' }
  const server = await startLocalServer(localServerConfig(dataDir, secrets, config), 1000)
  return {
    server,
    async stop() {
      await server.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

export interface BenchTeam {
  token: string
  /** A request to the server; an answer of 300 or more throws, naming the request. */
  call(path: string, init?: RequestInit): Promise<Response>
  /** A JSON POST as the admin. */
  json(body: unknown): RequestInit
}

/** Signs a team up on the server at `url`, logs its admin in, and creates each of `catalogs`' names. */
export async function benchTeam(url: string, catalogs: Record<'channels' | 'platforms' | 'archs', readonly string[]>) {
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(url + path, init)
    if (res.status >= 300)
      throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${await res.text()}`)
    return res
  }
  const post = (body: unknown, token?: string): RequestInit => ({
    method: 'POST',
    body: JSON.stringify(body),
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'x-ferry-signup-key': SIGNUP_KEY,
    },
  })
  await call('/v1/auth/signup', post({ teamName: 'Bench', name: 'Bench', ...ADMIN }))
  const { token } = (await (await call('/v1/auth/login', post(ADMIN))).json()) as { token: string }
  for (const [kind, names] of Object.entries(catalogs))
    for (const name of names) await call(`/v1/${kind}`, post({ name }, token))
  const team: BenchTeam = { token, call, json: (body) => post(body, token) }
  return team
}
