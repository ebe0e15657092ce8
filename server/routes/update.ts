/**
 * @module The public endpoints installed apps call: the update check in every updater's protocol
 * and the latest-build link. A check is read by its format's object (`UPDATE_CHECKS`, from
 * `server/protocols/index.ts`), then answered by `answerCheck`: from the answer cache
 * (`fromCache`), or decided (`decideUpdate`), rendered in its format, cached and counted. `cached`
 * serves cached answers to the Node runtime's fast lane (`update-lane.ts`) as the handlers do.
 * The files updaters download beside their checks are in `update-downloads.ts`.
 */
import type { AnswerCache, CachedAnswer } from '../cache/answer-cache.ts'
import { SingleFlight } from '../cache/answer-flights.ts'
import type { Ctx } from '../http/context.ts'
import type { Handlers } from '../http/respond.ts'
import type { Services } from '../http/services.ts'
import type { Params } from '../http/validation.ts'
import type { OperationId } from '../http/spec.ts'
import { baseUrl } from '../http/base-url.ts'
import { HttpProblem, notFound, validationProblem } from '../core/problem.ts'
import { versionInput } from '../http/version-input.ts'
import type { Answer } from '../protocols/answer.ts'
import { FORMATS, type UpdaterFormat } from '../protocols/formats.ts'
import { identityKey } from '../protocols/identity.ts'
import { PROTOCOLS, UPDATERS, type RequestReading, type UpdaterProtocol } from '../protocols/index.ts'
import { newestBuild } from '../storage/releases/update-files.ts'
import { downloadUrl } from '../transfer/download-links.ts'
import { decideUpdate, type UpdateDecision, type UpdateRequest } from '../updates/decide.ts'
import { OfferLedger } from '../updates/health-evidence.ts'
import type { Target } from '../updates/offer.ts'
import { inRollout, rolloutBucket } from '../updates/update-logic.ts'
import { answerAsSent, sendAnswer, shareAnswer, toResponse } from './answer-response.ts'
import { offeredFiles } from './offered-files.ts'
import { electronUpdaterFile, findApp, squirrelPackage, velopackPackage } from './update-downloads.ts'

/** Signed links in private apps' answers live 15 minutes; cached answers at most 5. */
const PRIVATE_TTL_MS = 5 * 60 * 1000

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

/** The operations of the updater formats' checks, whose answers `answerCheck` gives (and the answer cache keeps). */
export type CheckOperation = (typeof FORMATS)[UpdaterFormat]['operation']

/** How the formats' readers report a bad request: 400s naming the member. */
export const reading: RequestReading = {
  version: versionInput,
  invalid: (field, message) => validationProblem([{ field, message }]),
}

/** Reads a validated request of operation `K` into the check it asks; `undefined` when it asks none. */
type CheckReader<K extends CheckOperation> = (input: Params<K>) => UpdateRequest | undefined

/** The reader of a format's operation; it compiles only when the format's `read` takes that operation's parameters. */
const readerOf =
  <K extends CheckOperation, R extends UpdateRequest | undefined>(format: {
    operation: K
    read: (input: NoInfer<Params<K>>, reading: RequestReading) => R
  }) =>
  (input: Params<K>): R =>
    format.read(input, reading)

/**
 * Each check operation's check from its validated parameters (a 400 thrown as the handler would);
 * `undefined` when this request of the operation is not a check.
 */
export const UPDATE_CHECKS = {
  // Keyed by each format's own operation: a reader cannot be filed under another format's.
  [UPDATERS.ferry.operation]: readerOf(UPDATERS.ferry),
  [UPDATERS['electron-builtin'].operation]: readerOf(UPDATERS['electron-builtin']),
  [UPDATERS.msix.operation]: readerOf(UPDATERS.msix),
  [UPDATERS['electron-updater'].operation]: readerOf(UPDATERS['electron-updater']),
  [UPDATERS.velopack.operation]: readerOf(UPDATERS.velopack),
  [UPDATERS.sparkle.operation]: readerOf(UPDATERS.sparkle),
  [UPDATERS.tauri.operation]: readerOf(UPDATERS.tauri),
  [UPDATERS['squirrel-windows'].operation]: readerOf(UPDATERS['squirrel-windows']),
} satisfies { [K in CheckOperation]: CheckReader<K> }

