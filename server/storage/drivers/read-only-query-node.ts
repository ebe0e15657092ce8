/**
 * @module One SQL statement run on Ferry's database so that it cannot change it (`ferry db
 * query`): SQLite opened read-only, so SQLite refuses a write; PostgreSQL in a READ ONLY
 * transaction that is rolled back, on a session whose default is read-only too, with the statement
 * sent alone as a prepared statement (PostgreSQL refuses `…; COMMIT; …` there).
 */
import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'
import { describeUrl } from './database-url.ts'
import { types } from './postgres-node.ts'

export type QueryTarget = { sqliteFile: string } | { postgresUrl: string }

export interface QueryResult {
  columns: string[]
  /** One array per row, its values in `columns`' order. */
  rows: unknown[][]
}

/** The database refused the statement (a write, a syntax error) or could not be opened. */
export class QueryError extends Error {}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error))

export async function readOnlyQuery(target: QueryTarget, statement: string): Promise<QueryResult> {
  return 'sqliteFile' in target
    ? querySqlite(target.sqliteFile, statement)
    : queryPostgres(target.postgresUrl, statement)
}

function querySqlite(file: string, statement: string): QueryResult {
  let db: BetterSqlite3.Database
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true })
  } catch (error) {
    throw new QueryError(`cannot open ${file}: ${reason(error)}`)
  }
  try {
    const prepared = db.prepare(statement)
    if (!prepared.reader) {
      // Run all the same, so that SQLite itself refuses a write on its read-only connection.
      prepared.run()
      return { columns: [], rows: [] }
    }
    const columns = prepared.columns().map((c) => c.name)
    return { columns, rows: prepared.raw(true).all() as unknown[][] }
  } catch (error) {
    throw new QueryError(`SQLite refused the statement: ${reason(error)}`)
  } finally {
    db.close()
  }
}

async function queryPostgres(url: string, statement: string): Promise<QueryResult> {
  const client = new pg.Client({
    connectionString: url,
    options: '-c default_transaction_read_only=on',
    statement_timeout: 15_000,
    connectionTimeoutMillis: 5_000,
    types,
  })
  client.on('error', () => undefined)
  try {
    await client.connect()
  } catch (error) {
    throw new QueryError(`cannot reach PostgreSQL at ${describeUrl(url)}: ${reason(error)}`)
  }
  try {
    await client.query('BEGIN TRANSACTION READ ONLY')
    const result = await client.query<unknown[]>({ name: 'ferry_db_query', text: statement, rowMode: 'array' })
    return { columns: (result.fields ?? []).map((f) => f.name), rows: result.rows }
  } catch (error) {
    throw new QueryError(`PostgreSQL refused the statement: ${reason(error)}`)
  } finally {
    await client.query('ROLLBACK').catch(() => undefined)
    await client.end().catch(() => undefined)
  }
}
