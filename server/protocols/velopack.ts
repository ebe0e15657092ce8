/**
 * @module Velopack's HTTP source: the `releases.<channel>.json` feed (`VelopackAssetFeed`) its
 * `UpdateManager` reads (velopack/velopack `src/lib-rust/src/manager.rs`, `sources/http.rs`).
 * Velopack installs the newest `Full` asset above its version and applies the `Delta` assets
 * between its version and that one when it holds its own full package, so the feed lists the
 * offered version's full package and the deltas of every loaded release up to it; with no update
 * it lists nothing. Packages resolve relative to the feed (`<folder>/<FileName>`).
 */
import { isFeedName } from '../../contract/artifact-files.ts'
import type { ReleaseFile as ArtifactRow } from '../updates/offer.ts'
import { jsonAnswer } from './answer.ts'
import type { Release } from '../updates/offer.ts'
import type { Renderer } from './render.ts'

const isDelta = (a: ArtifactRow) => a.file_name.toLowerCase().endsWith('-delta.nupkg')

/** The package id of `<id>-<version>[-…]-full.nupkg` (Velopack's `vpk pack` names). */
function packageId(fileName: string, version: string): string {
  const at = fileName.indexOf(`-${version}`)
  return at > 0 ? fileName.slice(0, at) : fileName.replace(/-(full|delta)\.nupkg$/i, '')
}

function asset(r: Release, a: ArtifactRow, type: 'Full' | 'Delta') {
  return {
    PackageId: packageId(a.file_name, r.version),
    Version: r.version,
    Type: type,
    FileName: a.file_name,
    SHA1: a.sha1.toUpperCase(),
    SHA256: a.sha256,
    Size: a.size,
    NotesMarkdown: r.row.changelog,
    NotesHtml: '',
  }
}

/** Names stored before uploads were checked that Velopack could not fetch are left out. */
const packages = (r: Release) => r.artifacts.filter((a) => a.package_type === 'nupkg' && isFeedName(a.file_name))

/** The full package Velopack installs from a release, if it has one. */
export const fullPackage = (r: Release) => packages(r).find((a) => !isDelta(a))

export const renderVelopack: Renderer = async ({ target, current, offer }) => {
  const full = offer && fullPackage(offer.release)
  if (!offer || !full || !current) return jsonAnswer({ Assets: [] })
  const ceiling = offer.release.parsed
  // Velopack applies every delta above its version in order: list none when some are not loaded.
  const deltas = !target.complete
    ? []
    : target.releases
        .filter((r) => r.parsed.compare(current) > 0 && r.parsed.compare(ceiling) <= 0)
        .flatMap((r) =>
          packages(r)
            .filter(isDelta)
            .map((a) => asset(r, a, 'Delta')),
        )
  return jsonAnswer({ Assets: [...deltas, asset(offer.release, full, 'Full')] })
}
