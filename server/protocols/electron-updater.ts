/**
 * @module electron-updater's generic provider: the `latest.yml` (`latest-mac.yml`,
 * `latest-linux.yml`, `<channel>.yml`) electron-builder would have written, generated from the
 * stored artifacts. When there is no update the file names the client's own version, which
 * electron-updater reads as "up to date".
 */
import { stringify } from 'yaml'
import { hexToBase64 } from '../core/crypto.ts'
import type { ReleaseFile as ArtifactRow } from '../updates/offer.ts'
import type { Answer } from './answer.ts'
import type { Renderer } from './render.ts'

/**
 * A file's URL in the channel file. Public apps' files are served under the version, as in a
 * static electron-builder folder, so electron-updater finds `<url>.blockmap` and, with its own
 * version put in place of the new one, the installed version's blockmap for a differential
 * download (`Provider.getBlockMapFiles`). Private apps' files are signed download links.
 */
async function fileUrl(input: Parameters<Renderer>[0], versionId: string, a: ArtifactRow): Promise<string> {
  const { base, files, target, offer } = input
  if (target.app.private === 1 || !offer) return files.url(versionId, a)
  const seg = encodeURIComponent
  return `${base}/v1/apps/${seg(target.app.slug)}/electron-updater/${seg(target.channel)}/${seg(target.platform)}/${seg(target.arch)}/files/${seg(offer.release.version)}/${seg(a.file_name)}`
}

/** Installable files, first the one each electron-updater backend looks for (MacUpdater: zip, NSIS: exe, Linux: AppImage). */
const INSTALLABLE = ['zip', 'exe', 'appimage', 'dmg', 'msi', 'deb', 'rpm', 'snap', 'pkg']

const rank = (a: ArtifactRow) => INSTALLABLE.indexOf(a.package_type)

const yamlAnswer = (data: unknown): Answer => ({
  status: 200,
  headers: { 'content-type': 'application/x-yaml; charset=utf-8', 'cache-control': 'no-store' },
  // Quoted strings, as electron-builder writes them: js-yaml (electron-updater's parser) would
  // read a bare releaseDate as a Date and a bare version like 1.10 as a number.
  body: stringify(data, { defaultStringType: 'QUOTE_SINGLE', defaultKeyType: 'PLAIN', lineWidth: 0 }),
})

/** The files electron-updater can install, the one it looks for first. */
export const installableFiles = (artifacts: ArtifactRow[]) =>
  artifacts.filter((a) => rank(a) !== -1).sort((a, b) => rank(a) - rank(b))

export const renderElectronUpdater: Renderer = async (input) => {
  const { current, offer } = input
  const installable = installableFiles(offer?.release.artifacts ?? [])
  if (!offer || installable.length === 0) return yamlAnswer({ version: current?.raw ?? '0.0.0', files: [] })
  const { row, rolloutPercentage } = offer.release
  const files = await Promise.all(
    installable.map(async (a) => ({
      url: await fileUrl(input, row.id, a),
      // electron-updater checks base64 SHA-512, as electron-builder writes it.
      sha512: hexToBase64(a.sha512),
      size: a.size,
    })),
  )
  const first = files[0] as (typeof files)[number]
  return yamlAnswer({
    version: row.version,
    files,
    path: first.url,
    sha512: first.sha512,
    releaseDate: row.published_at,
    ...(row.changelog ? { releaseNotes: row.changelog } : {}),
    ...(rolloutPercentage < 100 ? { stagingPercentage: rolloutPercentage } : {}),
    // Not read by electron-updater itself; apps see it on the UpdateInfo of `update-available`.
    ...(offer.critical ? { critical: true } : {}),
  })
}
