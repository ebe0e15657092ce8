/**
 * Tauri v2's updater plugin, redone in TypeScript where the tests need it: the endpoint URL it
 * requests, how it reads the answer, when it calls it an update, and how it checks the download.
 *
 * Why not the real one: the plugin is the Rust crate `tauri-plugin-updater`, which builds only
 * inside a Tauri app (it depends on `tauri`). Neither crate is packaged for Debian, and no Rust
 * crate registry is reachable from this machine or CI. The npm package
 * `@tauri-apps/plugin-updater` holds no updater logic: it forwards `check()` over Tauri's IPC to
 * that Rust code. The signature check is also made by Debian's `minisign` (`verifyWithMinisign`).
 *
 * Follows tauri-apps/plugins-workspace at 77149dc (tauri-plugin-updater 2.0.2),
 * `plugins/updater/src/updater.rs`: `Updater::check` (placeholders, 204, `release.version >
 * current_version`), `RemoteRelease`'s `Deserialize` (the dynamic `{url, signature}` shape or the
 * static `platforms` map keyed `<target>-<arch>`), `get_updater_target`/`get_updater_arch`, and
 * `verify_signature` (base64 → minisign text → `minisign_verify`, legacy signatures allowed). The
 * signature check follows jedisct1/rust-minisign-verify at 145b995, `src/lib.rs`:
 * `Signature::decode`, `PublicKey::decode`/`from_base64` and `PublicKey::verify`.
 */
import { spawnSync } from 'node:child_process'
import { createHash, createPublicKey, verify } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import semver from 'semver'

/** `{{target}}` values (`get_updater_target`). */
export type TauriTarget = 'linux' | 'darwin' | 'windows'
/** `{{arch}}` values (`get_updater_arch`). */
export type TauriArch = 'x86_64' | 'aarch64' | 'i686' | 'armv7'

export interface UpdaterHost {
  target: TauriTarget
  arch: TauriArch
  currentVersion: string
}

/**
 * The URL the plugin requests for one endpoint of `plugins.updater.endpoints`. The config URL is
 * parsed first (which percent-encodes `{{…}}` in the path), then both spellings are replaced; the
 * version is percent-encoded with controls and `+`.
 */
export function endpointUrl(template: string, host: UpdaterHost): string {
  const parsed = semver.parse(host.currentVersion)
  if (!parsed) throw new Error(`current version ${JSON.stringify(host.currentVersion)} is not semver`)
  // Rust's `Version::to_string()` keeps build metadata, which node-semver's `.version` drops.
  const version = parsed.build.length ? `${parsed.version}+${parsed.build.join('.')}` : parsed.version
  const encoded = version.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f+]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  )
  return new URL(template)
    .toString()
    .replaceAll('%7B%7Bcurrent_version%7D%7D', encoded)
    .replaceAll('%7B%7Btarget%7D%7D', host.target)
    .replaceAll('%7B%7Barch%7D%7D', host.arch)
    .replaceAll('{{current_version}}', encoded)
    .replaceAll('{{target}}', host.target)
    .replaceAll('{{arch}}', host.arch)
}

interface PlatformEntry {
  url: string
  signature: string
}

export interface RemoteRelease {
  version: string
  notes?: string
  pubDate?: Date
  /** `dynamic`: the server answered for this client; `static`: one file lists every platform. */
  data: { shape: 'dynamic'; platform: PlatformEntry } | { shape: 'static'; platforms: Record<string, PlatformEntry> }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const v = body[field]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string') throw new Error(`invalid type for \`${field}\`: expected a string`)
  return v
}

function platformEntry(v: unknown, where: string): PlatformEntry {
  if (!isRecord(v) || typeof v.signature !== 'string' || typeof v.url !== 'string')
    throw new Error(`${where}: expected { url, signature } strings`)
  return { url: new URL(v.url).toString(), signature: v.signature }
}

/** `RemoteRelease::deserialize`: `version` (or `name`, a leading `v` dropped), optional notes and RFC 3339 `pub_date`. */
export function parseRemoteRelease(body: unknown): RemoteRelease {
  if (!isRecord(body)) throw new Error('the updater response is not a JSON object')
  const raw = body.version ?? body.name
  if (typeof raw !== 'string') throw new Error('missing field `version`')
  const version = semver.valid(raw.replace(/^v+/, ''))
  if (!version) throw new Error(`\`version\` ${JSON.stringify(raw)} is not semver`)
  const pubDate = optionalString(body, 'pub_date')
  if (pubDate !== undefined && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.test(pubDate)) {
    throw new Error(`invalid value for \`pub_date\`: ${JSON.stringify(pubDate)} is not RFC 3339`)
  }
  const base = {
    version,
    notes: optionalString(body, 'notes'),
    pubDate: pubDate === undefined ? undefined : new Date(pubDate),
  }
  if (body.platforms !== undefined && body.platforms !== null) {
    if (!isRecord(body.platforms)) throw new Error('`platforms` is not a map')
    const platforms = Object.fromEntries(
      Object.entries(body.platforms).map(([k, v]) => [k, platformEntry(v, `platforms.${k}`)]),
    )
    return { ...base, data: { shape: 'static', platforms } }
  }
  if (typeof body.url !== 'string') throw new Error('the `url` field was not set on the updater response')
  if (typeof body.signature !== 'string') throw new Error('the `signature` field was not set on the updater response')
  return { ...base, data: { shape: 'dynamic', platform: platformEntry(body, 'response') } }
}

export interface Update {
  version: string
  currentVersion: string
  downloadUrl: string
  signature: string
  body?: string
  shape: RemoteRelease['data']['shape']
  rawJson: Record<string, unknown>
}

