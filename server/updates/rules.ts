/**
 * @module An app's holds, pins and targeting rules, and which releases they withhold from one
 * device: pure functions over the stored rules (`update_rules`), the device as its check
 * describes it, and the releases loaded. `decideUpdate` applies them before planning.
 */
import semver, { type SemVer } from 'semver'
import type { components } from '../../contract/generated/api.ts'
import type { UpdateRuleRow } from '../storage/releases/update-rules.ts'
import { timestamp } from '../core/time.ts'

export type RuleCondition = components['schemas']['RuleCondition']
type RuleObject = components['schemas']['Rule']

/** What withheld a release, as the explain endpoint names it. */
export type RuleKind = 'hold' | 'pin' | 'targeting'

/** A targeting rule's criteria, as stored (`criteria` JSON). */
export interface TargetCriteria {
  cohorts?: string[]
  devices?: string[]
  deny?: string[]
  conditions?: RuleCondition[]
}

export interface Rule {
  id: string
  kind: UpdateRuleRow['kind']
  cohort: string | null
  range: string | null
  version: string | null
  criteria: TargetCriteria
  reason: string | null
  /** Epoch ms; `null`: the rule never expires. */
  expiresAt: number | null
}

/** Who a device says it is: what rules match on. */
export interface DeviceIdentity {
  deviceId?: string | undefined
  cohort?: string | undefined
  attributes?: Readonly<Record<string, string>> | undefined
}

const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined

function criteriaOf(json: string | null): TargetCriteria {
  if (json === null) return {}
  const parsed: unknown = JSON.parse(json)
  if (typeof parsed !== 'object' || parsed === null) return {}
  const out: TargetCriteria = {}
  const cohorts = strings(Reflect.get(parsed, 'cohorts'))
  const devices = strings(Reflect.get(parsed, 'devices'))
  const deny = strings(Reflect.get(parsed, 'deny'))
  const conditions: unknown = Reflect.get(parsed, 'conditions')
  if (cohorts) out.cohorts = cohorts
  if (devices) out.devices = devices
  if (deny) out.deny = deny
  if (Array.isArray(conditions)) out.conditions = conditions.flatMap(conditionOf)
  return out
}

/** A stored condition (written by `createRule` after the contract checked it), read without a cast. */
function conditionOf(c: unknown): RuleCondition[] {
  if (typeof c !== 'object' || c === null) return []
  const attribute: unknown = Reflect.get(c, 'attribute')
  if (typeof attribute !== 'string') return []
  const equals: unknown = Reflect.get(c, 'equals')
  const range: unknown = Reflect.get(c, 'range')
  const oneOf = strings(Reflect.get(c, 'oneOf'))
  if (typeof equals === 'string') return [{ attribute, equals }]
  if (typeof range === 'string') return [{ attribute, range }]
  return oneOf ? [{ attribute, oneOf }] : []
}

export const ruleOf = (row: UpdateRuleRow): Rule => ({
  id: row.id,
  kind: row.kind,
  cohort: row.cohort,
  range: row.version_range,
  version: row.version,
  criteria: criteriaOf(row.criteria),
  reason: row.reason,
  expiresAt: row.expires_at === null ? null : Date.parse(row.expires_at),
})

/** The rules that act at `now` (not expired). */
export const rulesInForce = (rules: Rule[], now: number): Rule[] =>
  rules.filter((r) => r.expiresAt === null || now < r.expiresAt)

/** Epoch ms at which the first of `rules` expires (an answer they shaped changes then), or `null`. */
export function firstExpiry(rules: Rule[]): number | null {
  let first: number | null = null
  for (const r of rules) if (r.expiresAt !== null && (first === null || r.expiresAt < first)) first = r.expiresAt
  return first
}

/** Semver ranges accept pre-releases: a pin to `2.x` admits `2.1.0-beta.1`. */
const RANGE_OPTIONS = { includePrerelease: true }

