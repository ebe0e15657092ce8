/**
 * @module The public endpoints installed apps call: the update check in every updater's
 * protocol, the latest-build link, and Squirrel.Windows packages. Every answer goes through
 * `answer()`: decide (`decideUpdate`: format, target, plan), render per format, cache (performance mode).
 */
import type { SemVer } from 'semver'
import type { CachedAnswer } from '../cache/answer-cache.ts'
import type { Ctx } from '../http/context.ts'
import type { Handlers } from '../http/respond.ts'
import type { Services } from '../http/services.ts'
import { baseUrl } from '../http/base-url.ts'
import { downloadUrl } from '../transfer/download-links.ts'
import { versionQuery } from '../storage/versions.ts'
import { downloadResponse } from '../transfer/artifact-download.ts'
import { notFound, validationProblem } from '../http/problem.ts'
import type { Answer } from '../protocols/answer.ts'
import { toResponse } from './answer-response.ts'
import { appSurrogateKey, edgeAnswer, sharedAnswer, targetSurrogateKey } from '../cache/edge-headers.ts'
import { offeredFiles } from './offered-files.ts'
import { TAURI_ARCHS, TAURI_TARGETS, type UpdaterFormat } from '../protocols/formats.ts'
import { PROTOCOLS, type UpdaterProtocol } from '../protocols/index.ts'
import { decideUpdate, type UpdateDecision } from '../updates/decide.ts'
import { nextChangeAt } from '../updates/offer.ts'
import { OfferLedger } from '../updates/health-evidence.ts'
import { rolloutBucket, inRollout } from '../updates/update-logic.ts'
import { optionalVersionInput, versionInput } from '../http/version-input.ts'

/** Signed links in private apps' answers live 15 minutes; cached answers at most 5. */
const PRIVATE_TTL_MS = 5 * 60 * 1000

interface Check {
  slug: string
  channel: string
  platform: string
  arch: string
  /** The client's version; absent only for Squirrel.Windows feeds fetched without `localVersion`. */
  current: SemVer | undefined
  /** `platform`: the platform's default updater format. */
  format: UpdaterFormat | 'platform'
  /** Counted by telemetry when present. */
  deviceId: string | undefined
  /** Buckets partial rollouts: the device id, else the client's address. */
  deviceKey: string
}

const isVary = (v: CachedAnswer): v is Extract<CachedAnswer, { vary: unknown }> => 'vary' in v

export function updateHandlers(
  s: Services,
): Pick<
  Handlers,
  | 'checkForUpdate'
  | 'getLatestBuild'
  | 'getSquirrelReleases'
  | 'getSquirrelPackage'
  | 'getSquirrelMacUpdate'
  | 'getElectronUpdaterFeed'
  | 'getElectronUpdaterFile'
  | 'getTauriUpdate'
  | 'getVelopackFile'
  | 'getSparkleAppcast'
  | 'getMsixUpdate'
