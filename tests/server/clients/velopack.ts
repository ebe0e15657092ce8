/**
 * Velopack's `UpdateManager` over an HTTP source, redone in TypeScript where the tests need it.
 * Velopack's Node binding (npm `velopack` 0.0.1298) ships its Rust core as a native addon built
 * against glibc 2.39; this machine has 2.36, so it cannot load here (and its `engines` stop at
 * Node 22.16 while `.npmrc` sets engine-strict). This follows velopack/velopack at af83849 instead:
 * `src/lib-rust/src/sources/http.rs` (`get_release_feed`: `<url>/releases.<channel>.json` with
 * `localVersion`, `id`, `stagingId`; `download_release_entry`: `<url>/<FileName>`),
 * `src/lib-rust/src/manager.rs` (`VelopackAssetFeed`/`VelopackAsset`, deserialized with
 * case-insensitive keys and defaults for missing fields; `check_for_updates`: the newest `Full`
 * asset by semver, downgrade only with `AllowVersionDowngrade`; `create_delta_update_strategy`;
 * `verify_package_checksum`: size, then SHA256, else SHA1), `macros.rs`
 * (`define_struct_case_insensitive`).
 */
import { createHash } from 'node:crypto'
import semver from 'semver'

export interface VelopackAsset {
  PackageId: string
  Version: string
  Type: string
  FileName: string
  SHA1: string
  SHA256: string
  Size: number
  NotesMarkdown: string
  NotesHtml: string
}

const STRING_FIELDS = [
  'PackageId',
  'Version',
  'Type',
  'FileName',
  'SHA1',
  'SHA256',
  'NotesMarkdown',
  'NotesHtml',
] as const

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const lowerKeys = (v: Record<string, unknown>) => new Map(Object.entries(v).map(([k, x]) => [k.toLowerCase(), x]))

/** `define_struct_case_insensitive`'s `Deserialize`: keys lower-cased, missing fields default, wrong types an error. */
function parseAsset(v: unknown, where: string): VelopackAsset {
  if (!isRecord(v)) throw new Error(`${where}: expected an object`)
  const map = lowerKeys(v)
  const asset: VelopackAsset = {
    PackageId: '',
    Version: '',
    Type: '',
    FileName: '',
    SHA1: '',
    SHA256: '',
    Size: 0,
    NotesMarkdown: '',
    NotesHtml: '',
  }
  for (const field of STRING_FIELDS) {
    const x = map.get(field.toLowerCase())
    if (x === undefined) continue
    if (typeof x !== 'string') throw new Error(`${where}.${field}: invalid type, expected a string`)
    asset[field] = x
  }
  const size = map.get('size')
  if (size !== undefined) {
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 0)
      throw new Error(`${where}.Size: invalid type, expected u64`)
    asset.Size = size
  }
  return asset
}

export function parseFeed(json: string): VelopackAsset[] {
  const body: unknown = JSON.parse(json)
  if (!isRecord(body)) throw new Error('the feed is not a JSON object')
  const assets = lowerKeys(body).get('assets')
  if (assets === undefined) return []
  if (!Array.isArray(assets)) throw new Error('Assets: invalid type, expected a sequence')
  return assets.map((a, i) => parseAsset(a, `Assets[${i}]`))
}

/** What the installed app knows: its manifest and, for deltas, the full package it holds. */
export interface VelopackHost {
  id: string
  version: string
  channel: string
  stagingId: string
  /** The version of the newest full package in the app's packages folder, if any. */
  localFullPackage?: string
  allowVersionDowngrade?: boolean
}

export interface UpdateInfo {
  TargetFullRelease: VelopackAsset
  /** The local full package deltas apply to (`null`: a full download). */
  BaseRelease: string | null
  DeltasToTarget: VelopackAsset[]
  IsDowngrade: boolean
}

export interface Check {
  requested: URL
  status: number
  assets: VelopackAsset[]
  update: UpdateInfo | null
}

