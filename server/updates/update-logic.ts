/**
 * @module Which version an installed app gets: pure functions over the published versions of
 * one app, channel, platform and architecture (see `checkForUpdate` in the spec).
 */
import semver, { type SemVer } from 'semver'
import { digestHex } from '../core/crypto.ts'
import type { RuleKind } from './rules.ts'

export interface Candidate {
  version: string
  /** The parsed `version`, when the caller has it already (saves parsing per request). */
  parsed?: SemVer
  critical: boolean
  intermediate: boolean
  rolloutPercentage: number
}

/** The device's bucket (0-99) for one version: SHA-256 of `<device key>:<version>`. */
export async function rolloutBucket(deviceKey: string, version: string): Promise<number> {
  const hex = await digestHex('SHA-256', `${deviceKey}:${version}`)
  return parseInt(hex.slice(0, 8), 16) % 100
}

export const inRollout = (percentage: number, bucket: number) => bucket < percentage

/** A partial rollout: offered to some devices, not all, so a device's bucket decides. The one place this is tested. */
export const isPartial = (percentage: number) => percentage > 0 && percentage < 100

export interface Plan<C extends Candidate> {
  target: C
  critical: boolean
}

/**
 * Why the planner passed over or chose a candidate (collected only when asked for, by the
 * explain endpoint): `not-newer` (not above the client), `gate` (above the lowest intermediate),
 * `zero-percent`, `bucket` (the device's bucket is outside a partial rollout), `lower-offer`
 * (a higher candidate is offered), `untrusted-key` (signed by a key the client's version does not
 * trust: key rotation, recorded by `planOffer`), `offered`.
 */
export interface PlanNote<C extends Candidate> {
  candidate: C
  rule: 'offered' | 'not-newer' | 'gate' | 'zero-percent' | 'bucket' | 'lower-offer' | 'untrusted-key' | RuleKind
  /** The device's bucket, when the planner computed one. */
  bucket: number | null
}

/**
 * Chooses the version to offer a client on `current`, or `null` (up to date).
 * - Only versions above `current` count.
 * - The lowest intermediate above `current` is a gate: nothing above it is offered yet.
 * - Among the rest, the highest version whose rollout includes the device is offered.
 * - `critical` if the offered version or any version skipped below it is critical.
 * `bucketOf` is called only for versions rolled out to fewer than 100 %. With `notes`, every
 * candidate gets one note saying which rule decided it (the answer is the same either way).
 */
export function planUpdate<C extends Candidate>(
  current: string | SemVer,
  published: C[],
  bucketOf: (c: C) => number,
  notes?: Array<PlanNote<C>>,
): Plan<C> | null {
  const v = (c: C) => c.parsed ?? c.version
  const above = published.filter((c) => semver.gt(v(c), current)).sort((a, b) => semver.compare(v(a), v(b)))
  const gate = above.findIndex((c) => c.intermediate)
  const pool = gate === -1 ? above : above.slice(0, gate + 1)
  let targetIndex = -1
  for (let i = pool.length - 1; i >= 0; i--) {
    const c = pool[i] as C
    const bucket = isPartial(c.rolloutPercentage) ? bucketOf(c) : null
    if (c.rolloutPercentage >= 100 || (bucket !== null && inRollout(c.rolloutPercentage, bucket))) {
      targetIndex = i
      notes?.push({ candidate: c, rule: 'offered', bucket })
      break
    }
    notes?.push({ candidate: c, rule: bucket === null ? 'zero-percent' : 'bucket', bucket })
  }
  if (notes) {
    for (const c of published) if (!above.includes(c)) notes.push({ candidate: c, rule: 'not-newer', bucket: null })
    for (const c of above.slice(pool.length)) notes.push({ candidate: c, rule: 'gate', bucket: null })
    for (const c of pool.slice(0, Math.max(targetIndex, 0)))
      notes.push({ candidate: c, rule: 'lower-offer', bucket: null })
  }
  if (targetIndex === -1) return null
  const target = pool[targetIndex] as C
  return { target, critical: pool.slice(0, targetIndex + 1).some((c) => c.critical) }
}

/** Precomputes buckets for the versions that need one (WebCrypto digests are async). */
export async function bucketsFor<C extends Candidate>(deviceKey: string, published: C[]): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  for (const c of published) {
    if (isPartial(c.rolloutPercentage) && !out.has(c.version))
      out.set(c.version, await rolloutBucket(deviceKey, c.version))
  }
  return out
}
