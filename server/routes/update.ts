/**
 * @module The public endpoints installed apps call: the update check in every updater's
 * protocol, the latest-build link, and Squirrel.Windows packages. Every answer goes through
 * `answer()`: decide (`decideUpdate`: format, target, plan), render per format, cache (performance
 * mode). `UPDATE_CHECKS` reads each check's request and `cached` serves a cached answer (update
 * checks and the latest-build link), for the handlers here and the Node runtime's fast lane
 * (`update-lane.ts`) alike.
 */
import type { SemVer } from 'semver'
import type { AnswerCache, CachedAnswer } from '../cache/answer-cache.ts'
import type { Ctx } from '../http/context.ts'
import type { Handlers } from '../http/respond.ts'
import type { Services } from '../http/services.ts'
import type { Params } from '../http/validation.ts'
import type { OperationId } from '../http/spec.ts'
import { baseUrl } from '../http/base-url.ts'
import { downloadUrl } from '../transfer/download-links.ts'
import {
  appOf,
  newestBuild,
  publishedPackage,
  publishedVersionFile,
  type FeedTarget,
} from '../storage/releases/update-files.ts'
import { downloadResponse } from '../transfer/artifact-download.ts'
import { HttpProblem, notFound, validationProblem } from '../core/problem.ts'
import type { Answer } from '../protocols/answer.ts'
import { answerAsSent, sendAnswer, shareAnswer, toResponse } from './answer-response.ts'
import { offeredFiles } from './offered-files.ts'
import { TAURI_ARCHS, TAURI_TARGETS, type UpdaterFormat } from '../protocols/formats.ts'
import { PROTOCOLS, type UpdaterProtocol } from '../protocols/index.ts'
import { decideUpdate, type UpdateDecision } from '../updates/decide.ts'
import { nextChangeAt } from '../updates/offer.ts'
import { SingleFlight } from '../cache/answer-flights.ts'
import { OfferLedger } from '../updates/health-evidence.ts'
import { rolloutBucket, inRollout } from '../updates/update-logic.ts'
import { optionalVersionInput, versionInput } from '../http/version-input.ts'

/** Signed links in private apps' answers live 15 minutes; cached answers at most 5. */
const PRIVATE_TTL_MS = 5 * 60 * 1000

/** An update check as its updater asks it. */
export interface Asked {
  slug: string
  channel: string
  platform: string
  arch: string
  /** The client's version; absent only for Squirrel.Windows feeds fetched without `localVersion`. */
  current: SemVer | undefined
  /** `platform`: the platform's default updater format. */
  format: UpdaterFormat | 'platform'
  /** Counted by telemetry when present; else partial rollouts bucket the client's address. */
  deviceId: string | undefined
}

/** What an answer needs of the request besides its parameters. */
export interface Asking {
  /** The base of the answer's absolute URLs (`baseUrl`). */
  base: string
  ifNoneMatch: string | undefined
  /** Read only when needed (no device id, or an offer to record). */
  clientIp: () => string | undefined
  /** A cache read the fast lane made for this very request and found nothing for (`onMiss`): not made again. */
  missed?: string | undefined
  /** Told each cache read that found nothing usable, so that the lane can pass it on to the normal path. */
  onMiss?: (read: string) => void
}

/** A cache read: an app's key. */
const readOf = (app: string, key: string) => `${app}\u0000${key}`

/** The entry of `key` in `app`'s answers, unless the lane read it for this request and found nothing (`r.missed`). */
export const readAnswer = (cache: AnswerCache, app: string, key: string, r: Asking) =>
  r.missed === readOf(app, key) ? Promise.resolve(undefined) : cache.get(app, key)

/** Tells the lane (`r.onMiss`) that `key` of `app` held nothing usable. */
export const missedAnswer = (app: string, key: string, r: Asking) => r.onMiss?.(readOf(app, key))

/** An `Asking` from the Hono context: base URL, `If-None-Match`, client address and the lane's miss. */
export const askingOf = (s: Services, c: Ctx): Asking => ({
  base: baseUrl(s, c.req.url),
  ifNoneMatch: s.header(c, 'if-none-match'),
  clientIp: () => s.clientIp(c),
  missed: s.laneMissed(c),
})

/**
 * An operation's cached answer to a validated request, as sent now (counted like the handler
 * counts a hit); `undefined`, at once or resolved, when it is not a cached answer's request or the
 * cache does not hold it. The request's own 400s are thrown, as the handler throws them.
 */
