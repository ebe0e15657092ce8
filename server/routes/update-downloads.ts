/**
 * @module The files updaters download beside their checks: Squirrel.Windows' and Velopack's
 * packages (a redirect to the artifact, signed for private apps) and electron-updater's files
 * (served from the feed's path, public apps only).
 */
import type { Ctx } from '../http/context.ts'
import type { Params } from '../http/validation.ts'
import type { Services } from '../http/services.ts'
import { baseUrl } from '../http/base-url.ts'
import { notFound } from '../core/problem.ts'
import { appOf, publishedPackage, publishedVersionFile, type FeedTarget } from '../storage/releases/update-files.ts'
import { downloadResponse } from '../transfer/artifact-download.ts'
import { downloadUrl } from '../transfer/download-links.ts'

/** The app of `slug`, or a 404. */
export async function findApp(s: Services, slug: string) {
  const app = await appOf(s.db, slug)
  if (!app) throw notFound(`No app with slug ${slug}.`)
  return app
}

/** Redirect to the published artifact of `file` (of `type`) in the feed of channel/platform/arch, signed for private apps. */
export async function packageRedirect(
  s: Services,
  c: Ctx,
  where: FeedTarget & { file: string },
  type: string,
  feed: string,
): Promise<Response> {
  const app = await findApp(s, where.slug)
  const row = await publishedPackage(s.db, where, type, where.file)
  if (!row) throw notFound(`No published package ${where.file} in the ${feed} feed of ${where.slug}.`)
  const location = await downloadUrl(s, baseUrl(s, c.req.url), app, row.id, row.artifact_id)
  return new Response(null, { status: 302, headers: { location, 'cache-control': 'no-store' } })
}

/** Velopack fetches packages beside its feed: a redirect to the artifact. */
export function velopackPackage(s: Services, c: Ctx, { path }: Params<'getVelopackFile'>): Promise<Response> {
  const { app: slug, channel, platform, arch, file } = path
  return packageRedirect(
    s,
    c,
    { slug, channel, platform, arch, file },
    'nupkg',
    `Velopack ${channel}/${platform}/${arch}`,
  )
}

/** Squirrel.Windows fetches packages relative to RELEASES: a redirect to the artifact. */
export function squirrelPackage(s: Services, c: Ctx, { path }: Params<'getSquirrelPackage'>): Promise<Response> {
  const { app: slug, channel, arch, file } = path
  return packageRedirect(s, c, { slug, channel, platform: 'windows', arch, file }, 'nupkg', `${channel}/${arch}`)
}

/** A file of a published version, as electron-updater fetches it relative to its channel file. */
export async function electronUpdaterFile(
  s: Services,
  c: Ctx,
  { path }: Params<'getElectronUpdaterFile'>,
): Promise<Response> {
  const { app: slug, channel, platform, arch, version, file } = path
  const missing = () =>
    notFound(`No file ${file} in the published version ${version} of ${slug} for ${channel}/${platform}/${arch}.`)
  const row = await publishedVersionFile(s.db, { slug, channel, platform, arch }, version, file)
  // Private apps' files are reached through signed links only (their channel files use them).
  if (!row || row.app_private === 1) throw missing()
  return downloadResponse(
    s.blobs,
    {
      id: row.artifact_id,
      fileName: file,
      blobKey: row.blob_key,
      sha256: row.sha256,
      size: row.size,
      isPublic: true,
    },
    {
      range: c.req.header('range'),
      ifNoneMatch: c.req.header('if-none-match'),
      accelPrefix: s.config.accelRedirectPrefix,
    },
  )
}
