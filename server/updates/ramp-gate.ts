/**
 * @module Keeps a gated ramp's evidence flag in step with its health reports. Health reports are
 * the only way evidence arrives or goes, so the flag is written when one is counted (and when a
 * ramp or policy is set, or the version resumed), in that write's transaction; `rolloutAt`
 * derives the hold from it at read time, without timers.
 */
import { reportsByAddressSince } from '../storage/telemetry/health-evidence.ts'
import {
  AGGREGATE_BATCH,
  RAW_HEALTH_DAYS,
  aggregateHealthReports,
  gatedRamps,
} from '../storage/telemetry/health-daily.ts'
import { lockRollout, updateRollout } from '../storage/releases/rollouts.ts'
import type { Db } from '../core/storage.ts'
import type { AddressOutcomes } from '../storage/telemetry/health-evidence.ts'
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
 * Reads the version's counted reports and moves its gate to match. `trx` is the transaction of
 * the write that brought the change (a health report, a new ramp or policy): the gate commits or
 * rolls back with it, and the version row stays locked until then. Returns the change, or `null`
 * when the version has no gate, nothing changed, or its hold is past its deadline (that pause
 * stands until a person resumes).
 */
export async function reviewGate(
  trx: Db,
  versionId: string,
  fallback: FullHealthPolicy,
  now: Date,
): Promise<RampGateEvent | null> {
  const row = await lockRollout(trx, versionId)
  const gate = row ? parseGate(row.ramp_gate) : null
  if (!row || !gate || row.ramp_started_at === null) return null
  const t = now.getTime()
  const tally = tallyReports((await stepEvidence(trx, [row], t)).get(row.id) ?? [], policyOf(row, fallback).policy)
  const open = gateMet(tally, gate)
  if (open === gateOpenAt(row, t)) return null
  const { hold } = rolloutAt(row, t)
  if (open && hold?.expired) return null
  await updateRollout(trx, row.id, gateColumns(row, open, t))
  return {
    type: open ? 'ramp.gate-opened' : 'ramp.gate-closed',
    app: row.app_slug,
    versionId: row.id,
    version: row.version,
    released: open && hold !== null,
    progress: gateProgress(tally, gate),
  }
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
  return since.size ? reportsByAddressSince(db, since) : new Map()
}

/** Where each gated ramp's evidence window opens at `now` (ISO time), for summing its old reports. */
export async function gateWindows(db: Db, now: Date): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>()
  for (const row of await gatedRamps(db)) {
    const at = evidenceSince(row, now.getTime())
    out.set(row.id, at === null ? null : new Date(at).toISOString())
  }
  return out
}

/**
 * Sums health reports of whole UTC days older than `days` into daily rows (server/storage/telemetry/health-daily.ts),
 * gated ramps' too: each keeps raw only the day its evidence window opened, so its evidence reads the same.
 */
export async function sumOldHealthReports(db: Db, now: Date, days = RAW_HEALTH_DAYS, batch = AGGREGATE_BATCH) {
  return aggregateHealthReports(db, now, days, 100, batch, await gateWindows(db, now))
}