/** `UPDATE_CHECKS` as one mapped type, so that an operation's reader can be taken by a generic id. */
const CHECK_READERS: { [K in CheckOperation]: CheckReader<K> } = UPDATE_CHECKS

export const isVary = (v: CachedAnswer): v is Extract<CachedAnswer, { vary: unknown }> => 'vary' in v

// ---- Cache keys and lifetimes

/** The cache key of a check's answer: everything it depends on but the device. */
const keyOf = (a: UpdateRequest, base: string) =>
  `${a.format}\n${a.channel}\n${a.platform}\n${a.arch}\n${a.current?.raw ?? ''}\n${base}${identityKey(a)}`

/** The cache key of the answer for the devices in the rollout buckets `signature` (`bucketSignature`). */
const bucketKeyOf = (key: string, signature: string) => `${key}\n${signature}`

/** The cache key of a latest-build redirect. */
const latestKeyOf = ({ query: q }: Params<'getLatestBuild'>, base: string) =>
  `latest\n${q.packageType}\n${q.channel}\n${q.platform}\n${q.arch}\n${base}`

/** `e` unless it is stale at `now` (past its `until`). */
const fresh = (e: CachedAnswer | undefined, now: number) =>
  e !== undefined && (e.until === undefined || now < e.until) ? e : undefined

/** How long a target's cached answers hold. */
interface Lifetime {
  /** A ramp's next step changes the answer: the entry ends there (on the app's clock); `null`: no step ahead. */
  until: number | null
  /** Milliseconds to that step, so that the entry does not linger in a cache that expires entries. */
  untilTtl: number | undefined
  /** The answer's TTL: also at most `PRIVATE_TTL_MS` for a private app (its signed links expire). */
  ttl: number | undefined
}

function lifetimeOf(t: Target, changesAt: number | null, now: number): Lifetime {
  const until = changesAt
  const untilTtl = until === null ? undefined : Math.max(1, until - now)
  const privateTtl = t.app.private === 1 ? PRIVATE_TTL_MS : undefined
  const ttl = untilTtl === undefined ? privateTtl : Math.min(untilTtl, privateTtl ?? untilTtl)
  return { until, untilTtl, ttl }
}

// ---- Devices

/** The key a device's rollout bucket is drawn from: its id, else the client's address. */
const deviceKeyOf = (a: UpdateRequest, r: Asking) => a.deviceId ?? `ip:${r.clientIp() ?? 'unknown'}`

/** Which of the partial rollouts `vary` the device of `deviceKey` is in, as `1`s and `0`s. */
async function bucketSignature(vary: Array<[string, number]>, deviceKey: string): Promise<string> {
  let sig = ''
  for (const [version, percentage] of vary)
    sig += inRollout(percentage, await rolloutBucket(deviceKey, version)) ? '1' : '0'
  return sig
}

// ---- Deciding, rendering, counting

/** What the update check keeps between requests: the services, the offers recorded, the computations under way. */
interface Checks {
  s: Services
  offers: OfferLedger
  /** Computations of missed answers, shared by the concurrent misses of one answer. */
  flights: SingleFlight<Computed>
}

/** A check's answer as computed on a miss, before it is counted and sent. */
interface Computed {
  /** `false`: no such channel, platform or arch in the app's catalog (not cached, not counted). */
  inCatalog: boolean
  result: Answer
  until: number | undefined
  /** When the answer varies by device: the versions and percentages, and the buckets it was computed for. */
  vary?: Array<[string, number]>
  signature?: string
  /** The device's own answer (a rule's device list decided it): not cached, shared with no other device. */
  personalTo?: string
}

async function decide(s: Services, a: UpdateRequest, r: Asking): Promise<UpdateDecision<UpdaterProtocol>> {
  const decision = await decideUpdate(s, PROTOCOLS, { ...a, deviceKey: deviceKeyOf(a, r) })
  if (!decision) throw notFound(`No app with slug ${a.slug}.`)
  return decision
}

