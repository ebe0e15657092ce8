/**
 * @module Metadata database on PostgreSQL (Node only), through Kysely's PostgresDialect over a
 * `pg` pool: bounded connections, a statement timeout, 64-bit integers read as numbers, and a
 * start-up error that says what is wrong when the database cannot be used.
 */
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { describeUrl } from './database-url.ts'
import { migrate } from '../migrations/migrate.ts'
import type { Database } from '../../core/storage.ts'

export interface PostgresOptions {
  /** Connections in the pool (default 10). */
  poolSize?: number
  /** Longest a statement may run before PostgreSQL cancels it (default 15 s). */
  statementTimeoutMs?: number
  /** How long to wait for a connection (default 5 s). */
  connectTimeoutMs?: number
  /** Let the process exit while pooled connections sit idle (tests, one-shot commands). */
  allowExitOnIdle?: boolean
}

const INT8 = 20
// Sizes and counts are int8; every value Ferry stores fits in a double.
export const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
}

/**
 * A small pool of its own for a store beside the database (the login counters): a bounded wait
 * for a connection, the statement timeout, and an idle client's lost server not fatal.
 */
export function openPostgresPool(
  url: string,
  options: { max: number; statementTimeoutMs: number; connectTimeoutMs?: number },
): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max,
    statement_timeout: options.statementTimeoutMs,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
  })
  pool.on('error', () => undefined)
  return pool
}

/** The database did not answer at start: the message names where it was looked for, and why. */
export class PostgresUnreachableError extends Error {}

export async function openPostgresDb(url: string, options: PostgresOptions = {}): Promise<Kysely<Database>> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    statement_timeout: options.statementTimeoutMs ?? 15_000,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    allowExitOnIdle: options.allowExitOnIdle ?? false,
    types,
  })
  // An idle client that loses its server (a restart) must not crash the process.
  pool.on('error', () => undefined)
  // Nor one checked out by Kysely (pg-pool listens only while a client is idle): its queries are
  // rejected (an outage, 503) and the pool drops it on release.
  pool.on('connect', (client) => client.on('error', () => undefined))
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  try {
    await sql`SELECT 1`.execute(db)
  } catch (error) {
    await db.destroy()
    const reason = error instanceof Error ? error.message : String(error)
    throw new PostgresUnreachableError(`cannot reach PostgreSQL at ${describeUrl(url)}: ${reason}`, { cause: error })
  }
  try {
    await migrate(db)
  } catch (error) {
    await db.destroy()
    throw error
  }
  return db
}
