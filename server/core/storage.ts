/** @module Storage contracts: the metadata database (Kysely) and the blob store. */
import type { Generated, Kysely, Selectable } from 'kysely'
import type { components } from '../../contract/generated/api.ts'
import { DependencyUnavailable } from './outage.ts'

type UpdaterFormat = components['schemas']['UpdaterFormat']

export interface TeamsTable {
  id: string
  name: string
  created_at: string
}
export interface UsersTable {
  id: string
  team_id: string
  email: string
  name: string
  role: 'admin' | 'user'
  password_hash: string
  /** JSON of the permission matrix (team users only; `{}` for admins). */
  permissions: string
  /** Bumped on password change; tokens carry it and stop working when it changes. */
  token_version: number
  created_at: string
}
export interface AppsTable {
  slug: string
  team_id: string
  name: string
  description: string
  private: number
  /** Tauri updater public key (base64 minisign public key file); uploads' `.sig` files must verify. */
  tauri_public_key: string | null
  /** Sparkle EdDSA public key (base64, 32 bytes); uploads' `.edsig` files must verify. */
  sparkle_public_key: string | null
  /** Key rotation: the app's non-current Tauri keys, JSON `[{ key, role }]` (roles `next`, `retired`). */
  tauri_extra_keys: string | null
  /** The same for Sparkle keys. */
  sparkle_extra_keys: string | null
  created_at: string
  updated_at: string
}
export interface ChannelsTable {
  id: string
  team_id: string
  name: string
  description: string
  created_at: string
}
export interface PlatformsTable {
  id: string
  team_id: string
  name: string
  updater: UpdaterFormat
  created_at: string
}
export interface ArchsTable {
  id: string
  team_id: string
  name: string
  created_at: string
}
export interface VersionsTable {
  id: string
  app_slug: string
  version: string
  channel_id: string
  platform_id: string
  arch_id: string
  changelog: string
  published: number
  critical: number
  intermediate: number
  rollout_percentage: number
  created_at: string
  published_at: string | null
  /** The oldest OS version the build runs on (Sparkle's `sparkle:minimumSystemVersion`); `null` when not set. */
  minimum_system_version: string | null
  /** Insertion order, a tie-breaker for "newest first". */
  seq: Generated<number>
  /** `versionKey(version)`: sorts bytewise in semver order; `null` when semver refuses `version`. */
  version_key: string | null
  /** JSON `RolloutStep[]` of a scheduled ramp (server/updates/rollout.ts); `null`: `rollout_percentage` applies. */
  ramp_steps: string | null
  ramp_started_at: string | null
  /** Seconds the ramp spent paused before the current pause (they do not count towards its steps). */
  ramp_paused_seconds: Generated<number>
  paused_at: string | null
  pause_reason: string | null
  /** 1 when health reports paused it. */
  pause_automatic: Generated<number>
  pulled_at: string | null
  pull_reason: string | null
  /** Health policy of this version; `null` uses the server's default. */
  health_max_failure_ratio: number | null
  health_min_reports: number | null
  /** `null`: the server's default for that member. */
  health_min_addresses: number | null
  health_max_reports_per_address: number | null
  /** Health reports before this time (the last resume) no longer count. */
  health_since: string | null
  /** 1 when the version has files whose signer Ferry reads (`.exe`); then `signer` is meaningful. */
  signer_read: Generated<number>
  /** JSON `SignerIdentity`; `null`: unsigned (or not read). */
  signer: string | null
  /** Non-null when the upload declared a change of signer (`signerChange`), its note. */
  signer_change_note: string | null
  /** JSON `SignerIdentity` of the newest published version this one replaced at its publish, when the signer changed. */
  signer_previous: string | null
  /** The updater public key (Tauri or Sparkle) that verified its signature at upload; `null` when none was checked. */
  update_key: string | null
  /** JSON array of the updater public keys the build trusts; `null` when unknown (unsigned, or uploaded before 0016). */
  trusted_keys: string | null
  /** JSON `RampGate` of a gated ramp (server/updates/rollout.ts); `null`: the ramp runs on the clock alone. */
  ramp_gate: string | null
  /** 1 while the gate's evidence is there; written when a health report changes it. */
  gate_open: Generated<number>
  /**
   * Closed: the ramp-clock second it closed (steps that began before it stand, the next one holds).
   * Open: the ramp-clock second the step whose evidence opened it began; the evidence is per step,
   * so the step after the next one holds until its own step's installs are reported.
   */
  gate_closed_seconds: Generated<number>
}

