/**
 * @module Rollouts that watch themselves: the percentage a version is offered to at a moment,
 * derived from its stored state and a clock (no timers: a ramp's start, its steps, the seconds
 * it spent paused, and the current pause or pull), and the health policy that pauses it.
 */
import type { components } from '../../contract/generated/api.ts'
import type { RolloutColumns } from '../core/storage.ts'

type Schemas = components['schemas']

export type RolloutStep = Schemas['RolloutStep']
export type HealthPolicy = Schemas['HealthPolicy']
export type RampGate = Required<Schemas['RampGate']>

/** A gated ramp's defaults: 50 installs reported, at most 5 % failed, within 7 days of a hold. */
export const DEFAULT_RAMP_GATE: RampGate = { minInstalls: 50, maxFailureRatio: 0.05, deadlineMinutes: 10_080 }

/** Every member of a health policy, the server's defaults filled in. */
export type FullHealthPolicy = Required<HealthPolicy>

/** More than 20 % of reports failed, once 20 counted, from at least 5 addresses; 5 reports of each outcome per address. */
export const DEFAULT_HEALTH_POLICY: FullHealthPolicy = {
  maxFailureRatio: 0.2,
  minReports: 20,
  minAddresses: 5,
  maxReportsPerAddress: 5,
}

export type { RolloutColumns }

export interface RolloutPosition {
  /** The share of devices offered the version now (0 while paused or pulled). */
  percentage: number
  /** The ramp's step in force, `null` before its first step or without a ramp. */
  step: number | null
  /** Epoch ms of the next ramp step, when the ramp runs and has one. */
  nextStepAt: number | null
  /** A gated ramp waiting for evidence: the step it holds before, since when (epoch ms) and its deadline. */
  hold: { step: number; since: number; deadline: number; expired: boolean } | null
  /** Epoch ms at which the percentage may next change by the clock alone (a step, or a hold's deadline). */
  changesAt: number | null
}

/** Steps as stored; a malformed value (never written by Ferry) reads as no ramp. */
export function parseSteps(json: string | null): RolloutStep[] | null {
  if (json === null) return null
  try {
    const value: unknown = JSON.parse(json)
    if (!Array.isArray(value)) return null
    const steps = value.flatMap((v: unknown) => {
      if (typeof v !== 'object' || v === null) return []
      const percentage: unknown = Reflect.get(v, 'percentage')
      const afterMinutes: unknown = Reflect.get(v, 'afterMinutes')
      return typeof percentage === 'number' && typeof afterMinutes === 'number' ? [{ percentage, afterMinutes }] : []
    })
    return steps.length ? steps : null
  } catch {
    return null
  }
}

/** A gate as stored; a malformed value (never written by Ferry) reads as no gate. */
export function parseGate(json: string | null): RampGate | null {
  if (json === null) return null
  try {
    const v: unknown = JSON.parse(json)
    if (typeof v !== 'object' || v === null) return null
    const [minInstalls, maxFailureRatio, deadlineMinutes]: unknown[] = [
      'minInstalls',
      'maxFailureRatio',
      'deadlineMinutes',
    ].map((k) => Reflect.get(v, k))
    return typeof minInstalls === 'number' && typeof maxFailureRatio === 'number' && typeof deadlineMinutes === 'number'
      ? { minInstalls, maxFailureRatio, deadlineMinutes }
      : null
  } catch {
    return null
  }
}

/** Whether a version's counted reports are the evidence its gate asks for. */
export function gateMet(t: HealthTally, gate: RampGate): boolean {
  return t.reports - t.failed >= gate.minInstalls && (t.reports === 0 || t.failed / t.reports <= gate.maxFailureRatio)
}

/** "12 of 50 installs reported", and the failure share when it is what holds the ramp. */
export function gateProgress(t: HealthTally, gate: RampGate): string {
  const installs = t.reports - t.failed
  const share = t.reports ? t.failed / t.reports : 0
  const failing =
    share > gate.maxFailureRatio
      ? `, ${Math.round(share * 100)} % failed (at most ${Math.round(gate.maxFailureRatio * 100)} % allowed)`
      : ''
  return `${Math.min(installs, gate.minInstalls)} of ${gate.minInstalls} installs reported${failing}`
}

/** Why a gated ramp whose hold passed its deadline reads as paused. */
export function lapsedReason(gate: RampGate, hold: NonNullable<RolloutPosition['hold']>, t: HealthTally): string {
  return `Gated ramp held ${gate.deadlineMinutes} minutes before step ${hold.step + 1} without evidence: ${gateProgress(t, gate)}.`
}