/** The decision in its format, marked for CDNs when every device gets it alike, with the version it offers. */
async function render(s: Services, r: Asking, a: UpdateRequest, d: UpdateDecision<UpdaterProtocol>): Promise<Answer> {
  const files = offeredFiles(s, r.base, d.target.app)
  const rendered = await d.protocol.render({
    base: r.base,
    files,
    target: d.target,
    current: a.current,
    offer: d.offer,
  })
  // A cohort, attributes or manual flag sent in headers is not in the URL a shared cache keys on.
  const shareable =
    d.vary.length === 0 && !d.personal && !a.identityInHeaders && d.target.inCatalog && d.target.app.private !== 1
  const shared = await shareAnswer(s, rendered, shareable, a)
  return d.offer && rendered.status === 200 ? { ...shared, offered: d.offer.release.row.id } : shared
}

/** Telemetry counts a check from a device that named itself. */
function count(s: Services, a: UpdateRequest, r: Asking): void {
  if (a.deviceId && a.current) {
    s.telemetry?.record(
      { app: a.slug, version: a.current.raw, channel: a.channel, platform: a.platform, arch: a.arch },
      a.deviceId,
      r.clientIp,
    )
  }
}

/** The answer as sent; one offering a version to a device that named itself lets its health reports count. */
function served(
  k: Checks,
  a: UpdateRequest,
  r: Asking,
  answer: Answer,
  until: number | undefined,
): Answer | Promise<Answer> {
  // Without an offer to record, no promise: a cached hit is sent without another turn of the event loop.
  if (answer.offered === undefined || !a.deviceId) return answerAsSent(k.s, answer, until, r.ifNoneMatch)
  return k.offers
    .record(answer.offered, a.deviceId, r.clientIp())
    .then(() => answerAsSent(k.s, answer, until, r.ifNoneMatch))
}

// ---- The answer cache

/**
 * The cached answer to `a` as sent now, counted as a served check (telemetry, metrics, offers);
 * `undefined`, with nothing done, when the cache does not hold it.
 */
async function fromCache(k: Checks, a: UpdateRequest, r: Asking): Promise<Answer | undefined> {
  const { s } = k
  const cache = s.answers
  if (!cache) return undefined
  const key = keyOf(a, r.base)
  const now = s.now().getTime()
  let entry = fresh(await readAnswer(cache, a.slug, key, r), now)
  if (entry !== undefined && isVary(entry))
    entry = fresh(await cache.get(a.slug, bucketKeyOf(key, await bucketSignature(entry.vary, deviceKeyOf(a, r)))), now)
  if (entry === undefined || isVary(entry)) {
    missedAnswer(a.slug, key, r)
    return undefined
  }
  count(s, a, r)
  rememberAsked(k, cache, a, key, r.base)
  s.observer.updateCheck(a.format, 'hit')
  return served(k, a, r, entry, entry.until)
}

/**
 * Decides and renders the answer to `a`, and caches it (`generation`: read before deciding);
 * neither counted nor sent. Answers outside the catalog are not cached: a cache hit is counted,
 * so it must stand for an existing target.
 */
async function compute(
  k: Checks,
  cache: AnswerCache,
  a: UpdateRequest,
  r: Asking,
  key: string,
  generation: string,
): Promise<Computed> {
  const now = k.s.now().getTime()
  const d = await decide(k.s, a, r)
  const t = d.target
  const result = await render(k.s, r, a, d)
  if (!t.inCatalog) return { inCatalog: false, result, until: undefined }
  const { until, untilTtl, ttl } = lifetimeOf(t, d.changesAt, now)
  const stamp = until === null ? {} : { until }
  const computed = { inCatalog: true, result, until: until ?? undefined }
  if (d.personal) return { ...computed, personalTo: deviceKeyOf(a, r) }
  if (d.vary.length === 0) {
    await cache.set(a.slug, key, { ...result, ...stamp }, generation, ttl)
    return computed
  }
  const vary = d.vary
  const signature = await bucketSignature(vary, deviceKeyOf(a, r))
  await cache.set(a.slug, key, { vary, ...stamp }, generation, untilTtl)
  await cache.set(a.slug, bucketKeyOf(key, signature), { ...result, ...stamp }, generation, ttl)
  return { ...computed, vary, signature }
}

