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
import type { PlanNote } from './update-logic.ts'

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
}

/** Decides a check with each format's `protocols`, or `null` when the app does not exist. */
export async function decideUpdate<P extends FormatTraits>(
  s: TargetSource,
  protocols: Record<UpdaterFormat, P>,
  check: UpdateCheck,
): Promise<UpdateDecision<P> | null> {
  const formatOf = (platformFormat: UpdaterFormat) => (check.format === 'platform' ? platformFormat : check.format)
  const everyRelease = (platformFormat: UpdaterFormat) =>
    check.notes !== undefined || protocols[formatOf(platformFormat)].listsOlder
  const target = await loadTarget(
    s,
    check.slug,
    check.channel,
    check.platform,
    check.arch,
    (platformFormat) => (everyRelease(platformFormat) ? undefined : check.current),
    check.current,
  )
  if (!target) return null
  const format = formatOf(target.defaultFormat)
  const protocol = protocols[format]
  const { current } = check
  if (!current) return { target, format, protocol, offer: null, vary: [] }
  const offer = await planOffer(
    target,
    current,
    check.deviceKey,
    protocol.rolloutMode,
    protocol.downgrade !== 'never',
    check.notes,
  )
  const vary = partialRolloutsAbove(target, current, protocol.rolloutMode).map((r): [string, number] => [
    r.version,
    r.rolloutPercentage,
  ])
  return { target, format, protocol, offer, vary }
}