/** Problems with a ramp's steps (the schema already bounds each number), one message per step. */
export function stepProblems(steps: RolloutStep[]): Array<{ pointer: string; message: string }> {
  const out: Array<{ pointer: string; message: string }> = []
  steps.forEach((step, i) => {
    const before = steps[i - 1]
    if (before && step.percentage < before.percentage) {
      out.push({
        pointer: `/ramp/steps/${i}/percentage`,
        message: `must not be below the previous step's ${before.percentage}`,
      })
    }
  })
  return out
}

const ms = (iso: string) => Date.parse(iso)

/**
 * Where a version's rollout stands at `now`. A ramp's clock runs from `ramp_started_at`, less the
 * seconds spent paused; while paused it stands still (and the version is offered to no new device).
 * A gated ramp whose evidence is missing holds before the first step it had not begun when its
 * gate closed: the clock stops there, and past the gate's deadline the version is offered to no
 * new device (an automatic pause derived from the same columns).
 */
export function rolloutAt(row: RolloutColumns, now: number): RolloutPosition {
  const steps = parseSteps(row.ramp_steps)
  const stopped = row.paused_at !== null || row.pulled_at !== null
  if (!steps || row.ramp_started_at === null) {
    return {
      percentage: stopped ? 0 : row.rollout_percentage,
      step: null,
      nextStepAt: null,
      hold: null,
      changesAt: null,
    }
  }
  const clockEnd = row.paused_at !== null ? Math.min(now, ms(row.paused_at)) : now
  const origin = ms(row.ramp_started_at) + row.ramp_paused_seconds * 1000
  const elapsed = clockEnd - origin
  const gate = parseGate(row.ramp_gate)
  const holdFrom = gate ? firstGatedStep(row, steps) : Infinity
  let step: number | null = null
  let boundary = 0
  let next: number | null = null
  let hold: RolloutPosition['hold'] = null
  for (let i = 0; i < steps.length; i++) {
    boundary += (steps[i] as RolloutStep).afterMinutes * 60_000
    if (gate && i >= holdFrom) {
      if (boundary <= elapsed) {
        const since = origin + boundary
        const deadline = since + gate.deadlineMinutes * 60_000
        hold = { step: i, since, deadline, expired: now >= deadline }
      } else next = origin + boundary
      break
    }
    if (boundary <= elapsed) step = i
    else {
      next = origin + boundary
      break
    }
  }
  const percentage = step === null || hold?.expired ? 0 : (steps[step] as RolloutStep).percentage
  const changesAt = stopped || hold?.expired ? null : hold ? hold.deadline : next
  return { percentage: stopped ? 0 : percentage, step, nextStepAt: stopped || hold ? null : next, hold, changesAt }
}

/** Each step's start on the ramp clock (ms). */
const stepStarts = (steps: RolloutStep[]) => {
  let at = 0
  return steps.map((st) => (at += st.afterMinutes * 60_000))
}

/** The step in force at ramp-clock ms `clock`, `null` before the first. */
const stepAtClock = (starts: number[], clock: number): number | null => {
  const i = starts.findLastIndex((b) => b <= clock)
  return i < 0 ? null : i
}

/**
 * The first step a gate holds before. The first step needs no evidence. A closed gate holds the
 * first step that had not begun when it closed; an open one was opened by the evidence of one
 * step, which lets only the step after it begin.
 */
function firstGatedStep(row: Pick<RolloutColumns, 'gate_open' | 'gate_closed_seconds'>, steps: RolloutStep[]): number {
  const starts = stepStarts(steps)
  const changed = row.gate_closed_seconds * 1000
  if (row.gate_open === 1) return Math.max(1, (stepAtClock(starts, changed) ?? -1) + 2)
  const i = starts.findIndex((b, n) => n > 0 && b >= changed)
  return i < 0 ? Infinity : i
}

/**
 * Whether the gate stands open for the step in force at `now`: an open gate counts only for the
 * step whose evidence opened it.
 */
export function gateOpenAt(row: RolloutColumns, now: number): boolean {
  const steps = parseSteps(row.ramp_steps)
  if (row.gate_open !== 1 || !steps) return false
  return stepAtClock(stepStarts(steps), row.gate_closed_seconds * 1000) === rolloutAt(row, now).step
}

/**
 * Epoch ms after which reports are the evidence of the step in force at `now` (while a ramp holds,
 * of the step before the hold): a step's gate counts only installs reported during it. `null`
 * without a ramp.
 */
