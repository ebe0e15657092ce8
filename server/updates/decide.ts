/**
 * @module One update check, decided once: the updater format (asked for, or the platform's), the
 * target loaded as that format needs it, the plan, and whether the answer varies by device. The
 * update route renders and caches the decision; the explain endpoint words it.
 */
import type { SemVer } from 'semver'
import {
  loadTarget,
  partialRolloutsAbove,
  planOffer,
  type Offer,
  type Release,
  type RolloutMode,
  type Target,
  type TargetSource,
  type UpdaterFormat,
} from './offer.ts'
import { isPartial, type PlanNote } from './update-logic.ts'
import { rulesOf } from '../storage/releases/update-rules.ts'
import {
  dependsOnDeviceId,
  firstExpiry,
  ruleOf,
  rulesInForce,
  satisfiesRange,
  withheldBy,
  type DeviceIdentity,
  type Rule,
  type Withheld,
} from './rules.ts'
import { nextChangeAt } from './offer.ts'

/**
 * One update check: read from each updater's request (its format's `read`), decided here, worded by
 * the explain endpoint.
 */
export interface UpdateCheck {
  slug: string
  channel: string
  platform: string
  arch: string
  /** The client's version; absent only for Squirrel.Windows feeds fetched without `localVersion`. */
  current: SemVer | undefined
  /** `platform`: the platform's default updater format. */
  format: UpdaterFormat | 'platform'
  /** The id the device sent, if any: telemetry counts it and its offers are recorded. */
  deviceId?: string | undefined
  /** The device's cohort (`X-Ferry-Cohort`): holds, pins and targeting rules name it. */
  cohort?: string | undefined
  /** The attributes the device declares (`X-Ferry-Attributes`), for targeting conditions. */
  attributes?: Readonly<Record<string, string>> | undefined
  /** A person asked (`X-Ferry-Manual`): a ramp's percentage is skipped, never a rule, pause or pull. */
  manual?: boolean | undefined
  /** Some of the identity above came in headers: a shared cache keyed by URL must not keep the answer. */
  identityInHeaders?: boolean | undefined
  /** Buckets partial rollouts: the device id, else the client's address. */
  deviceKey: string
  /** Explain: every release is loaded, and the planner records here why it passed over each. */
  notes?: Array<PlanNote<Release>>
}

/**
 * An update check as its updater's request states it: the bucket key is drawn later, and only when
 * needed (it may read the client's address).
 */
export type UpdateRequest = Omit<UpdateCheck, 'deviceKey' | 'notes'>

/** What the decision needs to know of each updater format's client (`server/protocols/formats.ts`). */
export interface FormatTraits {
  /** The answer lists releases below the client's version too (Squirrel.Windows' RELEASES). */
  listsOlder: boolean
  /** `client`: the client stages partial rollouts itself from the percentage Ferry sends. */
  rolloutMode: RolloutMode
  /** Whether the client installs an older version: the rollback offered on a pulled one. */
  downgrade: 'always' | 'opt-in' | 'never'
}

export interface UpdateDecision<P extends FormatTraits = FormatTraits> {
  target: Target
  format: UpdaterFormat
  protocol: P
  /** `null`: up to date, or no version was sent. */
  offer: Offer | null
  /**
   * The partial rollouts above the client's version whose bucket the device's key decides, as
   * `[version, percentage]`; empty when every device gets the same answer.
   */
  vary: Array<[string, number]>
  /** The device's own answer: a rule's device list decided it (not cached, not shared). */
  personal: boolean
  /** What the app's rules did: the releases they withheld, and those a manual check lifted to 100 %. */
  ruled: { withheld: Map<string, Withheld>; lifted: Set<string>; pinnedBack: Withheld | null }
  /** Epoch ms at which the answer next changes by the clock (a ramp step, a rule's expiry), or `null`. */
  changesAt: number | null
}

/**
 * Decides a check with each format's `protocols`, or `null` when the app does not exist. The
 * app's rules in force act first: the releases they withhold are taken out of the target (the
 * renderers never see them), a manual check lifts partial rollouts to 100 %, and a pin below the
 * device's version is offered as a downgrade where the updater installs one.
 */
