/**
 * @module The apt index files a channel's `Release` lists (`Packages`, `.gz`, `.xz`), stored when
 * first listed and kept a while after a later `Release` replaces them: apt fetches an index by its
 * hash (`by-hash/SHA256/…`), so a client that read `Release` before an upload still gets the
 * bytes that `Release` promised. Stored compressed files also keep each listing's hashes stable.
 */
import type { Selectable } from 'kysely'
import type { AptIndexFilesTable, Db } from '../../core/storage.ts'

export type AptIndexFile = Omit<Selectable<AptIndexFilesTable>, 'app_slug' | 'channel'>

/** What a listing says of a file: its place and hash, not its bytes. */
export type ListedAptIndexFile = Pick<AptIndexFile, 'binary_arch' | 'file' | 'sha256' | 'size'>

/** The files the channel's `Release` lists now. */
export function listedAptIndexFiles(db: Db, slug: string, channel: string): Promise<ListedAptIndexFile[]> {
  return db
    .selectFrom('apt_index_files')
    .select(['binary_arch', 'file', 'sha256', 'size'])
    .where('app_slug', '=', slug)
    .where('channel', '=', channel)
    .where('replaced_at', 'is', null)
    .execute()
}

/**
 * Records that the channel's `Release` now lists `listed` (by hash): the files of `added` are
 * stored (again listed, if they were before), those listed until now and not any more are
 * replaced at `now`, and those replaced before `forgetBefore` are removed. One transaction of its
 * own, one statement each.
 */
export async function recordAptListing(
  db: Db,
  slug: string,
  channel: string,
  listed: ReadonlyArray<Pick<AptIndexFile, 'binary_arch' | 'sha256'>>,
  added: readonly AptIndexFile[],
  now: string,
  forgetBefore: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (added.length) {
      await trx
        .insertInto('apt_index_files')
        .values(added.map((file) => ({ ...file, app_slug: slug, channel })))
        .onConflict((oc) =>
          oc.columns(['app_slug', 'channel', 'binary_arch', 'sha256']).doUpdateSet({ replaced_at: null }),
        )
        .execute()
    }
    await trx
      .updateTable('apt_index_files')
      .set({ replaced_at: now })
      .where('app_slug', '=', slug)
      .where('channel', '=', channel)
      .where('replaced_at', 'is', null)
      .where((eb) =>
        eb.not(eb.or(listed.map((f) => eb.and([eb('binary_arch', '=', f.binary_arch), eb('sha256', '=', f.sha256)])))),
      )
      .execute()
    await trx
      .deleteFrom('apt_index_files')
      .where('app_slug', '=', slug)
      .where('channel', '=', channel)
      .where('replaced_at', '<', forgetBefore)
      .execute()
  })
}

/** The channel's index file of this architecture and hash: listed now, or replaced at `since` or later. */
export async function aptIndexFileByHash(
  db: Db,
  slug: string,
  channel: string,
  binaryArch: string,
  sha256: string,
  since: string,
): Promise<AptIndexFile | undefined> {
  const row = await db
    .selectFrom('apt_index_files')
    .select(['binary_arch', 'file', 'sha256', 'size', 'body', 'listed_at', 'replaced_at'])
    .where('app_slug', '=', slug)
    .where('channel', '=', channel)
    .where('binary_arch', '=', binaryArch)
    .where('sha256', '=', sha256)
    .where((eb) => eb.or([eb('replaced_at', 'is', null), eb('replaced_at', '>=', since)]))
    .executeTakeFirst()
  // Drivers hand binary columns back as their own Uint8Array subclass (Buffer); the caller wants plain bytes.
  return row && { ...row, body: new Uint8Array(row.body) }
}
