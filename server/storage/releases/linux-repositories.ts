/**
 * @module The rows behind apt and rpm repositories: each app's signing key, the package metadata
 * read at upload, and one channel's published packages read in one query (one snapshot per index).
 */
import type { Insertable, Selectable } from 'kysely'
import { V_ROLLOUT_COLUMNS } from './rollouts.ts'
import type { AppSigningKeysTable, Db, LinuxPackagesTable, RolloutColumns } from '../../core/storage.ts'

export type SigningKeyRow = Selectable<AppSigningKeysTable>

/** One package of a channel's repository, with its file and the version's rollout state. */
export interface RepositoryPackageRow extends RolloutColumns {
  artifact_id: string
  version_id: string
  kind: 'deb' | 'rpm'
  name: string
  arch: string
  metadata: string
  file_name: string
  size: number
  sha1: string
  sha256: string
  sha512: string
  published_at: string | null
  created_at: string
}

export async function insertLinuxPackages(db: Db, rows: Insertable<LinuxPackagesTable>[]): Promise<void> {
  if (rows.length) await db.insertInto('linux_packages').values(rows).execute()
}

export function findRepositoryApp(db: Db, slug: string) {
  return db
    .selectFrom('apps')
    .select(['slug', 'private', 'team_id', 'name'])
    .where('slug', '=', slug)
    .executeTakeFirst()
}

/**
 * The `kind` packages of published versions of the app on the channel (any platform and arch),
 * neither pulled nor paused; the caller applies rollouts. One statement: one consistent snapshot.
 */
export function repositoryPackages(
  db: Db,
  slug: string,
  channel: string,
  kind: 'deb' | 'rpm',
): Promise<RepositoryPackageRow[]> {
  return db
    .selectFrom('linux_packages as lp')
    .innerJoin('artifacts as art', 'art.id', 'lp.artifact_id')
    .innerJoin('versions as v', 'v.id', 'lp.version_id')
    .innerJoin('apps', 'apps.slug', 'v.app_slug')
    .innerJoin('channels as c', 'c.id', 'v.channel_id')
    .select([
      'lp.artifact_id',
      'lp.version_id',
      'lp.kind',
      'lp.name',
      'lp.arch',
      'lp.metadata',
      'art.file_name',
      'art.size',
      'art.sha1',
      'art.sha256',
      'art.sha512',
      'v.published_at',
      'v.created_at',
      ...V_ROLLOUT_COLUMNS,
    ])
    .where('v.app_slug', '=', slug)
    .where('c.name', '=', channel)
    .where('c.team_id', '=', (eb) => eb.ref('apps.team_id'))
    .where('lp.kind', '=', kind)
    .where('v.published', '=', 1)
    .where('v.pulled_at', 'is', null)
    .where('v.paused_at', 'is', null)
    .orderBy('lp.name')
    .orderBy('v.seq')
    .orderBy('lp.artifact_id')
    .execute()
}

/** Whether the app's team has a channel of that name. */
export async function channelExists(db: Db, teamId: string, channel: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('channels')
      .select('id')
      .where('team_id', '=', teamId)
      .where('name', '=', channel)
      .executeTakeFirst()) !== undefined
  )
}

/** A package file of the app's repository of `kind`, by artifact id and file name. */
export function repositoryFile(db: Db, slug: string, artifactId: string, fileName: string, kind: 'deb' | 'rpm') {
  return db
    .selectFrom('linux_packages as lp')
    .innerJoin('artifacts as art', 'art.id', 'lp.artifact_id')
    .innerJoin('versions as v', 'v.id', 'lp.version_id')
    .select(['art.id', 'art.file_name', 'art.blob_key', 'art.sha256', 'art.size', 'v.published', 'v.pulled_at'])
    .where('v.app_slug', '=', slug)
    .where('lp.artifact_id', '=', artifactId)
    .where('art.file_name', '=', fileName)
    .where('lp.kind', '=', kind)
    .executeTakeFirst()
}

export function signingKeyOf(db: Db, slug: string): Promise<SigningKeyRow | undefined> {
  return db.selectFrom('app_signing_keys').selectAll().where('app_slug', '=', slug).executeTakeFirst()
}

/** Stores the app's key unless another request stored one first; returns the key that holds. */
export async function keepSigningKey(db: Db, row: SigningKeyRow): Promise<SigningKeyRow> {
  await db
    .insertInto('app_signing_keys')
    .values(row)
    .onConflict((oc) => oc.column('app_slug').doNothing())
    .execute()
  const kept = await signingKeyOf(db, row.app_slug)
  if (!kept) throw new Error(`the signing key of ${row.app_slug} vanished while it was stored (app deleted?)`)
  return kept
}