/** `compute`, shared with the misses of the same answer under way (`flights`). */
async function computeOnce(k: Checks, cache: AnswerCache, a: UpdateRequest, r: Asking): Promise<Computed> {
  const key = keyOf(a, r.base)
  const generation = await cache.generation(a.slug)
  const shared = await k.flights.run(a.slug, generation, key, () => compute(k, cache, a, r, key, generation))
  // An answer that varies by device is shared only with devices in the same buckets.
  if (shared.vary && shared.signature !== (await bucketSignature(shared.vary, deviceKeyOf(a, r))))
    return compute(k, cache, a, r, key, generation)
  if (shared.personalTo !== undefined && shared.personalTo !== deviceKeyOf(a, r))
    return compute(k, cache, a, r, key, generation)
  return shared
}

/** Remembers `a` as asked, to be computed again after a write to its app (`HotAnswers`). */
function rememberAsked(k: Checks, cache: AnswerCache, a: UpdateRequest, key: string, base: string): void {
  // Without the request's address: any device computes the answer, or an answer's buckets.
  k.s.hotAnswers.asked(a.slug, key, () =>
    computeOnce(k, cache, a, { base, ifNoneMatch: undefined, clientIp: () => undefined }).catch((error: unknown) => {
      // A 404: the write deleted the app, nothing to compute.
      if (!(error instanceof HttpProblem)) throw error
    }),
  )
}

// ---- Answering

/** The answer to `a`: cached (performance mode), or decided and rendered now. */
async function answerCheck(k: Checks, c: Ctx, a: UpdateRequest): Promise<Response> {
  const { s } = k
  const r = askingOf(s, c)
  const cache = s.answers
  if (!cache) return answerUncached(k, r, a)
  const hit = await fromCache(k, a, r)
  if (hit) return toResponse(hit)
  s.observer.updateCheck(a.format, 'miss')
  const computed = await computeOnce(k, cache, a, r)
  if (!computed.inCatalog) return sendAnswer(s, computed.result, undefined, r.ifNoneMatch)
  count(s, a, r)
  rememberAsked(k, cache, a, keyOf(a, r.base), r.base)
  return toResponse(await served(k, a, r, computed.result, computed.until))
}

/** Without an answer cache: decided, rendered, counted and sent. */
async function answerUncached(k: Checks, r: Asking, a: UpdateRequest): Promise<Response> {
  const d = await decide(k.s, a, r)
  if (d.target.inCatalog) count(k.s, a, r)
  k.s.observer.updateCheck(a.format, 'off')
  return toResponse(await served(k, a, r, await render(k.s, r, a, d), d.changesAt ?? undefined))
}

// ---- The latest-build link

/** The cached latest-build redirect as sent now (not counted: it is no update check); `undefined` when not cached. */
async function latestFromCache(s: Services, input: Params<'getLatestBuild'>, r: Asking): Promise<Answer | undefined> {
  const cache = s.answers
  if (!cache) return undefined
  const slug = input.path.app
  const key = latestKeyOf(input, r.base)
  const cached = await readAnswer(cache, slug, key, r)
  if (cached === undefined || isVary(cached)) {
    missedAnswer(slug, key, r)
    return undefined
  }
  return answerAsSent(s, cached, undefined, r.ifNoneMatch)
}

/** A redirect to the newest published build of a package type, cached like an update answer. */
async function latestBuild(s: Services, c: Ctx, input: Params<'getLatestBuild'>): Promise<Response> {
  const { path, query: q } = input
  const slug = path.app
  const r = askingOf(s, c)
  const { base, ifNoneMatch } = r
  const hit = await latestFromCache(s, input, r)
  if (hit) return toResponse(hit)
  const key = latestKeyOf(input, base)
  const generation = await s.answers?.generation(slug)
  const app = await findApp(s, slug)
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
}