/** The rollout columns of a version row, from which `updates/rollout.ts` works out where a ramp stands. */
export type RolloutColumns = Pick<
  Selectable<VersionsTable>,
  | 'rollout_percentage'
  | 'ramp_steps'
  | 'ramp_started_at'
  | 'ramp_paused_seconds'
  | 'paused_at'
  | 'pulled_at'
  | 'ramp_gate'
  | 'gate_open'
  | 'gate_closed_seconds'
>
export interface ArtifactsTable {
  id: string
  version_id: string
  file_name: string
  package_type: string
  size: number
  sha1: string
  sha256: string
  sha512: string
  blob_key: string
  created_at: string
  /** Order of the file in its upload. */
  position: Generated<number>
}

/** A machine token (`Authorization: Bearer ferry_…`); see server/auth/api-tokens.ts. */
export interface ApiTokensTable {
  id: string
  team_id: string
  /** The user who created it; the token never holds more than their current permissions. */
  created_by: string
  name: string
  /** Hex SHA-256 of the whole token; the token itself is shown once and never stored. */
  token_hash: string
  /** JSON of the permission matrix granted at creation. */
  permissions: string
  created_at: string
  expires_at: string | null
  /** Updated at most once a minute (see `LAST_USED_RESOLUTION_MS`). */
  last_used_at: string | null
}

/** An artifact row as read back. */
export type ArtifactRow = Selectable<ArtifactsTable>

/** What telemetry counts by: one app, version, channel, platform and arch on one day. */
interface TelemetryGroup {
  app_slug: string
  /** UTC date, `YYYY-MM-DD`. */
  day: string
  version: string
  channel: string
  platform: string
  arch: string
}

export interface TelemetryCountsTable extends TelemetryGroup {
  checks: number
}
/** One row per device seen that day for that group; `device_hash` is keyed per day (see `server/telemetry`). */
export interface TelemetryDevicesTable extends TelemetryGroup {
  device_hash: string
}

/** One device's latest update outcome for one version; `device_hash` is HMAC-SHA256(secret, version id + device id). */
export interface HealthReportsTable {
  version_id: string
  device_hash: string
  outcome: 'installed' | 'failed'
  reason: string
  from_version: string | null
  reported_at: string
}

/** Health reports older than a month, summed per version, UTC day and client address ('' without an offer). */
export interface HealthDailyTable {
  version_id: string
  day: string
  address_hash: string
  installed: number
  failed: number
}

/** Offers older than the health reports' retention, counted per version and UTC day (storage/telemetry/offers-daily.ts). */
export interface UpdateOffersDailyTable {
  version_id: string
  day: string
  offered: number
}

/** A version offered to a device by an update check: what lets its health reports count. */
export interface UpdateOffersTable {
  version_id: string
  /** The same keyed hash as `health_reports.device_hash`. */
  device_hash: string
  /** Keyed hash of the client address (IPv4, or IPv6 /64) that got the offer. */
  address_hash: string
  offered_at: string
}

/** Whole-file downloads of a version's artifacts on one UTC day (server/telemetry/download-counter.ts). */
export interface VersionDownloadsTable {
  version_id: string
  day: string
  downloads: number
}