export function evidenceSince(row: RolloutColumns, now: number): number | null {
  const steps = parseSteps(row.ramp_steps)
  if (!steps || row.ramp_started_at === null) return null
  const { step } = rolloutAt(row, now)
  const started = ms(row.ramp_started_at)
  if (step === null) return started
  // The clock moves in whole seconds, so a step a report released may begin up to a second before
  // that report: a later step's window opens a second into it, leaving the releasing reports to the
  // step before. The first step is started by the ramp itself, so its window opens with it.
  return started + row.ramp_paused_seconds * 1000 + (stepStarts(steps)[step] ?? 0) + (step > 0 ? 1000 : 0)
}

/**
 * The ramp-clock ms of a version at `now` (for writes that open or close its gate): the same
 * clock `rolloutAt` reads, stopped while paused.
 */
export function rampClock(
  row: Pick<RolloutColumns, 'ramp_started_at' | 'ramp_paused_seconds' | 'paused_at'>,
  now: number,
): number {
  if (row.ramp_started_at === null) return 0
  const clockEnd = row.paused_at !== null ? Math.min(now, ms(row.paused_at)) : now
  return clockEnd - (ms(row.ramp_started_at) + row.ramp_paused_seconds * 1000)
}

/**
 * The columns that move a gate to `open` at `now`. Opening records the start of the step whose
 * evidence opened it; opening a held ramp also moves its clock back to the held step's start, so
 * that step begins now. Closing records where the clock stood.
 */
export function gateColumns(
  row: RolloutColumns,
  open: boolean,
  now: number,
): { gate_open: number; gate_closed_seconds: number; ramp_paused_seconds?: number } {
  if (!open) return { gate_open: 0, gate_closed_seconds: Math.max(0, Math.floor(rampClock(row, now) / 1000)) }
  const { step, hold } = rolloutAt(row, now)
  const steps = parseSteps(row.ramp_steps) ?? []
  const opened = {
    gate_open: 1,
    gate_closed_seconds: step === null ? 0 : Math.floor((stepStarts(steps)[step] ?? 0) / 1000),
  }
  if (!hold) return opened
  // The held step's start on the ramp clock is `hold.since` less the clock's origin.
  const heldMs = rampClock(row, now) - (hold.since - (ms(row.ramp_started_at ?? '') + row.ramp_paused_seconds * 1000))
  return { ...opened, ramp_paused_seconds: row.ramp_paused_seconds + Math.max(0, Math.floor(heldMs / 1000)) }
}

/** Reports of one client address on one version, by outcome (before the policy's per-address cap). */
export interface AddressReports {
  installed: number
  failed: number
}

/** What counts of a version's reports under `policy`: each address capped, failing addresses counted. */
export interface HealthTally {
  reports: number
  failed: number
  failedAddresses: number
}

export function tallyReports(byAddress: Iterable<AddressReports>, policy: FullHealthPolicy): HealthTally {
  const cap = policy.maxReportsPerAddress
  let reports = 0
  let failed = 0
  let failedAddresses = 0
  for (const a of byAddress) {
    const f = Math.min(a.failed, cap)
    reports += Math.min(a.installed, cap) + f
    failed += f
    if (f > 0) failedAddresses++
  }
  return { reports, failed, failedAddresses }
}

/** When health reports pause a version: more failed than the policy allows, once enough reports and addresses count. */
export function failsPolicy(t: HealthTally, policy: FullHealthPolicy): boolean {
  return (
    t.reports >= policy.minReports &&
    t.failedAddresses >= policy.minAddresses &&
    t.failed / t.reports > policy.maxFailureRatio
  )
}

/** The policy columns of a version row (`null`: the server's default). */
export interface PolicyColumns {
  health_max_failure_ratio: number | null
  health_min_reports: number | null
  health_min_addresses: number | null
  health_max_reports_per_address: number | null
}

/** The version's own policy, else the server's; members a version leaves out come from the server's. */
export function policyOf(
  row: PolicyColumns,
  fallback: FullHealthPolicy,
): { policy: FullHealthPolicy; isDefault: boolean } {
  if (row.health_max_failure_ratio === null || row.health_min_reports === null)
    return { policy: fallback, isDefault: true }
  return {
    policy: {
      maxFailureRatio: row.health_max_failure_ratio,
      minReports: row.health_min_reports,
      minAddresses: row.health_min_addresses ?? fallback.minAddresses,
      maxReportsPerAddress: row.health_max_reports_per_address ?? fallback.maxReportsPerAddress,
    },
    isDefault: false,
  }
}