export const satisfiesRange = (version: string | SemVer, range: string): boolean =>
  semver.satisfies(version, range, RANGE_OPTIONS)

/** Whether `range` is a semver range Ferry can evaluate. */
export const isRange = (range: string): boolean => semver.validRange(range, RANGE_OPTIONS) !== null

function meets(c: RuleCondition, attributes: Readonly<Record<string, string>> | undefined): boolean {
  const value = attributes?.[c.attribute]
  if (value === undefined) return false
  if (c.equals !== undefined) return value === c.equals
  if (c.oneOf !== undefined) return c.oneOf.includes(value)
  if (c.range !== undefined) return semver.valid(value) !== null && satisfiesRange(value, c.range)
  return false
}

/** Whether a targeting rule lets the device have its version. */
function admits(r: Rule, d: DeviceIdentity): boolean {
  const { cohorts, devices, deny, conditions } = r.criteria
  if (deny && d.deviceId !== undefined && deny.includes(d.deviceId)) return false
  if (cohorts && (d.cohort === undefined || !cohorts.includes(d.cohort))) return false
  if (devices && (d.deviceId === undefined || !devices.includes(d.deviceId))) return false
  return (conditions ?? []).every((c) => meets(c, d.attributes))
}

/** The rule that withholds a release from the device, and why. */
export interface Withheld {
  kind: RuleKind
  rule: Rule
  reason: string
}

const because = (r: Rule) => (r.reason ? `: ${r.reason}` : '.')

/**
 * The rule that withholds `release` (above or below the device's `current`) from the device, or
 * `null` when none does. `rules` are those in force. A hold withholds only releases above
 * `current`; a pin every release outside its range; targeting rules of a version every device
 * none of them admits.
 */
export function withheldBy(
  rules: Rule[],
  d: DeviceIdentity,
  current: SemVer,
  release: { version: string; parsed: SemVer },
): Withheld | null {
  const mine = (r: Rule) => r.cohort === null || r.cohort === d.cohort
  for (const r of rules) {
    if (r.kind === 'hold' && mine(r) && release.parsed.compare(current) > 0)
      return { kind: 'hold', rule: r, reason: `Held for ${r.cohort ?? 'every device'}${because(r)}` }
  }
  for (const r of rules) {
    if (r.kind === 'pin' && r.cohort === d.cohort && r.range !== null && !satisfiesRange(release.parsed, r.range))
      return { kind: 'pin', rule: r, reason: `Cohort ${r.cohort} is pinned to ${r.range}${because(r)}` }
  }
  const targeting = rules.filter(
    (r) => r.kind === 'target' && r.version !== null && semver.eq(r.version, release.parsed),
  )
  const first = targeting[0]
  if (first && !targeting.some((r) => admits(r, d)))
    return { kind: 'targeting', rule: first, reason: `Targeted at other devices than this one${because(first)}` }
  return null
}

/**
 * Whether a rule's verdict on `version` depends on the device id (a device allowlist or
 * denylist): then the answer is the device's own, cached for nobody else.
 */
export const dependsOnDeviceId = (rules: Rule[], version: SemVer): boolean =>
  rules.some(
    (r) =>
      r.kind === 'target' &&
      r.version !== null &&
      semver.eq(r.version, version) &&
      (r.criteria.devices !== undefined || r.criteria.deny !== undefined),
  )

/** A stored rule as the API shows it (its answers and webhook events). */
export function toRule(row: UpdateRuleRow): RuleObject {
  const { criteria } = ruleOf(row)
  return {
    id: row.id,
    kind: row.kind,
    cohort: row.cohort,
    range: row.version_range,
    version: row.version,
    cohorts: criteria.cohorts ?? null,
    devices: criteria.devices ?? null,
    deny: criteria.deny ?? null,
    conditions: criteria.conditions ?? null,
    reason: row.reason,
    expiresAt: row.expires_at === null ? null : timestamp(new Date(row.expires_at)),
    createdAt: timestamp(new Date(row.created_at)),
    createdBy: row.created_by,
  }
}
