import type { Version } from './sandbox-api'

/** Where a release stands, as its status pill says it. */
export type ReleaseState = 'draft' | 'published' | 'ramping' | 'holding' | 'paused' | 'pulled'

export interface ReleaseStatus {
  state: ReleaseState
  /** The pill's text: `ramping 25 %`, `holding for evidence`, `paused by health`… */
  label: string
  tone: 'neutral' | 'ok' | 'progress' | 'warn' | 'danger'
}

/** One status per version: pulled and paused win over the ramp; a draft is never offered. */
export function releaseStatus(v: Version): ReleaseStatus {
  const { ramp, paused, pulled } = v.rollout
  if (pulled) return { state: 'pulled', label: 'pulled', tone: 'danger' }
  if (paused) return { state: 'paused', label: paused.automatic ? 'paused by health' : 'paused', tone: 'warn' }
  if (!v.published) return { state: 'draft', label: 'draft', tone: 'neutral' }
  if (ramp?.gate?.holding) return { state: 'holding', label: 'holding for evidence', tone: 'progress' }
  if (v.rolloutPercentage < 100)
    return { state: 'ramping', label: `ramping ${v.rolloutPercentage} %`, tone: 'progress' }
  return { state: 'published', label: 'published', tone: 'ok' }
}

/** `1.2.0 (stable, windows/x64)`: how every message and accessible name names a release. */
export const releaseName = (v: Version) => `${v.version} (${v.channel}, ${v.platform}/${v.arch})`

export const formatSize = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`

export const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/** "in 42 min", "in 3 h", "in 2 days" (or "now"): how far off a step is. */
export function fromNow(iso: string, now = Date.now()): string {
  const minutes = Math.round((new Date(iso).getTime() - now) / 60_000)
  if (minutes <= 0) return 'now'
  if (minutes < 90) return `in ${minutes} min`
  if (minutes < 48 * 60) return `in ${Math.round(minutes / 60)} h`
  return `in ${Math.round(minutes / 1440)} days`
}
