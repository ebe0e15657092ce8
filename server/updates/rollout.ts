/**
 * @module Rollouts that watch themselves: the percentage a version is offered to at a moment,
 * derived from its stored state and a clock (no timers: a ramp's start, its steps, the seconds
 * it spent paused, and the current pause or pull), and the health policy that pauses it.
 */
import type { components } from '../generated/api.ts'

type Schemas = components['schemas']

export type RolloutStep = Schemas['RolloutStep']
export type HealthPolicy = Schemas['HealthPolicy']

/** More than 20 % of reports failed, once 20 devices reported. */
export const DEFAULT_HEALTH_POLICY: HealthPolicy = { maxFailureRatio: 0.2, minReports: 20 }

/** The rollout columns of a version row. */
export interface RolloutColumns {
  rollout_percentage: number
  ramp_steps: string | null
  ramp_started_at: string | null
  ramp_paused_seconds: number
  paused_at: string | null
  pulled_at: string | null
}

export interface RolloutPosition {
  /** The share of devices offered the version now (0 while paused or pulled). */
  percentage: number
  /** The ramp's step in force, `null` before its first step or without a ramp. */
  step: number | null
  /** Epoch ms of the next ramp step, when the ramp runs and has one. */
  nextStepAt: number | null
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

/** Problems with a ramp's steps (the schema already bounds each number), one message per step. */
export function stepProblems(steps: RolloutStep[]): Array<{ pointer: string; message: string }> {
  const out: Array<{ pointer: string; message: string }> = []
  steps.forEach((step, i) => {
    const before = steps[i - 1]
    if (before && step.percentage < before.percentage) {
      out.push({ pointer: `/ramp/steps/${i}/percentage`, message: `must not be below the previous step's ${before.percentage}` })
    }
  })
  return out
}

const ms = (iso: string) => Date.parse(iso)

/**
 * Where a version's rollout stands at `now`. A ramp's clock runs from `ramp_started_at`, less the
 * seconds spent paused; while paused it stands still (and the version is offered to no new device).
 */
export function rolloutAt(row: RolloutColumns, now: number): RolloutPosition {
  const steps = parseSteps(row.ramp_steps)
  const stopped = row.paused_at !== null || row.pulled_at !== null
  if (!steps || row.ramp_started_at === null) return { percentage: stopped ? 0 : row.rollout_percentage, step: null, nextStepAt: null }
  const clockEnd = row.paused_at !== null ? Math.min(now, ms(row.paused_at)) : now
  const origin = ms(row.ramp_started_at) + row.ramp_paused_seconds * 1000
  const elapsed = clockEnd - origin
  let step: number | null = null
  let boundary = 0
  let next: number | null = null
  for (let i = 0; i < steps.length; i++) {
    boundary += (steps[i] as RolloutStep).afterMinutes * 60_000
    if (boundary <= elapsed) step = i
    else {
      next = origin + boundary
      break
    }
  }
  const percentage = step === null ? 0 : (steps[step] as RolloutStep).percentage
  return { percentage: stopped ? 0 : percentage, step, nextStepAt: stopped ? null : next }
}

/** When health reports pause a version: more failed than the policy allows, once enough devices reported. */
export function failsPolicy(reports: number, failed: number, policy: HealthPolicy): boolean {
  return reports >= policy.minReports && failed / reports > policy.maxFailureRatio
}

/** The version's own policy, else the server's. */
export function policyOf(row: { health_max_failure_ratio: number | null; health_min_reports: number | null }, fallback: HealthPolicy): { policy: HealthPolicy; isDefault: boolean } {
  if (row.health_max_failure_ratio === null || row.health_min_reports === null) return { policy: fallback, isDefault: true }
  return { policy: { maxFailureRatio: row.health_max_failure_ratio, minReports: row.health_min_reports }, isDefault: false }
}