export interface WebhookSubscriptionsTable {
  id: string
  team_id: string
  url: string
  description: string
  /** JSON array of event types. */
  events: string
  /** JSON array of app slugs; `null`: every app of the team. */
  apps: string | null
  /** `whsec_…`, kept to sign deliveries. */
  secret: string
  enabled: number
  disabled_reason: string | null
  /** When deliveries started failing without a success since; `null` while healthy. */
  failing_since: string | null
  created_at: string
  updated_at: string
}
export interface WebhookDeliveriesTable {
  id: string
  subscription_id: string
  /** The Standard Webhooks message id (`webhook-id`), shared by the event's deliveries. */
  event_id: string
  event_type: string
  /** The JSON body, exactly as signed. */
  payload: string
  status: 'pending' | 'succeeded' | 'failed'
  attempts: number
  /** Pending: when it is due (a claim pushes it past a lease); `null` once finished. */
  next_attempt_at: string | null
  /** Set while an attempt is in flight (equal to `next_attempt_at`); cleared when its outcome is recorded. */
  lease_until: string | null
  last_attempt_at: string | null
  response_status: number | null
  error: string | null
  created_at: string
}
/** The last ramp step announced for a version's ramp (a new ramp, a new `ramp_started_at`, starts over). */
export interface WebhookRampMarksTable {
  version_id: string
  ramp_started_at: string
  step: number
  /** ISO start of the last hold announced as `version.ramp_holding`. */
  held_since: string | null
  /** ISO start of the last hold announced as paused at its deadline. */
  lapsed_since: string | null
}
/** One entry of the audit log (server/audit/): append-only, pruned by age only. */
export interface AuditLogTable {
  id: string
  team_id: string
  /** RFC 3339 UTC with milliseconds, so that entries of one second keep their order. */
  at: string
  actor_type: 'user' | 'token' | 'system'
  /** The user's or token's id, `system` for Ferry itself. */
  actor_id: string
  actor_name: string
  actor_email: string | null
  /** The user behind the actor: the user themself, a token's creator; null for `system`. */
  actor_user_id: string | null
  /** For a token: its creator's email. */
  creator_email: string | null
  operation_id: string | null
  action: string
  target_type: string
  target_id: string | null
  app_slug: string | null
  /** JSON object: field → { from?, to? }; never secrets. */
  changes: string
  address: string | null
}

/** An app's repository signing key (OpenPGP); the private key is armored and passphrase-encrypted. */
export interface AppSigningKeysTable {
  app_slug: string
  fingerprint: string
  public_key: string
  private_key: string
  created_at: string
}
/** One TUF metadata file of an app (root, targets, snapshot, timestamp), as served. */
export interface TufMetadataTable {
  app_slug: string
  role: string
  version: number
  /** The file's JSON text, signatures included. */
  body: string
  /** The metadata's own `expires`, ISO 8601. */
  expires: string
  created_at: string
}
/** The server's online TUF key (snapshot and timestamp); the private key is PKCS#8 PEM, passphrase-encrypted. */
export interface TufOnlineKeysTable {
  id: string
  public_key: string
  private_key: string
  created_at: string
}
/** What an apt or rpm index needs of one uploaded package, read from its headers at upload. */
export interface LinuxPackagesTable {
  artifact_id: string
  version_id: string
  kind: 'deb' | 'rpm'
  /** The package's own name and architecture (Debian `Package`/`Architecture`, RPM name/arch). */
  name: string
  arch: string
  /** JSON: a `.deb`'s control fields, or an `.rpm`'s header metadata (server/transfer/linux-packages.ts). */
  metadata: string
}
/** An apt index file a `Release` listed (storage/releases/apt-index-files.ts): served by hash until a while after it is replaced. */
export interface AptIndexFilesTable {
  app_slug: string
  /** The channel's name, as the repository's URL has it. */
  channel: string
  /** `binary-<arch>`. */
  binary_arch: string
  sha256: string
  file: 'Packages' | 'Packages.gz' | 'Packages.xz'
  size: number
  body: Uint8Array
  listed_at: string
  /** When a `Release` first listed another file in its place; `null` while it is listed. */
  replaced_at: string | null
}

/** A hold, pin or targeting rule of an app (server/updates/rules.ts). */
export interface UpdateRulesTable {
  id: string
  app_slug: string
  kind: 'hold' | 'pin' | 'target'
  /** A hold's or pin's cohort; `null`: a hold of every device. */
  cohort: string | null
  /** A pin's semver range. */
  version_range: string | null
  /** The version a targeting rule limits. */
  version: string | null
  /** A targeting rule's JSON `{ cohorts, devices, deny, conditions }`. */
  criteria: string | null
  reason: string | null
  expires_at: string | null
  created_at: string
  created_by: string
}

