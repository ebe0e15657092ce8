/** @module The health check's database probe: one round trip, which throws when the database does not answer. */
import { sql } from 'kysely'
import type { Db } from '../../core/storage.ts'

export async function pingDatabase(db: Db): Promise<void> {
  await sql`SELECT 1`.execute(db)
}
