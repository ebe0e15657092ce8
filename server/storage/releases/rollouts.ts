/**
 * @module The SQL of a version's rollout state: the row a pause, resume, pull or gate review locks
 * for the rest of its transaction (`FOR UPDATE` on PostgreSQL; SQLite writes one at a time), and
 * the columns each of them writes.
 */
import type { Updateable } from 'kysely'
import { forUpdate } from '../dialect.ts'
import type { Db, RolloutColumns, VersionsTable } from '../../core/storage.ts'

/** The columns `RolloutColumns` names, for a select. */
export const ROLLOUT_COLUMNS = [
  'rollout_percentage',
  'ramp_steps',
  'ramp_started_at',
  'ramp_paused_seconds',
  'paused_at',
  'pulled_at',
  'ramp_gate',
  'gate_open',
  'gate_closed_seconds',
] as const satisfies ReadonlyArray<keyof RolloutColumns>

/** `ROLLOUT_COLUMNS` of `versions as v`. */
export const V_ROLLOUT_COLUMNS = ROLLOUT_COLUMNS.map((c) => `v.${c}` as const)

/** A version's own health policy columns (`null`: the server's default). */
export const POLICY_COLUMNS = [
  'health_max_failure_ratio',
  'health_min_reports',
  'health_min_addresses',
  'health_max_reports_per_address',
] as const satisfies ReadonlyArray<keyof VersionsTable>

/** `POLICY_COLUMNS` of `versions as v`. */
export const V_POLICY_COLUMNS = POLICY_COLUMNS.map((c) => `v.${c}` as const)

/**
 * A version's rollout and policy columns, locked until the transaction ends; `slug` also checks the
 * version belongs to that app. `undefined` when there is no such version.
 */
export async function lockRollout(db: Db, id: string, slug?: string) {
  let q = db
    .selectFrom('versions')
    .select(['id', 'app_slug', 'version', ...ROLLOUT_COLUMNS, ...POLICY_COLUMNS])
    .where('id', '=', id)
  if (slug !== undefined) q = q.where('app_slug', '=', slug)
  return forUpdate(db, q).executeTakeFirst()
}

/** The rollout columns a pause, resume, pull or gate change writes. */
export type RolloutUpdate = Pick<
  Updateable<VersionsTable>,
  | 'paused_at'
  | 'pause_reason'
  | 'pause_automatic'
  | 'pulled_at'
  | 'pull_reason'
  | 'ramp_paused_seconds'
  | 'health_since'
  | 'gate_open'
  | 'gate_closed_seconds'
>

export async function updateRollout(db: Db, id: string, columns: RolloutUpdate): Promise<void> {
  await db.updateTable('versions').set(columns).where('id', '=', id).execute()
}

/** A version's rollout columns as they stand (no lock), `undefined` without the version. */
export async function rolloutOf(db: Db, id: string): Promise<RolloutColumns | undefined> {
  return db.selectFrom('versions').select(ROLLOUT_COLUMNS).where('id', '=', id).executeTakeFirst()
}