/** `HttpSource::get_release_feed` then `UpdateManager::check_for_updates`. */
export async function velopackCheck(
  sourceUrl: string,
  host: VelopackHost,
  headers: Record<string, string> = {},
): Promise<Check> {
  const base = new URL(`${sourceUrl.replace(/\/+$/, '')}/`)
  const requested = new URL(`releases.${host.channel}.json`, base)
  requested.search = `localVersion=${host.version}&id=${host.id}&stagingId=${host.stagingId}`
  const res = await fetch(requested, { headers })
  const text = await res.text()
  // download_url_as_string fails on an HTTP error status.
  if (!res.ok) throw new Error(`HTTP ${res.status} for ${requested}: ${text}`)
  const assets = parseFeed(text)
  return { requested, status: res.status, assets, update: checkForUpdates(assets, host) }
}

function checkForUpdates(assets: VelopackAsset[], host: VelopackHost): UpdateInfo | null {
  const appVersion = semver.parse(host.version, { loose: false })
  if (!appVersion) throw new Error(`app version ${host.version} is not semver`)
  let latest: { asset: VelopackAsset; version: semver.SemVer } | undefined
  for (const asset of assets) {
    const v = semver.parse(asset.Version)
    if (v && asset.Type.toLowerCase() === 'full' && (!latest || v.compare(latest.version) > 0))
      latest = { asset, version: v }
  }
  if (!latest) return null // RemoteIsEmpty
  const order = latest.version.compare(appVersion)
  if (order > 0) return deltaStrategy(assets, latest, host)
  if (order < 0 && host.allowVersionDowngrade)
    return { TargetFullRelease: latest.asset, BaseRelease: null, DeltasToTarget: [], IsDowngrade: true }
  return null
}

function deltaStrategy(
  assets: VelopackAsset[],
  latest: { asset: VelopackAsset; version: semver.SemVer },
  host: VelopackHost,
): UpdateInfo {
  const full: UpdateInfo = {
    TargetFullRelease: latest.asset,
    BaseRelease: null,
    DeltasToTarget: [],
    IsDowngrade: false,
  }
  const local = host.localFullPackage === undefined ? null : semver.parse(host.localFullPackage)
  if (!local) return full
  const versioned = assets.flatMap((a) => {
    const v = semver.parse(a.Version)
    return v ? [{ a, v }] : []
  })
  const isDelta = (a: VelopackAsset) => a.Type.toLowerCase() === 'delta'
  if (!versioned.some(({ a, v }) => isDelta(a) && v.compare(latest.version) === 0)) return full
  const deltas = versioned
    .filter(({ a, v }) => isDelta(a) && v.compare(local) > 0 && v.compare(latest.version) <= 0)
    .sort((x, y) => x.v.compare(y.v))
    .map(({ a }) => a)
  return { ...full, BaseRelease: local.version, DeltasToTarget: deltas }
}

/**
 * `download_release_entry` (`<source>/<FileName>`, redirects followed as reqwest does) then
 * `verify_package_checksum`. Returns the bytes.
 */
export async function velopackDownload(sourceUrl: string, asset: VelopackAsset): Promise<Uint8Array> {
  const url = new URL(asset.FileName, new URL(`${sourceUrl.replace(/\/+$/, '')}/`))
  const res = await fetch(url)
  if (!res.ok) throw new Error(`HTTP ${res.status} for ${url}`)
  const bytes = new Uint8Array(await res.arrayBuffer())
  if (bytes.length !== asset.Size)
    throw new Error(`size mismatch for ${asset.FileName}: expected ${asset.Size}, got ${bytes.length}`)
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  const sha1 = createHash('sha1').update(bytes).digest('hex')
  if (asset.SHA256 !== '' ? sha256 !== asset.SHA256.toLowerCase() : sha1 !== asset.SHA1.toLowerCase()) {
    throw new Error(`checksum mismatch for ${asset.FileName}`)
  }
  return bytes
}
