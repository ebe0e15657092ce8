/**
 * @module One update check, decided once: the updater format (asked for, or the platform's), the
 * target loaded as that format needs it, the plan, and whether the answer varies by device. The
 * update route renders and caches the decision; the explain endpoint words it.
 */
import type { SemVer } from 'semver'
import type { UpdaterFormat } from '../protocols/formats.ts'
import { PROTOCOLS, type UpdaterProtocol } from '../protocols/index.ts'
import { loadTarget, partialRolloutsAbove, planOffer, type Offer, type Release, type Target, type TargetSource } from './offer.ts'
import type { PlanNote } from './update-logic.ts'

export interface UpdateCheck {
  slug: string
  channel: string
  platform: string
  arch: string
  /** The client's version; absent only for Squirrel.Windows feeds fetched without `localVersion`. */
  current: SemVer | undefined
  /** `platform`: the platform's default updater format. */
  format: UpdaterFormat | 'platform'
  /** Buckets partial rollouts: the device id, else the client's address. */
  deviceKey: string
  /** Explain: every release is loaded, and the planner records here why it passed over each. */
  notes?: Array<PlanNote<Release>>
}

export interface UpdateDecision {
  target: Target
  format: UpdaterFormat
  protocol: UpdaterProtocol
  /** `null`: up to date, or no version was sent. */
  offer: Offer | null
  /**
   * The partial rollouts above the client's version whose bucket the device's key decides, as
   * `[version, percentage]`; empty when every device gets the same answer.
   */
  vary: Array<[string, number]>
}

/** Decides a check, or `null` when the app does not exist. */
export async function decideUpdate(s: TargetSource, check: UpdateCheck): Promise<UpdateDecision | null> {
  const formatOf = (platformFormat: UpdaterFormat) => (check.format === 'platform' ? platformFormat : check.format)
  const everyRelease = (platformFormat: UpdaterFormat) => check.notes !== undefined || PROTOCOLS[formatOf(platformFormat)].listsOlder
  const target = await loadTarget(s, check.slug, check.channel, check.platform, check.arch,
    (platformFormat) => (everyRelease(platformFormat) ? undefined : check.current), check.current)
  if (!target) return null
  const format = formatOf(target.defaultFormat)
  const protocol = PROTOCOLS[format]
  const { current } = check
  if (!current) return { target, format, protocol, offer: null, vary: [] }
  const offer = await planOffer(target, current, check.deviceKey, protocol.rolloutMode, protocol.downgrade !== 'never', check.notes)
  const vary = partialRolloutsAbove(target, current, protocol.rolloutMode).map((r): [string, number] => [r.version, r.rolloutPercentage])
  return { target, format, protocol, offer, vary }
}