// ---- The handlers

export interface UpdateChecks {
  handlers: Pick<
    Handlers,
    | CheckOperation
    | CohortOperation
    | 'getLatestBuild'
    | 'getSquirrelReleases'
    | 'getSquirrelPackage'
    | 'getElectronUpdaterFile'
  >
  /** The cached answers of the checks (counted as served checks: telemetry, metrics, offers) and of the latest-build link. */
  cached: { [K in CheckOperation | 'getLatestBuild']: CachedLookup<K> }
}

/** The feeds of URL-only updaters with the cohort as a path segment: the same check, the cohort from the path. */
type CohortOperation = 'getElectronUpdaterCohortFeed' | 'getSparkleCohortAppcast'

/** A cohort feed's request as its format's own operation reads it: the path's cohort in place of the query's. */
const withPathCohort = <I extends { path: { cohort: string }; query: object }>(input: I) => ({
  ...input,
  query: { ...input.query, cohort: input.path.cohort },
})

export function updateChecks(s: Services): UpdateChecks {
  const k: Checks = { s, offers: new OfferLedger(s), flights: new SingleFlight<Computed>() }
  const cachedCheck =
    <K extends CheckOperation>(id: K): CachedLookup<K> =>
    (input, r) => {
      const asked = CHECK_READERS[id](input)
      return asked && fromCache(k, asked, r)
    }
  return {
    cached: {
      checkForUpdate: cachedCheck('checkForUpdate'),
      getSquirrelMacUpdate: cachedCheck('getSquirrelMacUpdate'),
      getMsixUpdate: cachedCheck('getMsixUpdate'),
      getElectronUpdaterFeed: cachedCheck('getElectronUpdaterFeed'),
      getVelopackFile: cachedCheck('getVelopackFile'),
      getSparkleAppcast: cachedCheck('getSparkleAppcast'),
      getTauriUpdate: cachedCheck('getTauriUpdate'),
      getSquirrelReleases: cachedCheck('getSquirrelReleases'),
      getLatestBuild: (input, r) => latestFromCache(s, input, r),
    },
    handlers: {
      checkForUpdate: async (c, input) => answerCheck(k, c, UPDATE_CHECKS.checkForUpdate(input)),
      getSquirrelMacUpdate: async (c, input) => answerCheck(k, c, UPDATE_CHECKS.getSquirrelMacUpdate(input)),
      getMsixUpdate: async (c, input) => answerCheck(k, c, UPDATE_CHECKS.getMsixUpdate(input)),
      getElectronUpdaterFeed: async (c, input) => answerCheck(k, c, UPDATE_CHECKS.getElectronUpdaterFeed(input)),
      getSparkleAppcast: async (c, input) => answerCheck(k, c, UPDATE_CHECKS.getSparkleAppcast(input)),
      getElectronUpdaterCohortFeed: async (c, input) =>
        answerCheck(k, c, UPDATE_CHECKS.getElectronUpdaterFeed(withPathCohort(input))),
      getSparkleCohortAppcast: async (c, input) =>
        answerCheck(k, c, UPDATE_CHECKS.getSparkleAppcast(withPathCohort(input))),
      getTauriUpdate: async (c, input) => answerCheck(k, c, UPDATE_CHECKS.getTauriUpdate(input)),
      getSquirrelReleases: async (c, input) => answerCheck(k, c, UPDATE_CHECKS.getSquirrelReleases(input)),
      // Velopack fetches its feed and its packages from the same path.
      async getVelopackFile(c, input) {
        const asked = UPDATE_CHECKS.getVelopackFile(input)
        return asked ? answerCheck(k, c, asked) : velopackPackage(s, c, input)
      },
      getElectronUpdaterFile: (c, input) => electronUpdaterFile(s, c, input),
      getLatestBuild: (c, input) => latestBuild(s, c, input),
      getSquirrelPackage: (c, input) => squirrelPackage(s, c, input),
    },
  }
}
