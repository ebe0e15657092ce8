/**
 * The Ferry that tests and benchmarks start in process: the real Node server on a free port of
 * 127.0.0.1, the defaults with the caller's secrets on top, and silent logs.
 */
import { pino } from 'pino'
import { loadConfig, type ServerConfig } from '../server/runtime/config.ts'
import { startServer, type RunningServer } from '../server/runtime/node.ts'

/** The secrets a local server signs up teams and sessions with. */
export interface LocalSecrets {
  signupKey: string
  jwtSecret: string
}

/** A complete server config: the defaults, `secrets`, 127.0.0.1 on a free port, `dataDir`, silent logs, then `overrides`. */
export function localServerConfig(
  dataDir: string,
  secrets: LocalSecrets,
  overrides: Partial<ServerConfig> = {},
): ServerConfig {
  return {
    ...loadConfig({}),
    host: '127.0.0.1',
    port: 0,
    dataDir,
    ...secrets,
    logLevel: 'silent',
    ...overrides,
  }
}

/** Starts the server on `config` with a silent logger; `passwordIterations` keeps sign-ups fast. */
export function startLocalServer(config: ServerConfig, passwordIterations: number): Promise<RunningServer> {
  return startServer({ config, logger: pino({ level: 'silent' }), passwordIterations })
}
