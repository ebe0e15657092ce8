/**
 * Seeds `npm run bench:server -- --catalogue`: one team, app, channel, platform and arch with
 * `count` published versions (one artifact each), inserted with Kysely in batches (uploading
 * them through the API would take far longer than the measurement).
 */
import type { Db } from '../../server/core/storage.ts'
import { versionKey } from '../../server/storage/releases/version-key.ts'

export const CATALOGUE_APP = 'bench-app'

/** The i-th version, ascending with i; every fifth is a release candidate. */
export const catalogueVersion = (i: number) =>
  `${Math.floor(i / 10_000) + 1}.${Math.floor(i / 100) % 100}.${i % 100}${i % 5 === 4 ? '-rc.1' : ''}`

export async function seedCatalogue(db: Db, count: number): Promise<void> {
  const now = new Date().toISOString()
  await db.insertInto('teams').values({ id: 'team_bench', name: 'Bench', created_at: now }).execute()
  await db
    .insertInto('channels')
    .values({ id: 'ch_bench', team_id: 'team_bench', name: 'stable', description: '', created_at: now })
    .execute()
  await db
    .insertInto('platforms')
    .values({ id: 'pl_bench', team_id: 'team_bench', name: 'windows', updater: 'ferry', created_at: now })
    .execute()
  await db.insertInto('archs').values({ id: 'ar_bench', team_id: 'team_bench', name: 'x64', created_at: now }).execute()
  await db
    .insertInto('apps')
    .values({
      slug: CATALOGUE_APP,
      team_id: 'team_bench',
      name: 'Bench',
      description: '',
      private: 0,
      created_at: now,
      updated_at: now,
    })
    .execute()
  const batch = 1000
  for (let start = 0; start < count; start += batch) {
    const ids = Array.from({ length: Math.min(batch, count - start) }, (_, k) => start + k)
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('versions')
        .values(
          ids.map((i) => {
            const version = catalogueVersion(i)
            return {
              id: `ver_${i}`,
              app_slug: CATALOGUE_APP,
              version,
              version_key: versionKey(version),
              channel_id: 'ch_bench',
              platform_id: 'pl_bench',
              arch_id: 'ar_bench',
              changelog: `- Release ${version}`,
              published: 1,
              critical: 0,
              intermediate: 0,
              rollout_percentage: 100,
              created_at: now,
              published_at: now,
            }
          }),
        )
        .execute()
      await trx
        .insertInto('artifacts')
        .values(
          ids.map((i) => ({
            id: `art_${i}`,
            version_id: `ver_${i}`,
            file_name: `Bench-Setup-${catalogueVersion(i)}.exe`,
            package_type: 'exe',
            size: 1024,
            sha1: '0'.repeat(40),
            sha256: '0'.repeat(64),
            sha512: '0'.repeat(128),
            blob_key: `art_${i}`,
            created_at: now,
            position: 0,
          })),
        )
        .execute()
    })
  }
}