> {
  const decide = async (c: Check) => {
    const decision = await decideUpdate(s, PROTOCOLS, c)
    if (!decision) throw notFound(`No app with slug ${c.slug}.`)
    return decision
  }

  const offers = new OfferLedger(s)
  /** The answer offers a version to a device that named itself: what lets its health reports count. */
  const served = async (req: Ctx, c: Check, a: Answer, until: number | undefined): Promise<Response> => {
    if (a.offered !== undefined && c.deviceId) await offers.record(a.offered, c.deviceId, s.clientIp(req))
    return sent(req, a, until)
  }
  /** The answer with the `Cache-Control` of this moment, or `304` when the client holds it already. */
  const sent = (req: Ctx, a: Answer, until: number | undefined) =>
    toResponse(edgeAnswer(a, s.config.edgeCaching, s.now().getTime(), until, s.header(req, 'if-none-match')))
  /** An answer every device gets alike may be kept by a CDN (public apps only: private ones carry signed links). */
  const share = (
    a: Answer,
    shareable: boolean,
    slug: string,
    target: { channel: string; platform: string; arch: string },
  ) =>
    shareable && s.config.edgeCaching.cacheSeconds > 0
      ? sharedAnswer(a, [appSurrogateKey(slug), targetSurrogateKey(slug, target.channel, target.platform, target.arch)])
      : a

  const count = (c: Check) => {
    if (c.deviceId && c.current) {
      s.telemetry?.record(
        { app: c.slug, version: c.current.raw, channel: c.channel, platform: c.platform, arch: c.arch },
        c.deviceId,
      )
    }
  }

  async function bucketSignature(vary: Array<[string, number]>, deviceKey: string): Promise<string> {
    let sig = ''
    for (const [version, percentage] of vary)
      sig += inRollout(percentage, await rolloutBucket(deviceKey, version)) ? '1' : '0'
    return sig
  }

  async function render(req: Ctx, c: Check, d: UpdateDecision<UpdaterProtocol>): Promise<Answer> {
    const base = baseUrl(s, req.req.url)
    const files = offeredFiles(s, base, d.target.app)
    const rendered = await d.protocol.render({ base, files, target: d.target, current: c.current, offer: d.offer })
    const shared = await share(
      rendered,
      d.vary.length === 0 && d.target.inCatalog && d.target.app.private !== 1,
      c.slug,
      c,
    )
    return d.offer && rendered.status === 200 ? { ...shared, offered: d.offer.release.row.id } : shared
  }

  async function answer(req: Ctx, c: Check): Promise<Response> {
    const cache = s.answers
    if (!cache) {
      const d = await decide(c)
      if (d.target.inCatalog) count(c)
      s.observer.updateCheck(c.format, 'off')
      return served(req, c, await render(req, c, d), nextChangeAt(d.target) ?? undefined)
    }
    const key = `${c.format}\n${c.channel}\n${c.platform}\n${c.arch}\n${c.current?.raw ?? ''}\n${baseUrl(s, req.req.url)}`
    const now = s.now().getTime()
    const fresh = (e: CachedAnswer | undefined) =>
      e !== undefined && (e.until === undefined || now < e.until) ? e : undefined
    const entry = fresh(await cache.get(c.slug, key))
    if (entry !== undefined) {
      if (!isVary(entry)) {
        count(c)
        s.observer.updateCheck(c.format, 'hit')
        return served(req, c, entry, entry.until)
      }
      const exact = fresh(await cache.get(c.slug, `${key}\n${await bucketSignature(entry.vary, c.deviceKey)}`))
      if (exact !== undefined && !isVary(exact)) {
        count(c)
        s.observer.updateCheck(c.format, 'hit')
        return served(req, c, exact, exact.until)
      }
    }
    s.observer.updateCheck(c.format, 'miss')
    const generation = await cache.generation(c.slug)
    const d = await decide(c)
    const t = d.target
    // Neither counted nor cached: a cache hit is counted, so it must stand for an existing target.
    if (!t.inCatalog) return sent(req, await render(req, c, d), undefined)
    count(c)
    const result = await render(req, c, d)
    const vary = d.vary.length ? d.vary : undefined
    // A ramp's next step changes the answer: the entry ends there (on the app's clock, and as a
    // TTL so that it does not linger).
    const until = nextChangeAt(t)
    const untilTtl = until === null ? undefined : Math.max(1, until - now)
    const privateTtl = t.app.private === 1 ? PRIVATE_TTL_MS : undefined
    const ttl = untilTtl === undefined ? privateTtl : Math.min(untilTtl, privateTtl ?? untilTtl)
    const stamp = until === null ? {} : { until }
    if (vary) {
      await cache.set(c.slug, key, { vary, ...stamp }, generation, untilTtl)
      await cache.set(
        c.slug,
        `${key}\n${await bucketSignature(vary, c.deviceKey)}`,
        { ...result, ...stamp },
        generation,
        ttl,
      )
    } else {
      await cache.set(c.slug, key, { ...result, ...stamp }, generation, ttl)
    }
    return served(req, c, result, until ?? undefined)
  }

  const deviceKey = (req: Ctx, deviceId: string | undefined) => deviceId ?? `ip:${s.clientIp(req) ?? 'unknown'}`
  /** Who asks: the device id the updater sent, and the key its rollout bucket is drawn from. */
  const device = (req: Ctx, deviceId: string | undefined) => ({ deviceId, deviceKey: deviceKey(req, deviceId) })

  const findApp = async (slug: string) => {
    const app = await s.db
      .selectFrom('apps')
      .select(['slug', 'private', 'team_id'])
      .where('slug', '=', slug)
      .executeTakeFirst()
    if (!app) throw notFound(`No app with slug ${slug}.`)
    return app
  }

  /** Redirect to the published artifact of `file` (of `type`) in the feed of channel/platform/arch, signed for private apps. */
  async function packageRedirect(
    c: Ctx,
    where: { slug: string; channel: string; platform: string; arch: string; file: string },
    type: string,
    feed: string,
  ) {
    const app = await findApp(where.slug)
    const row = await versionQuery(s.db)
      .where('v.app_slug', '=', where.slug)
      .where('v.published', '=', 1)
      .where('c.name', '=', where.channel)
      .where('p.name', '=', where.platform)
      .where('a.name', '=', where.arch)
      .innerJoin('artifacts as art', 'art.version_id', 'v.id')
      .where('art.package_type', '=', type)
      .where('art.file_name', '=', where.file)
      .select(['art.id as artifact_id'])
      .executeTakeFirst()
    if (!row) throw notFound(`No published package ${where.file} in the ${feed} feed of ${where.slug}.`)
    const location = await downloadUrl(s, baseUrl(s, c.req.url), app, row.id, row.artifact_id)
    return new Response(null, { status: 302, headers: { location, 'cache-control': 'no-store' } })
  }

  return {
    async checkForUpdate(c, { path, query, header }) {
      return answer(c, {
        slug: path.app,
        channel: query.channel,
        platform: query.platform,
        arch: query.arch,
        current: versionInput('version', query.version),
        format: query.format ?? 'platform',
        ...device(c, header['X-Ferry-Device-Id']),
      })
    },

    async getSquirrelMacUpdate(c, { path, query, header }) {
      return answer(c, {
        slug: path.app,
        channel: path.channel,
        platform: 'darwin',
        arch: path.arch,
        current: versionInput('version', query.version),
        format: 'electron-builtin',
        ...device(c, header['X-Ferry-Device-Id']),
      })
    },

    async getMsixUpdate(c, { path, query, header }) {
      return answer(c, {
        slug: path.app,
        channel: path.channel,
        platform: 'windows',
        arch: path.arch,
        current: versionInput('version', query.version),
        format: 'msix',
        ...device(c, header['X-Ferry-Device-Id']),
      })
    },

    async getElectronUpdaterFeed(c, { path, header }) {
      // electron-updater sends a per-install UUID in x-user-staging-id on every request.
      const deviceId = header['X-Ferry-Device-Id'] ?? header['x-user-staging-id']
      return answer(c, {
        slug: path.app,
        channel: path.channel,
        platform: path.platform,
        arch: path.arch,
        current: versionInput('version', path.version),
        format: 'electron-updater',
        ...device(c, deviceId),
      })
    },

    async getElectronUpdaterFile(c, { path }) {
      const { app: slug, channel, platform, arch, version, file } = path
      const missing = () =>
        notFound(`No file ${file} in the published version ${version} of ${slug} for ${channel}/${platform}/${arch}.`)
      const row = await versionQuery(s.db)
        .where('v.app_slug', '=', slug)
        .where('v.published', '=', 1)
        .where('v.version', '=', version)
        .where('c.name', '=', channel)
        .where('p.name', '=', platform)
        .where('a.name', '=', arch)
        .innerJoin('artifacts as art', 'art.version_id', 'v.id')
        .where('art.file_name', '=', file)
        .select(['art.id as artifact_id', 'art.blob_key', 'art.sha256', 'art.size'])
        .executeTakeFirst()
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
    },

    async getVelopackFile(c, { path, query, header }) {
      const { app: slug, channel, platform, arch, file } = path
      if (file.endsWith('.nupkg'))
        return packageRedirect(
          c,
          { slug, channel, platform, arch, file },
          'nupkg',
          `Velopack ${channel}/${platform}/${arch}`,
        )
      if (query.localVersion === undefined)
        throw validationProblem([{ field: 'localVersion', message: 'is required for the feed (Velopack sends it)' }])
      const deviceId = header['X-Ferry-Device-Id'] ?? query.stagingId
      return answer(c, {
        slug,
        channel,
        platform,
        arch,
        current: versionInput('localVersion', query.localVersion),
        format: 'velopack',
        ...device(c, deviceId),
      })
    },

    async getSparkleAppcast(c, { path, query, header }) {
      return answer(c, {
        slug: path.app,
        channel: path.channel,
        platform: path.platform,
        arch: path.arch,
        current: versionInput('version', query.version),
        format: 'sparkle',
        ...device(c, header['X-Ferry-Device-Id']),
      })
    },

    async getTauriUpdate(c, { path, header }) {
      return answer(c, {
        slug: path.app,
        channel: path.channel,
        platform: TAURI_TARGETS[path.target],
        arch: TAURI_ARCHS[path.arch],
        current: versionInput('currentVersion', path.currentVersion),
        format: 'tauri',
        ...device(c, header['X-Ferry-Device-Id']),
      })
    },

    async getSquirrelReleases(c, { path, query, header }) {
      return answer(c, {
        slug: path.app,
        channel: path.channel,
        platform: 'windows',
        arch: path.arch,
        current: optionalVersionInput('localVersion', query.localVersion),
        format: 'squirrel-windows',
        ...device(c, header['X-Ferry-Device-Id']),
      })
    },

    async getLatestBuild(c, { path, query: q }) {
      const slug = path.app
      const base = baseUrl(s, c.req.url)
      const key = `latest\n${q.packageType}\n${q.channel}\n${q.platform}\n${q.arch}\n${base}`
      const cached = await s.answers?.get(slug, key)
      if (cached !== undefined && !isVary(cached)) return sent(c, cached, undefined)
      const generation = await s.answers?.generation(slug)
      const app = await findApp(slug)
      // A pulled version is offered to nobody, new installs included.
      const rows = await versionQuery(s.db)
        .where('v.app_slug', '=', slug)
        .where('v.published', '=', 1)
        .where('v.pulled_at', 'is', null)
        .where('c.name', '=', q.channel)
        .where('p.name', '=', q.platform)
        .where('a.name', '=', q.arch)
        .innerJoin('artifacts as art', 'art.version_id', 'v.id')
        .where('art.package_type', '=', q.packageType)
        .select(['art.id as artifact_id'])
        // A version semver refuses has no key and is never the newest.
        .where('v.version_key', 'is not', null)
        .orderBy('v.version_key', 'desc')
        .orderBy('v.seq', 'desc')
        .orderBy('art.position')
        .limit(1)
        .execute()
      const newest = rows[0]
      if (!newest)
        throw notFound(`No published ${q.packageType} build of ${slug} for ${q.channel}/${q.platform}/${q.arch}.`)
      const redirect: Answer = {
        status: 302,
        headers: {
          location: await downloadUrl(s, base, app, newest.id, newest.artifact_id),
          'cache-control': 'no-store',
        },
        body: '',
      }
      const result = await share(redirect, app.private !== 1, slug, q)
      if (s.answers && generation !== undefined) {
        await s.answers.set(slug, key, result, generation, app.private === 1 ? PRIVATE_TTL_MS : undefined)
      }
      return sent(c, result, undefined)
    },

    /** Squirrel.Windows fetches packages relative to RELEASES: redirect to the artifact, signed for private apps. */
    async getSquirrelPackage(c, { path }) {
      const { app: slug, channel, arch, file } = path
      return packageRedirect(c, { slug, channel, platform: 'windows', arch, file }, 'nupkg', `${channel}/${arch}`)
    },
  }
}