export type CachedLookup<K extends OperationId> = (
  input: Params<K>,
  r: Asking,
) => Promise<Answer | undefined> | undefined

/** The operations whose answers `answer()` gives (and the answer cache keeps). */
export type CheckOperation =
  | 'checkForUpdate'
  | 'getSquirrelMacUpdate'
  | 'getMsixUpdate'
  | 'getElectronUpdaterFeed'
  | 'getVelopackFile'
  | 'getSparkleAppcast'
  | 'getTauriUpdate'
  | 'getSquirrelReleases'

const CHECKS = {
  checkForUpdate: ({ path, query, header }: Params<'checkForUpdate'>): Asked => ({
    slug: path.app,
    channel: query.channel,
    platform: query.platform,
    arch: query.arch,
    current: versionInput('version', query.version),
    format: query.format ?? 'platform',
    deviceId: header['X-Ferry-Device-Id'],
  }),
  getSquirrelMacUpdate: ({ path, query, header }: Params<'getSquirrelMacUpdate'>): Asked => ({
    slug: path.app,
    channel: path.channel,
    platform: 'darwin',
    arch: path.arch,
    current: versionInput('version', query.version),
    format: 'electron-builtin',
    deviceId: header['X-Ferry-Device-Id'],
  }),
  getMsixUpdate: ({ path, query, header }: Params<'getMsixUpdate'>): Asked => ({
    slug: path.app,
    channel: path.channel,
    platform: 'windows',
    arch: path.arch,
    current: versionInput('version', query.version),
    format: 'msix',
    deviceId: header['X-Ferry-Device-Id'],
  }),
  getElectronUpdaterFeed: ({ path, header }: Params<'getElectronUpdaterFeed'>): Asked => ({
    slug: path.app,
    channel: path.channel,
    platform: path.platform,
    arch: path.arch,
    current: versionInput('version', path.version),
    format: 'electron-updater',
    // electron-updater sends a per-install UUID in x-user-staging-id on every request.
    deviceId: header['X-Ferry-Device-Id'] ?? header['x-user-staging-id'],
  }),
  /** `undefined` for a package (`.nupkg`): a redirect, not a check. */
  getVelopackFile: ({ path, query, header }: Params<'getVelopackFile'>): Asked | undefined => {
    if (path.file.endsWith('.nupkg')) return undefined
    if (query.localVersion === undefined)
      throw validationProblem([{ field: 'localVersion', message: 'is required for the feed (Velopack sends it)' }])
    return {
      slug: path.app,
      channel: path.channel,
      platform: path.platform,
      arch: path.arch,
      current: versionInput('localVersion', query.localVersion),
      format: 'velopack',
      deviceId: header['X-Ferry-Device-Id'] ?? query.stagingId,
    }
  },
  getSparkleAppcast: ({ path, query, header }: Params<'getSparkleAppcast'>): Asked => ({
    slug: path.app,
    channel: path.channel,
    platform: path.platform,
    arch: path.arch,
    current: versionInput('version', query.version),
    format: 'sparkle',
    deviceId: header['X-Ferry-Device-Id'],
  }),
  getTauriUpdate: ({ path, header }: Params<'getTauriUpdate'>): Asked => ({
    slug: path.app,
    channel: path.channel,
    platform: TAURI_TARGETS[path.target],
    arch: TAURI_ARCHS[path.arch],
    current: versionInput('currentVersion', path.currentVersion),
    format: 'tauri',
    deviceId: header['X-Ferry-Device-Id'],
  }),
  getSquirrelReleases: ({ path, query, header }: Params<'getSquirrelReleases'>): Asked => ({
    slug: path.app,
    channel: path.channel,
    platform: 'windows',
    arch: path.arch,
    current: optionalVersionInput('localVersion', query.localVersion),
    format: 'squirrel-windows',
    deviceId: header['X-Ferry-Device-Id'],
  }),
}

/**
 * Each check operation's check from its validated parameters (a 400 thrown as the handler would);
 * `undefined` when this request of the operation is not a check.
 */
export const UPDATE_CHECKS: { [K in CheckOperation]: (input: Params<K>) => Asked | undefined } = CHECKS

export const isVary = (v: CachedAnswer): v is Extract<CachedAnswer, { vary: unknown }> => 'vary' in v

