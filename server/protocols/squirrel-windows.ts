/**
 * @module Squirrel.Windows `RELEASES`: `SHA1 filename size` per `.nupkg` (full and delta),
 * oldest first, with ` # N%` when the version is rolled out to fewer than 100 % (Squirrel
 * stages the device itself). When the client sent its version, the feed ends at the version
 * Ferry offers it, so intermediate versions gate Squirrel exactly as they gate other clients.
 */
import { isFeedName, squirrelVersionOf } from '../../contract/artifact-files.ts'
import type { Release } from '../updates/offer.ts'
import type { Renderer } from './render.ts'

export function releasesLines(releases: Release[]): string[] {
  const lines: string[] = []
  for (const r of releases) {
    if (r.rolloutPercentage === 0) continue
    // A name Squirrel would misread (stored before uploads were checked) is left out, not the whole feed.
    const packages = r.artifacts
      .filter(
        (a) => a.package_type === 'nupkg' && isFeedName(a.file_name) && squirrelVersionOf(a.file_name) === r.version,
      )
      .sort((a, b) => a.file_name.localeCompare(b.file_name))
    for (const a of packages) {
      lines.push(
        `${a.sha1.toUpperCase()} ${a.file_name} ${a.size}${r.rolloutPercentage < 100 ? ` # ${r.rolloutPercentage}%` : ''}`,
      )
    }
  }
  return lines
}

export const renderSquirrelWindows: Renderer = async ({ target, current, offer }) => {
  if (target.above)
    throw new Error(
      'Squirrel.Windows RELEASES needs every release: load the target without releasesAbove (PROTOCOLS[format].listsOlder)',
    )
  const ceiling = offer?.release.parsed ?? current
  const listed = ceiling ? target.releases.filter((r) => r.parsed.compare(ceiling) <= 0) : target.releases
  const lines = releasesLines(listed)
  return {
    status: 200,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    body: lines.length ? `${lines.join('\n')}\n` : '',
  }
}
