/**
 * @module Query builders built once per database handle. Kysely's builders are immutable, so a
 * select with its joins and columns can be built once and filtered per request: building a version
 * row's 37 columns and joins anew cost a version listing about as much CPU as running its SQL.
 */
import type { Db } from '../core/storage.ts'

/** `build(db)`, built on first use for each database handle (a transaction is a handle of its own). */
export function perDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>()
  return (db) => {
    let q = built.get(db)
    if (q === undefined) {
      q = build(db)
      built.set(db, q)
    }
    return q
  }
}
