/** @module Migration `0005-version-key`, as existing databases ran it: its name and statements never change. */
import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../dialect.ts'
import { versionKey } from '../releases/version-key.ts'

// The update check reads only the releases above the client's version, by a key the database
// compares bytewise (PostgreSQL's default collation may be a locale's), indexed with the filters.
export const migration0005 = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('versions')
      .addColumn('version_key', dialect === 'postgres' ? sql`text collate "C"` : 'text')
      .execute()
    const { rows } = await sql<{ seq: number; version: string }>`SELECT seq, version FROM versions`.execute(db)
    for (let start = 0; start < rows.length; start += 500) {
      const keyed = rows.slice(start, start + 500).flatMap(({ seq, version }) => {
        const key = versionKey(version)
        return key === null ? [] : [{ seq, key }]
      })
      if (keyed.length === 0) continue
      await sql`UPDATE versions SET version_key = CASE seq ${sql.join(
        keyed.map((r) => sql`WHEN ${r.seq} THEN ${r.key}`),
        sql` `,
      )} END
        WHERE seq IN (${sql.join(keyed.map((r) => r.seq))})`.execute(db)
    }
    await db.schema
      .createIndex('versions_candidates')
      .on('versions')
      .columns(['app_slug', 'channel_id', 'platform_id', 'arch_id', 'published', 'version_key'])
      .execute()
    // The first intermediate and any critical release above a client are found without
    // walking the releases in between (usually few are either; offer.ts's reachableRange).
    for (const flag of ['intermediate', 'critical'] as const) {
      await db.schema
        .createIndex(`versions_${flag}`)
        .on('versions')
        .columns(['app_slug', 'channel_id', 'platform_id', 'arch_id', 'published', 'version_key'])
        .where(sql.ref(flag), '=', sql.lit(1))
        .execute()
    }
    // A prefix of the new index.
    await db.schema.dropIndex('versions_lookup').execute()
  },
})
