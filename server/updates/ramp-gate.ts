/**
 * @module Keeps a gated ramp's evidence flag in step with its health reports. Health reports are
 * the only way evidence arrives or goes, so the flag is written when one is counted (and when a
 * ramp is set or resumed); `rolloutAt` derives the hold from it at read time, without timers.
 */
import type { Kysely } from 'kysely'
import { forUpdate } from '../storage/dialect.ts'
import { reportsByAddress } from '../storage/health-evidence.ts'
import type { Database, Db } from '../storage/types.ts'
import type { AddressOutcomes } from '../storage/health-evidence.ts'
import {
  evidenceSince,
  gateColumns,
  gateMet,
  gateOpenAt,
  gateProgress,
  parseGate,
  policyOf,
  rolloutAt,
  tallyReports,
  type FullHealthPolicy,
  type RolloutColumns,
} from './rollout.ts'

/** A gate that opened or closed: what a webhook or log line needs to say so. */
export interface RampGateEvent {
  type: 'ramp.gate-opened' | 'ramp.gate-closed'
  app: string
  versionId: string
  version: string
  /** The gate opened while the ramp held: its next step began now. */
  released: boolean
  /** "12 of 50 installs reported". */
  progress: string
}

/** Told when a gate opens or closes (webhooks may listen); must not block or throw. */
export interface RampEvents {
  emit(event: RampGateEvent): void
}

/**
 * Reads the version's counted reports and moves its gate to match, in one transaction. Returns
 * the change, or `null` when the version has no gate, nothing changed, or its hold is past its
 * deadline (that pause stands until a person resumes).
 */
export async function reviewGate(
  db: Kysely<Database>,
  versionId: string,
  fallback: FullHealthPolicy,
  now: Date,
): Promise<RampGateEvent | null> {
  return db.transaction().execute(async (trx) => {
    const row = await forUpdate(
      trx,
      trx
        .selectFrom('versions')
        .select([
          'id',
          'app_slug',
          'version',
          'rollout_percentage',
          'ramp_steps',
          'ramp_started_at',
          'ramp_paused_seconds',
          'paused_at',
          'pulled_at',
          'ramp_gate',
          'gate_open',
          'gate_closed_seconds',
          'health_max_failure_ratio',
          'health_min_reports',
          'health_min_addresses',
          'health_max_reports_per_address',
        ])
        .where('id', '=', versionId),
    ).executeTakeFirst()
    const gate = row ? parseGate(row.ramp_gate) : null
    if (!row || !gate || row.ramp_started_at === null) return null
    const t = now.getTime()
    const tally = tallyReports((await stepEvidence(trx, [row], t)).get(row.id) ?? [], policyOf(row, fallback).policy)
    const open = gateMet(tally, gate)
    if (open === gateOpenAt(row, t)) return null
    const { hold } = rolloutAt(row, t)
    if (open && hold?.expired) return null
    await trx
      .updateTable('versions')
      .set(gateColumns(row, open, t))
      .where('id', '=', row.id)
      .execute()
    return {
      type: open ? 'ramp.gate-opened' : 'ramp.gate-closed',
      app: row.app_slug,
      versionId: row.id,
      version: row.version,
      released: open && hold !== null,
      progress: gateProgress(tally, gate),
    }
  })
}

/**
 * Each gated ramp's evidence at `now`: the reports, per address, made since its step in force
 * began (so a step's gate never passes on an earlier step's installs). Rows without a gate are left out.
 */
export async function stepEvidence(
  db: Db,
  rows: Array<RolloutColumns & { id: string }>,
  now: number,
): Promise<Map<string, AddressOutcomes[]>> {
  const since = new Map<string, string>()
  for (const r of rows) {
    const at = r.ramp_gate === null ? null : evidenceSince(r, now)
    if (at !== null) since.set(r.id, new Date(at).toISOString())
  }
  return since.size ? reportsByAddress(db, [...since.keys()], since) : new Map()
}
