/**
 * @module MSIX for Windows App Installer and Electron: the `.appinstaller` file of a public app's
 * channel and architecture (kept in the answer cache like an update check's answer, and read by
 * the fast lane through `cachedAppInstaller`), and the package files at paths ending in their
 * names. (The Electron feed itself is an update check, in update.ts.)
 */
import type { Handlers } from '../http/respond.ts'
import type { Services } from '../http/services.ts'
import type { Params } from '../http/validation.ts'
import type { Answer } from '../protocols/answer.ts'
import type { BlobStore } from '../core/storage.ts'
import { publishedArtifact } from '../storage/releases/msix-packages.ts'
import { conflict, forbidden, HttpProblem, notFound, validationProblem } from '../core/problem.ts'
import { verifySignedPath } from '../auth/signed-links.ts'
import { downloadPath } from '../transfer/download-links.ts'
import { downloadResponse } from '../transfer/artifact-download.ts'
import { blobRangeReader, msixIdentity, MsixManifestError } from '../transfer/signers/msix-manifest.ts'
import { loadTarget, nextChangeAt } from '../updates/offer.ts'
import {
  appInstallerAnswer,
  appInstallerRelease,
  appInstallerXml,
  msixOf,
  msixPackagePath,
  type AppInstallerSettings,
  type MsixIdentity,
} from '../protocols/msix.ts'
import { answerAsSent, sendAnswer, shareAnswer, toResponse } from './answer-response.ts'
import { askingOf, isVary, missedAnswer, readAnswer, type Asking, type CachedLookup } from './update.ts'

/** Identities read, by artifact id (an artifact never changes); the oldest go first past this many. */
const MAX_IDENTITIES = 512

/** The store without its direct URLs: Electron's updater needs the final URL to end in `.msix`, which a presigned one does not. */
function streamedOnly(blobs: BlobStore): BlobStore {
  return {
    open: (key) => blobs.open(key),
    put: (key, data) => blobs.put(key, data),
    get: (key, range) => blobs.get(key, range),
    size: (key) => blobs.size(key),
    delete: (key) => blobs.delete(key),
    list: () => blobs.list(),
    ping: () => blobs.ping(),
  }
}

type AppInstallerInput = Params<'getMsixAppInstaller'>

/** The settings a request asks for; a 400 when they contradict each other. */
function settingsOf(query: AppInstallerInput['query']): AppInstallerSettings {
  const settings: AppInstallerSettings = {
    hoursBetweenUpdateChecks: query.hoursBetweenUpdateChecks ?? 24,
    showPrompt: query.showPrompt ?? false,
    updateBlocksActivation: query.updateBlocksActivation ?? false,
    automaticBackgroundTask: query.automaticBackgroundTask ?? false,
    forceUpdateFromAnyVersion: query.forceUpdateFromAnyVersion ?? false,
  }
  if (settings.updateBlocksActivation && !settings.showPrompt) {
    throw validationProblem([
      {
        field: 'updateBlocksActivation',
        message: 'needs showPrompt=true (App Installer blocks the launch only behind its prompt)',
      },
    ])
  }
  return settings
}

/** The settings that differ from the defaults, in a fixed order: the query of the file's own URL. */
function settingsQuery(settings: AppInstallerSettings): string {
  const params = new URLSearchParams()
  if (settings.hoursBetweenUpdateChecks !== 24)
    params.set('hoursBetweenUpdateChecks', String(settings.hoursBetweenUpdateChecks))
  for (const flag of [
    'showPrompt',
    'updateBlocksActivation',
    'automaticBackgroundTask',
    'forceUpdateFromAnyVersion',
  ] as const) {
    if (settings[flag]) params.set(flag, 'true')
  }
  return params.toString()
}

const appInstallerKey = ({ path }: AppInstallerInput, settings: AppInstallerSettings, base: string) =>
  `appinstaller\n${path.channel}\n${path.arch}\n${settingsQuery(settings)}\n${base}`