export async function decideUpdate<P extends FormatTraits>(
  s: TargetSource,
  protocols: Record<UpdaterFormat, P>,
  check: UpdateCheck,
): Promise<UpdateDecision<P> | null> {
  const now = s.now().getTime()
  const rules = rulesInForce((await rulesOf(s.db, check.slug)).map(ruleOf), now)
  const pin = pinOf(rules, check)
  const formatOf = (platformFormat: UpdaterFormat) => (check.format === 'platform' ? platformFormat : check.format)
  const everyRelease = (platformFormat: UpdaterFormat) =>
    check.notes !== undefined || protocols[formatOf(platformFormat)].listsOlder || pinnedBelow(pin, check.current)
  const loaded = await loadTarget(
    s,
    check.slug,
    check.channel,
    check.platform,
    check.arch,
    (platformFormat) => (everyRelease(platformFormat) ? undefined : check.current),
    check.current,
  )
  if (!loaded) return null
  const format = formatOf(loaded.defaultFormat)
  const protocol = protocols[format]
  const { current } = check
  const ruled: UpdateDecision['ruled'] = { withheld: new Map(), lifted: new Set(), pinnedBack: null }
  const changesAt = earliest(nextChangeAt(loaded), firstExpiry(rules))
  if (!current) return { target: loaded, format, protocol, offer: null, vary: [], personal: false, ruled, changesAt }
  const target = applyRules(loaded, rules, check, current, ruled)
  const downgrades = protocol.downgrade !== 'never'
  const planned = await planOffer(target, current, check.deviceKey, protocol.rolloutMode, downgrades, check.notes)
  const back = planned || !downgrades ? null : pinnedBack(target, pin, current)
  if (back && pin)
    ruled.pinnedBack = { kind: 'pin', rule: pin, reason: `Cohort ${pin.cohort} is pinned to ${pin.range}` }
  const offer = planned ?? back
  const vary = partialRolloutsAbove(target, current, protocol.rolloutMode).map((r): [string, number] => [
    r.version,
    r.rolloutPercentage,
  ])
  const personal = loaded.releases.some((r) => r.parsed.compare(current) > 0 && dependsOnDeviceId(rules, r.parsed))
  return { target, format, protocol, offer, vary, personal, ruled, changesAt }
}

const earliest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b))

/** The pin of the device's cohort, if one is in force. */
const pinOf = (rules: Rule[], d: DeviceIdentity): Rule | undefined =>
  d.cohort === undefined ? undefined : rules.find((r) => r.kind === 'pin' && r.cohort === d.cohort && r.range !== null)

/** The device runs a version outside its pin: the releases below it are loaded, to pin it back. */
const pinnedBelow = (pin: Rule | undefined, current: SemVer | undefined) =>
  pin?.range != null && current !== undefined && !satisfiesRange(current, pin.range)

/**
 * The target as the rules leave it for this device: withheld releases (and a withheld rollback)
 * taken out, each noted in `ruled.withheld` and `check.notes`; a manual check's partial rollouts
 * at 100 % (never a paused one: it is at 0 %).
 */
function applyRules(
  target: Target,
  rules: Rule[],
  check: UpdateCheck,
  current: SemVer,
  ruled: UpdateDecision['ruled'],
): Target {
  if (rules.length === 0 && !check.manual) return target
  const kept: Release[] = []
  for (const r of target.releases) {
    const withheld = withheldBy(rules, check, current, r)
    if (withheld) {
      ruled.withheld.set(r.row.id, withheld)
      check.notes?.push({ candidate: r, rule: withheld.kind, bucket: null })
      continue
    }
    if (check.manual && isPartial(r.rolloutPercentage) && !r.paused) {
      ruled.lifted.add(r.row.id)
      kept.push({ ...r, rolloutPercentage: 100 })
    } else kept.push(r)
  }
  const rollback = target.rollback && !withheldBy(rules, check, current, target.rollback) ? target.rollback : null
  return { ...target, releases: kept, rollback }
}

/**
 * A device of a pinned cohort that runs a version above its pin: the newest release within the
 * pin below its version that every device may run (100 %, not paused), as a downgrade.
 */
function pinnedBack(target: Target, pin: Rule | undefined, current: SemVer): Offer | null {
  if (!pin || !pinnedBelow(pin, current)) return null
  const below = target.releases.filter((r) => r.parsed.compare(current) < 0 && r.rolloutPercentage >= 100 && !r.paused)
  const newest = below.at(-1)
  return newest ? { release: newest, critical: newest.critical, downgrade: true } : null
}