/**
 * `Updater::check` for one endpoint: `null` on 204 or when the release is not newer (semver
 * precedence), else the update for `<target>-<arch>` (the key a static `platforms` map is read by).
 */
export async function checkForUpdate(template: string, host: UpdaterHost): Promise<Update | null> {
  const res = await fetch(endpointUrl(template, host), { headers: { Accept: 'application/json' } })
  if (res.status === 204) return null
  if (!res.ok) throw new Error(`the update endpoint answered ${res.status}`)
  const rawJson: unknown = await res.json()
  const release = parseRemoteRelease(rawJson)
  if (!isRecord(rawJson) || !semver.gt(release.version, host.currentVersion)) return null
  const jsonTarget = `${host.target}-${host.arch}`
  const platform = release.data.shape === 'dynamic' ? release.data.platform : release.data.platforms[jsonTarget]
  if (!platform) throw new Error(`the platform \`${jsonTarget}\` was not found on the response \`platforms\` object`)
  return {
    version: release.version,
    currentVersion: host.currentVersion,
    downloadUrl: platform.url,
    signature: platform.signature,
    body: release.notes,
    shape: release.data.shape,
    rawJson,
  }
}

/** Why a minisign check failed, in minisign-verify's terms. */
export class MinisignError extends Error {}

const ALGORITHMS = { Ed: 'legacy', ED: 'prehashed' } as const

function base64Bytes(text: string | undefined, length: number, what: string): Buffer {
  if (text === undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(text.trim()))
    throw new MinisignError(`Invalid encoding in minisign data (${what})`)
  const bytes = Buffer.from(text.trim(), 'base64')
  if (bytes.length !== length)
    throw new MinisignError(`Invalid encoding in minisign data (${what}: ${bytes.length} bytes, not ${length})`)
  return bytes
}

/** `base64_to_string`: standard base64 of UTF-8 text. */
function base64Text(value: string, what: string): string {
  const text = Buffer.from(value, 'base64').toString('utf8')
  if (!text.includes('\n')) throw new MinisignError(`${what} is not base64 of minisign text`)
  return text
}

function algorithm(bytes: Buffer, what: string): 'legacy' | 'prehashed' {
  const kind = ALGORITHMS[bytes.subarray(0, 2).toString('latin1') as keyof typeof ALGORITHMS]
  if (!kind) throw new MinisignError(`This signature algorithm is not supported by this implementation (${what})`)
  return kind
}

function ed25519Verify(message: Buffer, publicKey: Buffer, signature: Buffer): boolean {
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: publicKey.toString('base64url') },
    format: 'jwk',
  })
  return verify(null, message, key, signature)
}

/**
 * `verify_signature(data, release_signature, pub_key)` as the plugin calls it: both arguments are
 * base64 of minisign text. Throws a `MinisignError` when the signature does not hold.
 */
export function verifyTauriSignature(data: Uint8Array, releaseSignature: string, pubkey: string): void {
  const keyLines = base64Text(pubkey, 'the public key').split('\n')
  const key = base64Bytes(keyLines[1], 42, 'public key')
  algorithm(key, 'public key')
  const [, sigLine, trustedComment, globalLine] = base64Text(releaseSignature, 'the signature').split('\n')
  const sig = base64Bytes(sigLine, 74, 'signature')
  const global = base64Bytes(globalLine, 64, 'global signature')
  if (!trustedComment?.startsWith('trusted comment: '))
    throw new MinisignError('Invalid encoding in minisign data (trusted comment)')
  const kind = algorithm(sig, 'signature')
  if (!sig.subarray(2, 10).equals(key.subarray(2, 10)))
    throw new MinisignError('The signature was created with a different key than the one provided')
  const publicKey = key.subarray(10)
  const message = kind === 'prehashed' ? createHash('blake2b512').update(data).digest() : Buffer.from(data)
  if (!ed25519Verify(message, publicKey, sig.subarray(10))) throw new MinisignError('The signature verification failed')
  const signed = Buffer.concat([
    sig.subarray(10),
    Buffer.from(trustedComment.slice('trusted comment: '.length), 'utf8'),
  ])
  if (!ed25519Verify(signed, publicKey, global))
    throw new MinisignError('The signature verification failed (trusted comment)')
}

/**
 * The same check by minisign itself (Debian's `minisign`, the reference implementation by the
 * author of minisign-verify), on the signature and key text the plugin decodes from base64.
 */
export function verifyWithMinisign(data: Uint8Array, releaseSignature: string, pubkey: string): void {
  const key = base64Text(pubkey, 'the public key').split('\n')[1] ?? ''
  const dir = mkdtempSync(join(tmpdir(), 'ferry-minisign-'))
  try {
    writeFileSync(join(dir, 'bundle'), data)
    writeFileSync(join(dir, 'bundle.minisig'), base64Text(releaseSignature, 'the signature'))
    const run = spawnSync('minisign', ['-V', '-q', '-m', join(dir, 'bundle'), '-P', key], { encoding: 'utf8' })
    if (run.error) throw new Error(`minisign could not run (${run.error.message}): apt-get install minisign`)
    if (run.status !== 0) throw new MinisignError(`minisign: ${(run.stderr || run.stdout).trim()}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * `Update::download`: fetch the bundle and verify it before anything would be installed, with
 * the plugin's check and with minisign's.
 */
export async function downloadVerified(update: Update, pubkey: string): Promise<Uint8Array> {
  const res = await fetch(update.downloadUrl)
  if (!res.ok) throw new Error(`the download answered ${res.status}`)
  const bytes = new Uint8Array(await res.arrayBuffer())
  verifyTauriSignature(bytes, update.signature, pubkey)
  verifyWithMinisign(bytes, update.signature, pubkey)
  return bytes
}