export function msixHandlers(s: Services): Pick<Handlers, 'getMsixAppInstaller' | 'getMsixPackage'> & {
  /** The cached App Installer file as sent now; `undefined` when the cache does not hold it. */
  cachedAppInstaller: CachedLookup<'getMsixAppInstaller'>
} {
  const identities = new Map<string, Promise<MsixIdentity>>()
  const identityOf = (artifactId: string, blobKey: string, size: number): Promise<MsixIdentity> => {
    let found = identities.get(artifactId)
    if (!found) {
      found = msixIdentity(blobRangeReader(s.blobs, blobKey), size)
      found.catch(() => identities.delete(artifactId))
      identities.set(artifactId, found)
      if (identities.size > MAX_IDENTITIES) identities.delete(identities.keys().next().value ?? '')
    }
    return found
  }
  const streamed = streamedOnly(s.blobs)

  async function cachedAppInstaller(input: AppInstallerInput, r: Asking): Promise<Answer | undefined> {
    const cache = s.answers
    if (!cache) return undefined
    const key = appInstallerKey(input, settingsOf(input.query), r.base)
    const entry = await readAnswer(cache, input.path.app, key, r)
    if (entry === undefined || isVary(entry) || (entry.until !== undefined && s.now().getTime() >= entry.until)) {
      missedAnswer(input.path.app, key, r)
      return undefined
    }
    return answerAsSent(s, entry, entry.until, r.ifNoneMatch)
  }

  return {
    cachedAppInstaller,
    async getMsixAppInstaller(c, input) {
      const { app: slug, channel, arch } = input.path
      const settings = settingsOf(input.query)
      const r = askingOf(s, c)
      const hit = await cachedAppInstaller(input, r)
      if (hit) return toResponse(hit)
      const generation = await s.answers?.generation(slug)
      const target = await loadTarget(s, slug, channel, 'windows', arch)
      if (!target || target.app.private === 1)
        throw notFound(`No public app ${slug}: App Installer files are served for public apps only.`)
      if (!target.inCatalog)
        throw notFound(`No channel ${channel}, platform windows and arch ${arch} in the team of ${slug}.`)
      const release = appInstallerRelease(target)
      const pkg = release && msixOf(release.artifacts)
      if (!release || !pkg) {
        throw notFound(
          `No published .msix or .msixbundle of ${slug} for ${channel}/windows/${arch} that is rolled out to every device.`,
        )
      }
      let identity: MsixIdentity
      try {
        identity = await identityOf(pkg.id, pkg.blob_key, pkg.size)
      } catch (error) {
        if (!(error instanceof MsixManifestError)) throw error
        throw conflict(
          `${pkg.file_name} of ${slug} ${release.version} cannot be named in an App Installer file: ${error.message}.`,
        )
      }
      const { base } = r
      // The file's own URL, with only the settings that differ from the defaults.
      const query = settingsQuery(settings)
      const seg = encodeURIComponent
      const self = `${base}/v1/apps/${seg(slug)}/msix/${seg(channel)}/${seg(arch)}/app.appinstaller${query ? `?${query}` : ''}`
      const xml = appInstallerXml(self, base + msixPackagePath(slug, release.row.id, pkg), identity, settings)
      const answer = await shareAnswer(s, appInstallerAnswer(xml), true, { slug, channel, platform: 'windows', arch })
      // Cached until the next ramp step, which may change the release rolled out to every device.
      const until = nextChangeAt(target) ?? undefined
      if (s.answers && generation !== undefined) {
        const ttl = until === undefined ? undefined : Math.max(1, until - s.now().getTime())
        const entry = until === undefined ? answer : { ...answer, until }
        await s.answers.set(slug, appInstallerKey(input, settings, base), entry, generation, ttl)
      }
      return sendAnswer(s, answer, until, r.ifNoneMatch)
    },

    async getMsixPackage(c, { path, query }) {
      const { app: slug, version: versionId, artifact: artifactId, file } = path
      const missing = () =>
        notFound(`No published MSIX package ${file} (${artifactId}) in version ${versionId} of ${slug}.`)
      const row = await publishedArtifact(s.db, slug, versionId, artifactId)
      if (!row || row.file_name !== file || (row.package_type !== 'msix' && row.package_type !== 'msixbundle'))
        throw missing()
      if (row.private === 1) {
        const { expires, signature } = query
        if (expires === undefined || signature === undefined) {
          throw new HttpProblem(
            'unauthorized',
            `${file} belongs to a private app: its URL needs the expires and signature the MSIX update answer carries.`,
          )
        }
        if (
          !(await verifySignedPath(
            s.config.jwtSecret,
            downloadPath(slug, versionId, artifactId),
            expires,
            signature,
            s.now(),
          ))
        ) {
          throw forbidden('The signed link is invalid or has expired; ask the update check for a new one.')
        }
      }
      const range = c.req.header('range')
      const res = await downloadResponse(
        streamed,
        {
          id: artifactId,
          fileName: row.file_name,
          blobKey: row.blob_key,
          sha256: row.sha256,
          size: row.size,
          isPublic: row.private === 0,
        },
        { range, ifNoneMatch: c.req.header('if-none-match'), accelPrefix: s.config.accelRedirectPrefix },
      )
      if (res.status === 200) s.downloads.count(versionId)
      return res
    },
  }
}
