/**
 * @module Tauri v2 updater, dynamic-server form: `{ version, notes, pub_date, url, signature }`
 * or 204. Only a bundle uploaded together with its `<bundle>.sig` is offered.
 */
import type { ReleaseFile as ArtifactRow } from '../updates/offer.ts'
import { jsonAnswer, noUpdate } from './answer.ts'
import type { Renderer } from './render.ts'

/** Bundle types Tauri's bundler signs, in order of preference (macOS, Linux, Windows NSIS, MSI). */
const PREFERENCE = ['tar.gz', 'appimage', 'exe', 'msi', 'zip']

/** The offered release's signed bundle and its signature artifact. */
export function signedBundle(artifacts: ArtifactRow[]): { bundle: ArtifactRow; sig: ArtifactRow } | undefined {
  const sigs = new Map(
    artifacts.filter((a) => a.package_type === 'sig').map((a) => [a.file_name.slice(0, -'.sig'.length), a]),
  )
  const signed = artifacts.filter((a) => a.package_type !== 'sig' && sigs.has(a.file_name))
  const rank = (a: ArtifactRow) => {
    const i = PREFERENCE.indexOf(a.package_type)
    return i === -1 ? PREFERENCE.length : i
  }
  const bundle = signed.sort((a, b) => rank(a) - rank(b))[0]
  return bundle ? { bundle, sig: sigs.get(bundle.file_name) as ArtifactRow } : undefined
}

export const renderTauri: Renderer = async ({ files, offer }) => {
  const signed = offer && signedBundle(offer.release.artifacts)
  if (!offer || !signed) return noUpdate()
  const signature = await files.text(signed.sig)
  if (signature === undefined) throw new Error(`signature blob ${signed.sig.blob_key} is missing`)
  const { row } = offer.release
  return jsonAnswer({
    version: row.version,
    notes: row.changelog,
    pub_date: row.published_at,
    url: await files.url(row.id, signed.bundle),
    signature,
    // Not part of Tauri's schema; apps read it from `update.rawJson.critical`.
    critical: offer.critical,
  })
}
