/**
 * @module Metadata database on sql.js (SQLite compiled to WebAssembly; browser and Node).
 * Kysely's SqliteDialect drives any database with better-sqlite3's `prepare/all/run` shape,
 * so this file only adapts sql.js to that shape.
 */
import { Kysely, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely'
import initSqlJs, { type Database as SqlJsDatabase, type SqlValue } from 'sql.js'
import { migrate } from '../migrations/migrate.ts'
import type { Database } from '../../core/storage.ts'

export interface WasmDbOptions {
  /** Where sql.js finds `sql-wasm.wasm` (see sql.js `locateFile`). */
  locateFile?: (file: string) => string
  /** The wasm binary itself, when it is already loaded. */
  wasmBinary?: ArrayBuffer | Uint8Array
}

function toSql(value: unknown): SqlValue {
  if (value === undefined || value === null) return null
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value === 'bigint') return Number(value)
  if (typeof value === 'number' || typeof value === 'string' || value instanceof Uint8Array) return value
  throw new TypeError(`unsupported SQL parameter type: ${typeof value}`)
}

/** Adapts one sql.js database to Kysely's `SqliteDatabase`. */
export function adaptSqlJs(db: SqlJsDatabase): SqliteDatabase {
  return {
    close: () => db.close(),
    prepare(sqlText: string): SqliteStatement {
      const probe = db.prepare(sqlText)
      const reader = probe.getColumnNames().length > 0
      probe.free()
      return {
        reader,
        all(parameters) {
          const stmt = db.prepare(sqlText)
          try {
            stmt.bind(parameters.map(toSql))
            const rows: unknown[] = []
            while (stmt.step()) rows.push(stmt.getAsObject())
            return rows
          } finally {
            stmt.free()
          }
        },
        run(parameters) {
          db.run(sqlText, parameters.map(toSql))
          const changes = db.getRowsModified()
          const last = db.exec('SELECT last_insert_rowid()')[0]?.values[0]?.[0]
          return { changes, lastInsertRowid: typeof last === 'number' ? last : 0 }
        },
        iterate(parameters) {
          return this.all(parameters)[Symbol.iterator]() as IterableIterator<unknown>
        },
      }
    },
  }
}

export interface WasmDbHandle {
  db: Kysely<Database>
  /** The whole database as an SQLite file image (for saving it and reopening it with `data`). */
  exportImage(): Uint8Array
}

/** Opens an in-memory sql.js database (optionally from a saved image) and migrates it. */
export async function openWasmDbHandle(options: WasmDbOptions & { data?: Uint8Array } = {}): Promise<WasmDbHandle> {
  const SQL = await initSqlJs({
    ...(options.locateFile ? { locateFile: options.locateFile } : {}),
    ...(options.wasmBinary ? { wasmBinary: options.wasmBinary as ArrayBuffer } : {}),
  })
  const raw = new SQL.Database(options.data)
  raw.run('PRAGMA foreign_keys = ON')
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: adaptSqlJs(raw) }) })
  await migrate(db)
  return {
    db,
    exportImage() {
      const image = raw.export()
      // sql.js reopens the database to export it, which resets every pragma.
      raw.run('PRAGMA foreign_keys = ON')
      return image
    },
  }
}

export async function openWasmDb(options: WasmDbOptions & { data?: Uint8Array } = {}): Promise<Kysely<Database>> {
  return (await openWasmDbHandle(options)).db
}
