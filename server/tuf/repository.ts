/**
 * @module What the routes call of an app's TUF repository (`repository-node.ts` builds it in the
 * Node runtime; the in-browser sandbox has none). Root and targets come signed from the team;
 * snapshot and timestamp the server signs with its online key.
 */
import type { Db } from '../core/storage.ts'
import type { TufPublicKey } from '../../contract/tuf-keys.ts'

export interface TufRepository {
  /**
   * The server's online key, which a root must give the snapshot and timestamp roles. Made on
   * first use; call it before a transaction that accepts metadata (which signs with it).
   */
  onlineKey(): Promise<TufPublicKey & { keyid: string }>
  /**
   * A metadata file's JSON text (`N.root.json`, `timestamp.json`, `N.snapshot.json`,
   * `N.targets.json`, or unversioned for the newest), or `undefined`. Reading `timestamp.json`
   * signs a new timestamp (and snapshot) first when the newest is past half its lifetime.
   */
  file(app: string, name: string): Promise<string | undefined>
  /** Checks and stores a root (the first, or the next version signed by the old and new thresholds). */
  acceptRoot(trx: Db, app: string, body: unknown): Promise<{ version: number }>
  /**
   * Checks a targets file against the root and the artifacts the app holds, stores it and signs
   * a new snapshot and timestamp.
   */
  acceptTargets(trx: Db, app: string, body: unknown): Promise<{ version: number; targets: number }>
}

export interface TufOptions {
  db: Db
  now: () => Date
  /** Encrypts the online private key at rest. */
  secret: string
  /** A timestamp's lifetime; the server signs a new one once half of it has passed. */
  timestampSeconds: number
}
