/**
 * @module MSIX: the JSON feed Electron's `autoUpdater` reads when the app runs as an MSIX package
 * (Electron 39+, lib/browser/api/auto-updater/auto-updater-msix.ts), and the `.appinstaller` file
 * Windows App Installer reads for sideloaded installs and their updates.
 *
 * Electron's MSIX updater asks the feed URL with `Accept: application/json`: **204** is "no
 * update", **200** with `{ url, name, notes, pub_date }` offers `url`. It then sends `HEAD` to
 * `url`, follows redirects, and refuses the update unless the final URL's path ends in `.msix` or
 * `.msixbundle`; so the package URL here is a Ferry path ending in the file's own name.
 */
import type { Release, ReleaseFile, Target } from '../updates/offer.ts'
import { jsonAnswer, noUpdate, type Answer } from './answer.ts'
import type { Renderer } from './render.ts'

/** The `.msix` or `.msixbundle` of a release (a bundle first: it serves every architecture in it). */
export const msixOf = (artifacts: ReleaseFile[]) =>
  artifacts.find((a) => a.package_type === 'msixbundle') ?? artifacts.find((a) => a.package_type === 'msix')

/** Ferry's path of an MSIX package: it ends in the file name, as Electron's updater requires. */
export function msixPackagePath(slug: string, versionId: string, file: Pick<ReleaseFile, 'id' | 'file_name'>): string {
  const seg = encodeURIComponent
  return `/v1/apps/${seg(slug)}/msix/files/${seg(versionId)}/${seg(file.id)}/${seg(file.file_name)}`
}

/**
 * The package URL: for a private app, the signed query of the artifact's download link moves to
 * the package path (the package route checks it against that download path).
 */
export function msixPackageUrl(
  base: string,
  slug: string,
  versionId: string,
  file: Pick<ReleaseFile, 'id' | 'file_name'>,
  downloadUrl: string,
): string {
  const query = new URL(downloadUrl).search
  return `${base}${msixPackagePath(slug, versionId, file)}${query}`
}

export const renderMsixFeed: Renderer = async ({ base, files, target, offer }) => {
  const pkg = msixOf(offer?.release.artifacts ?? [])
  if (!offer || !pkg) return noUpdate()
  const { row } = offer.release
  return jsonAnswer({
    url: msixPackageUrl(base, target.app.slug, row.id, pkg, await files.url(row.id, pkg)),
    name: row.version,
    notes: row.changelog,
    pub_date: row.published_at,
  })
}

/**
 * The release an `.appinstaller` file names: the newest one with an MSIX package that every
 * device may run (published, neither paused nor pulled, offered to 100 %). App Installer sends
 * nothing Ferry could bucket a device by, and new installs read the same file.
 */
export function appInstallerRelease(target: Target): Release | undefined {
  return target.releases
    .filter(
      (r) => r.row.pulled_at === null && !r.paused && r.rolloutPercentage >= 100 && msixOf(r.artifacts) !== undefined,
    )
    .at(-1)
}

/** The identity in the package's manifest, which App Installer requires to match exactly. */
export interface MsixIdentity {
  /** `MainPackage` for an `.msix`, `MainBundle` for an `.msixbundle`. */
  kind: 'package' | 'bundle'
  name: string
  publisher: string
  /** Four-part Windows version (`1.4.0.0`). */
  version: string
  /** Only packages carry one. */
  processorArchitecture?: string | undefined
}

/** `UpdateSettings` of an `.appinstaller`, as its schema documents them (namespace `appinstaller/2018`). */
export interface AppInstallerSettings {
  /** `OnLaunch HoursBetweenUpdateChecks`, 0–255. */
  hoursBetweenUpdateChecks: number
  showPrompt: boolean
  /** Only with `showPrompt` (the schema's rule). */
  updateBlocksActivation: boolean
  automaticBackgroundTask: boolean
  forceUpdateFromAnyVersion: boolean
}

export const APP_INSTALLER_NAMESPACE = 'http://schemas.microsoft.com/appx/appinstaller/2018'

const escapeXml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => `&${({ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' } as const)[c as '&']};`,
  )

/**
 * The `.appinstaller` document. `selfUri` is where App Installer fetches it again to look for
 * updates; its `Version` is the package's, so a newer package makes a newer file.
 */
export function appInstallerXml(
  selfUri: string,
  packageUri: string,
  identity: MsixIdentity,
  settings: AppInstallerSettings,
): string {
  const a = (name: string, value: string) => ` ${name}="${escapeXml(value)}"`
  const main = identity.kind === 'bundle' ? 'MainBundle' : 'MainPackage'
  const arch =
    identity.kind === 'package' && identity.processorArchitecture
      ? a('ProcessorArchitecture', identity.processorArchitecture)
      : ''
  const onLaunch =
    `<OnLaunch${a('HoursBetweenUpdateChecks', String(settings.hoursBetweenUpdateChecks))}` +
    `${settings.showPrompt ? a('ShowPrompt', 'true') : ''}${settings.showPrompt && settings.updateBlocksActivation ? a('UpdateBlocksActivation', 'true') : ''}/>`
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<AppInstaller xmlns="${APP_INSTALLER_NAMESPACE}"${a('Version', identity.version)}${a('Uri', selfUri)}>`,
    `  <${main}${a('Name', identity.name)}${a('Publisher', identity.publisher)}${a('Version', identity.version)}${arch}${a('Uri', packageUri)}/>`,
    '  <UpdateSettings>',
    `    ${onLaunch}`,
    ...(settings.automaticBackgroundTask ? ['    <AutomaticBackgroundTask/>'] : []),
    ...(settings.forceUpdateFromAnyVersion ? ['    <ForceUpdateFromAnyVersion>true</ForceUpdateFromAnyVersion>'] : []),
    '  </UpdateSettings>',
    '</AppInstaller>',
    '',
  ].join('\n')
}

export const appInstallerAnswer = (xml: string): Answer => ({
  status: 200,
  headers: { 'content-type': 'application/appinstaller; charset=utf-8', 'cache-control': 'no-store' },
  body: xml,
})