/** The cache key of a check's answer: everything it depends on but the device. */
const keyOf = (a: Asked, base: string) =>
  `${a.format}\n${a.channel}\n${a.platform}\n${a.arch}\n${a.current?.raw ?? ''}\n${base}`

/** `e` unless it is stale at `now` (past its `until`). */
const fresh = (e: CachedAnswer | undefined, now: number) =>
  e !== undefined && (e.until === undefined || now < e.until) ? e : undefined

/** A check's answer as computed on a miss, before it is counted and sent. */
interface Computed {
  /** `false`: no such channel, platform or arch in the app's catalog (not cached, not counted). */
  inCatalog: boolean
  result: Answer
  until: number | undefined
  /** When the answer varies by device: the versions and percentages, and the buckets it was computed for. */
  vary?: Array<[string, number]>
  signature?: string
}

/** The key a device's rollout bucket is drawn from: its id, else the client's address. */
const deviceKeyOf = (a: Asked, r: Asking) => a.deviceId ?? `ip:${r.clientIp() ?? 'unknown'}`

export interface UpdateChecks {
  handlers: Pick<
    Handlers,
    CheckOperation | 'getLatestBuild' | 'getSquirrelReleases' | 'getSquirrelPackage' | 'getElectronUpdaterFile'
  >
  /** The cached answers of the checks (counted as served checks: telemetry, metrics, offers) and of the latest-build link. */
  cached: { [K in CheckOperation | 'getLatestBuild']: CachedLookup<K> }
}

