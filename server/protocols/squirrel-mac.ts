/**
 * @module Squirrel.Mac, the engine of Electron's built-in `autoUpdater` on macOS:
 * `{ url, name, notes, pub_date }` pointing at a `.zip`, or 204.
 */
import type { ReleaseFile as ArtifactRow } from '../updates/offer.ts'
import { jsonAnswer, noUpdate } from './answer.ts'
import type { Renderer } from './render.ts'

/** The zip Squirrel.Mac installs. */
export const zipOf = (artifacts: ArtifactRow[]) => artifacts.find((a) => a.package_type === 'zip')

export const renderSquirrelMac: Renderer = async ({ files, offer }) => {
  const zip = zipOf(offer?.release.artifacts ?? [])
  // Squirrel.Mac can only install a zip: an offered version without one is not offered.
  if (!offer || !zip) return noUpdate()
  const { row } = offer.release
  return jsonAnswer({
    url: await files.url(row.id, zip),
    name: row.version,
    notes: row.changelog,
    pub_date: row.published_at,
  })
}