export interface Database {
  app_signing_keys: AppSigningKeysTable
  apt_index_files: AptIndexFilesTable
  linux_packages: LinuxPackagesTable
  version_downloads: VersionDownloadsTable
  health_reports: HealthReportsTable
  health_daily: HealthDailyTable
  update_offers: UpdateOffersTable
  update_offers_daily: UpdateOffersDailyTable
  teams: TeamsTable
  users: UsersTable
  apps: AppsTable
  channels: ChannelsTable
  platforms: PlatformsTable
  archs: ArchsTable
  versions: VersionsTable
  artifacts: ArtifactsTable
  telemetry_counts: TelemetryCountsTable
  telemetry_devices: TelemetryDevicesTable
  api_tokens: ApiTokensTable
  webhook_subscriptions: WebhookSubscriptionsTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_ramp_marks: WebhookRampMarksTable
  audit_log: AuditLogTable
  tuf_metadata: TufMetadataTable
  tuf_online_keys: TufOnlineKeysTable
  update_rules: UpdateRulesTable
}

export type Db = Kysely<Database>

/** A blob read back, optionally a byte range of it. */
export interface BlobRead {
  body: ReadableStream<Uint8Array>
  /** Size of the whole blob in bytes. */
  size: number
}

/** One stored blob, as `list` reports it. */
export interface BlobEntry {
  key: string
  /** When the blob was last written; the orphan sweep leaves young blobs alone. */
  modifiedAt: Date
}

/** What a direct download URL makes the storage answer with. */
export interface DirectUrlOptions {
  contentDisposition: string
  cacheControl: string
}

/**
 * Thrown by a store whose backing service fails (unreachable, refusing credentials, erroring):
 * an outage like any other dependency's, so the client gets a 503 problem with Retry-After, not
 * a 500, and the cause is kept for the log.
 */
export class BlobStoreUnavailable extends DependencyUnavailable {
  constructor(cause?: unknown) {
    super('The artifact storage', cause)
  }
}

/** What storage logs through (the app's pino logger, or a test's). */
export interface StorageLogger {
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

/** One streamed write: nothing is visible under the key until `commit` resolves. */
export interface BlobWriter {
  write(chunk: Uint8Array): Promise<void>
  commit(): Promise<void>
  /** Drops what was written; safe after a failed write or commit. */
  abort(): Promise<void>
}

/**
 * Where artifact bytes live. Writes are atomic: after a crash a key holds either the whole blob
 * or nothing.
 */
export interface BlobStore {
  /** Starts a streamed write of one blob (uploads never sit whole in memory). */
  open(key: string): Promise<BlobWriter>
  /** Writes a whole blob at once (`open`, one `write`, `commit`). */
  put(key: string, data: Uint8Array): Promise<void>
  /** `range` is inclusive on both ends, like HTTP `Range`. */
  get(key: string, range?: { start: number; end: number }): Promise<BlobRead | null>
  size(key: string): Promise<number | null>
  delete(key: string): Promise<void>
  /** Blobs currently stored, sorted by key (for the orphan sweep, consistency checks and tests). */
  list(): Promise<BlobEntry[]>
  /** Throws when the store cannot be used. */
  ping(): Promise<void>
  /**
   * Present only when downloads should bypass Ferry: a time-limited URL the client can fetch the
   * blob from directly (an object store's presigned GET).
   */
  directUrl?(key: string, options: DirectUrlOptions): Promise<string>
}

/** A store whose interrupted writes leave something behind: temp files, multipart uploads. */
export interface SweepableBlobStore extends BlobStore {
  /**
   * Removes writes started before `olderThan` and never committed or aborted (their writer died);
   * returns how many. Younger ones may belong to another instance still writing.
   */
  abortStaleUploads(olderThan: Date): Promise<number>
}

/** Blob keys are artifact ids: letters, digits and `_` only, so they never escape a directory. */
export const BLOB_KEY = /^[A-Za-z0-9_]{1,64}$/

export function assertBlobKey(key: string): void {
  if (!BLOB_KEY.test(key)) throw new Error(`invalid blob key: ${JSON.stringify(key)}`)
}

/** `put` in terms of `open`, so each store implements writing once. */
export async function putWhole(store: Pick<BlobStore, 'open'>, key: string, data: Uint8Array): Promise<void> {
  const writer = await store.open(key)
  try {
    await writer.write(data)
    await writer.commit()
  } catch (error) {
    await writer.abort()
    throw error
  }
}