export function updateChecks(s: Services): UpdateChecks {
  const decide = async (a: Asked, r: Asking) => {
    const decision = await decideUpdate(s, PROTOCOLS, { ...a, deviceKey: deviceKeyOf(a, r) })
    if (!decision) throw notFound(`No app with slug ${a.slug}.`)
    return decision
  }

  const offers = new OfferLedger(s)
  /** The answer as sent; one offering a version to a device that named itself lets its health reports count. */
  const served = (a: Asked, r: Asking, answer: Answer, until: number | undefined): Answer | Promise<Answer> => {
    // Without an offer to record, no promise: a cached hit is sent without another turn of the event loop.
    if (answer.offered === undefined || !a.deviceId) return answerAsSent(s, answer, until, r.ifNoneMatch)
    return offers
      .record(answer.offered, a.deviceId, r.clientIp())
      .then(() => answerAsSent(s, answer, until, r.ifNoneMatch))
  }
  const asking = (req: Ctx): Asking => askingOf(s, req)

  const count = (a: Asked, r: Asking) => {
    if (a.deviceId && a.current) {
      s.telemetry?.record(
        { app: a.slug, version: a.current.raw, channel: a.channel, platform: a.platform, arch: a.arch },
        a.deviceId,
        r.clientIp,
      )
    }
  }

  async function bucketSignature(vary: Array<[string, number]>, deviceKey: string): Promise<string> {
    let sig = ''
    for (const [version, percentage] of vary)
      sig += inRollout(percentage, await rolloutBucket(deviceKey, version)) ? '1' : '0'
    return sig
  }

  async function render(r: Asking, a: Asked, d: UpdateDecision<UpdaterProtocol>): Promise<Answer> {
    const files = offeredFiles(s, r.base, d.target.app)
    const rendered = await d.protocol.render({
      base: r.base,
      files,
      target: d.target,
      current: a.current,
      offer: d.offer,
    })
    const shareable = d.vary.length === 0 && d.target.inCatalog && d.target.app.private !== 1
    const shared = await shareAnswer(s, rendered, shareable, a)
    return d.offer && rendered.status === 200 ? { ...shared, offered: d.offer.release.row.id } : shared
  }

  /**
   * The cached answer to `a` as sent now, counted as a served check (telemetry, metrics, offers);
   * `undefined`, with nothing done, when the cache does not hold it.
   */
  async function fromCache(a: Asked, r: Asking): Promise<Answer | undefined> {
    const cache = s.answers
    if (!cache) return undefined
    const key = keyOf(a, r.base)
    const now = s.now().getTime()
    let entry = fresh(await readAnswer(cache, a.slug, key, r), now)
    if (entry !== undefined && isVary(entry))
      entry = fresh(await cache.get(a.slug, `${key}\n${await bucketSignature(entry.vary, deviceKeyOf(a, r))}`), now)
    if (entry === undefined || isVary(entry)) {
      missedAnswer(a.slug, key, r)
      return undefined
    }
    count(a, r)
    asked(cache, a, key, r.base)
    s.observer.updateCheck(a.format, 'hit')
    return served(a, r, entry, entry.until)
  }

  /** Computations of missed answers, shared by the concurrent misses of one answer. */
  const flights = new SingleFlight<Computed>()

  /**
   * Decides and renders the answer to `a`, and caches it (`generation`: read before deciding);
   * neither counted nor sent. Answers outside the catalog are not cached: a cache hit is counted,
   * so it must stand for an existing target.
   */
  async function compute(cache: AnswerCache, a: Asked, r: Asking, key: string, generation: string): Promise<Computed> {
    const now = s.now().getTime()
    const d = await decide(a, r)
    const t = d.target
    const result = await render(r, a, d)
    if (!t.inCatalog) return { inCatalog: false, result, until: undefined }
    const vary = d.vary.length ? d.vary : undefined
    // A ramp's next step changes the answer: the entry ends there (on the app's clock, and as a
    // TTL so that it does not linger).
    const until = nextChangeAt(t)
    const untilTtl = until === null ? undefined : Math.max(1, until - now)
    const privateTtl = t.app.private === 1 ? PRIVATE_TTL_MS : undefined
    const ttl = untilTtl === undefined ? privateTtl : Math.min(untilTtl, privateTtl ?? untilTtl)
    const stamp = until === null ? {} : { until }
    const computed = { inCatalog: true, result, until: until ?? undefined }
    if (!vary) {
      await cache.set(a.slug, key, { ...result, ...stamp }, generation, ttl)
      return computed
    }
    const signature = await bucketSignature(vary, deviceKeyOf(a, r))
    await cache.set(a.slug, key, { vary, ...stamp }, generation, untilTtl)
    await cache.set(a.slug, `${key}\n${signature}`, { ...result, ...stamp }, generation, ttl)
    return { ...computed, vary, signature }
  }

  /** `compute`, shared with the misses of the same answer under way (`flights`). */
  async function computeOnce(cache: AnswerCache, a: Asked, r: Asking): Promise<Computed> {
    const key = keyOf(a, r.base)
    const generation = await cache.generation(a.slug)
    const shared = await flights.run(a.slug, generation, key, () => compute(cache, a, r, key, generation))
    // An answer that varies by device is shared only with devices in the same buckets.
    if (shared.vary && shared.signature !== (await bucketSignature(shared.vary, deviceKeyOf(a, r))))
      return compute(cache, a, r, key, generation)
    return shared
  }

  /** Remembers `a` as asked, to be computed again after a write to its app (`HotAnswers`). */
  const asked = (cache: AnswerCache, a: Asked, key: string, base: string) => {
    // Without the request's address: any device computes the answer, or an answer's buckets.
    s.hotAnswers.asked(a.slug, key, () =>
      computeOnce(cache, a, { base, ifNoneMatch: undefined, clientIp: () => undefined }).catch((error: unknown) => {
        // A 404: the write deleted the app, nothing to compute.
        if (!(error instanceof HttpProblem)) throw error
      }),
    )
  }

  async function answer(req: Ctx, a: Asked): Promise<Response> {
    const r = asking(req)
    const cache = s.answers
    if (!cache) {
      const d = await decide(a, r)
      if (d.target.inCatalog) count(a, r)
      s.observer.updateCheck(a.format, 'off')
      return toResponse(await served(a, r, await render(r, a, d), nextChangeAt(d.target) ?? undefined))
    }
    const hit = await fromCache(a, r)
    if (hit) return toResponse(hit)
    s.observer.updateCheck(a.format, 'miss')
    const computed = await computeOnce(cache, a, r)
    if (!computed.inCatalog) return sendAnswer(s, computed.result, undefined, r.ifNoneMatch)
    count(a, r)
    asked(cache, a, keyOf(a, r.base), r.base)
    return toResponse(await served(a, r, computed.result, computed.until))
  }

  const findApp = async (slug: string) => {
    const app = await appOf(s.db, slug)
    if (!app) throw notFound(`No app with slug ${slug}.`)
    return app
  }

  /** Redirect to the published artifact of `file` (of `type`) in the feed of channel/platform/arch, signed for private apps. */
  async function packageRedirect(c: Ctx, where: FeedTarget & { file: string }, type: string, feed: string) {
    const app = await findApp(where.slug)
    const row = await publishedPackage(s.db, where, type, where.file)
    if (!row) throw notFound(`No published package ${where.file} in the ${feed} feed of ${where.slug}.`)
    const location = await downloadUrl(s, baseUrl(s, c.req.url), app, row.id, row.artifact_id)
    return new Response(null, { status: 302, headers: { location, 'cache-control': 'no-store' } })
  }

  const latestKey = ({ query: q }: Params<'getLatestBuild'>, base: string) =>
    `latest\n${q.packageType}\n${q.channel}\n${q.platform}\n${q.arch}\n${base}`

  /** The cached latest-build redirect as sent now (not counted: it is no update check); `undefined` when not cached. */
  async function latestFromCache(input: Params<'getLatestBuild'>, r: Asking): Promise<Answer | undefined> {
    const cache = s.answers
    if (!cache) return undefined
    const slug = input.path.app
    const key = latestKey(input, r.base)
    const cached = await readAnswer(cache, slug, key, r)
    if (cached === undefined || isVary(cached)) {
      missedAnswer(slug, key, r)
      return undefined
    }
    return answerAsSent(s, cached, undefined, r.ifNoneMatch)
  }

  const check =
    <K extends CheckOperation>(id: K): CachedLookup<K> =>
    (input, r) => {
      const asked = UPDATE_CHECKS[id](input)
      return asked && fromCache(asked, r)
    }
  const cached: UpdateChecks['cached'] = {
    checkForUpdate: check('checkForUpdate'),
    getSquirrelMacUpdate: check('getSquirrelMacUpdate'),
    getMsixUpdate: check('getMsixUpdate'),
    getElectronUpdaterFeed: check('getElectronUpdaterFeed'),
    getVelopackFile: check('getVelopackFile'),
    getSparkleAppcast: check('getSparkleAppcast'),
    getTauriUpdate: check('getTauriUpdate'),
    getSquirrelReleases: check('getSquirrelReleases'),
    getLatestBuild: latestFromCache,
  }

  const handlers: UpdateChecks['handlers'] = {
    checkForUpdate: async (c, input) => answer(c, CHECKS.checkForUpdate(input)),
    getSquirrelMacUpdate: async (c, input) => answer(c, CHECKS.getSquirrelMacUpdate(input)),
    getMsixUpdate: async (c, input) => answer(c, CHECKS.getMsixUpdate(input)),
    getElectronUpdaterFeed: async (c, input) => answer(c, CHECKS.getElectronUpdaterFeed(input)),
    getSparkleAppcast: async (c, input) => answer(c, CHECKS.getSparkleAppcast(input)),
    getTauriUpdate: async (c, input) => answer(c, CHECKS.getTauriUpdate(input)),
    getSquirrelReleases: async (c, input) => answer(c, CHECKS.getSquirrelReleases(input)),

    async getVelopackFile(c, input) {
      const asked = CHECKS.getVelopackFile(input)
      if (asked) return answer(c, asked)
      const { app: slug, channel, platform, arch, file } = input.path
      return packageRedirect(
        c,
        { slug, channel, platform, arch, file },
        'nupkg',
        `Velopack ${channel}/${platform}/${arch}`,
      )
    },
    async getElectronUpdaterFile(c, { path }) {
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
    },

    async getLatestBuild(c, input) {
      const { path, query: q } = input
      const slug = path.app
      const r = asking(c)
      const { base, ifNoneMatch } = r
      const hit = await latestFromCache(input, r)
      if (hit) return toResponse(hit)
      const key = latestKey(input, base)
      const generation = await s.answers?.generation(slug)
      const app = await findApp(slug)
      const target = { slug, channel: q.channel, platform: q.platform, arch: q.arch }
      const newest = await newestBuild(s.db, target, q.packageType)
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
      const result = await shareAnswer(s, redirect, app.private !== 1, target)
      if (s.answers && generation !== undefined) {
        await s.answers.set(slug, key, result, generation, app.private === 1 ? PRIVATE_TTL_MS : undefined)
      }
      return sendAnswer(s, result, undefined, ifNoneMatch)
    },

    /** Squirrel.Windows fetches packages relative to RELEASES: redirect to the artifact, signed for private apps. */
    async getSquirrelPackage(c, { path }) {
      const { app: slug, channel, arch, file } = path
      return packageRedirect(c, { slug, channel, platform: 'windows', arch, file }, 'nupkg', `${channel}/${arch}`)
    },
  }
  return { handlers, cached }
}
