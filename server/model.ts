/** @module Rows → API objects, and the lookups several routes share. */
import type { Selectable } from 'kysely'
import { timestamp, type AuthUser, type Schemas, type Services } from './context.ts'
import { parseSteps, policyOf, rolloutAt, tallyReports, type HealthTally } from './rollout.ts'
import { reportsByAddress, type AddressOutcomes } from './storage/health-evidence.ts'
import { normalizePermissions } from './permissions.ts'
import { notFound } from './problem.ts'
import { errorCode } from './storage/outage.ts'
import { signedQuery } from './signed-links.ts'
import type { AppsTable, ArtifactRow, TeamsTable, UsersTable, VersionsTable } from './storage/types.ts'

/** A user row as the identity of a request. */
export function toAuthUser(row: UsersTable): AuthUser {
  return {
    id: row.id,
    teamId: row.team_id,
    role: row.role,
    email: row.email,
    name: row.name,
    createdAt: row.created_at,
    permissions: normalizePermissions(JSON.parse(row.permissions), row.role === 'admin'),
  }
}

export function toUser(row: UsersTable): Schemas['User'] {
  return { id: row.id, email: row.email, name: row.name, role: row.role, createdAt: row.created_at }
}

export function toTeamUser(row: UsersTable): Schemas['TeamUser'] {
  return { ...toUser(row), permissions: normalizePermissions(JSON.parse(row.permissions), row.role === 'admin') }
}

export function toTeam(row: TeamsTable): Schemas['Team'] {
  return { id: row.id, name: row.name, createdAt: row.created_at }
}

export function toApp(row: AppsTable): Schemas['App'] {
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    private: row.private === 1,
    // Present only when set, so apps without keys read as before.
    ...(row.tauri_public_key !== null ? { tauriPublicKey: row.tauri_public_key } : {}),
    ...(row.sparkle_public_key !== null ? { sparklePublicKey: row.sparkle_public_key } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/** The app with this slug in the caller's team; another team's app is "not found". */
export async function findTeamApp(s: Services, user: AuthUser, slug: string): Promise<AppsTable> {
  const app = await s.db.selectFrom('apps').selectAll().where('slug', '=', slug).where('team_id', '=', user.teamId).executeTakeFirst()
  if (!app) throw notFound(`No app with slug ${slug}.`)
  return app
}

export function downloadPath(slug: string, versionId: string, artifactId: string): string {
  return `/v1/apps/${slug}/versions/${versionId}/artifacts/${artifactId}/download`
}

/**
 * Absolute download URL; a signed link (valid 15 min) for private apps and for drafts
 * (whose files are not public either).
 */
export async function downloadUrl(s: Services, base: string, app: Pick<AppsTable, 'slug' | 'private'>, versionId: string, artifactId: string, draft = false): Promise<string> {
  const path = downloadPath(app.slug, versionId, artifactId)
  if (app.private !== 1 && !draft) return base + path
  return `${base}${path}?${await signedQuery(s.config.jwtSecret, path, s.now())}`
}

export async function toArtifact(s: Services, base: string, app: Pick<AppsTable, 'slug' | 'private'>, row: ArtifactRow, draft = false): Promise<Schemas['Artifact']> {
  return {
    id: row.id,
    fileName: row.file_name,
    packageType: row.package_type as Schemas['PackageType'],
    size: row.size,
    sha256: row.sha256,
    sha512: row.sha512,
    downloadUrl: await downloadUrl(s, base, app, row.version_id, row.id, draft),
  }
}

/** A version as `versionQuery` selects it: catalog names instead of ids, plus the app's privacy. */
export type VersionRow = Omit<Selectable<VersionsTable>, 'channel_id' | 'platform_id' | 'arch_id' | 'version_key'> & {
  channel: string
  platform: string
  arch: string
  app_private: number
}

/** Versions joined with their catalog names and app privacy; callers add filters. */
export function versionQuery(s: Services) {
  return s.db.selectFrom('versions as v')
    .innerJoin('channels as c', 'c.id', 'v.channel_id')
    .innerJoin('platforms as p', 'p.id', 'v.platform_id')
    .innerJoin('archs as a', 'a.id', 'v.arch_id')
    .innerJoin('apps', 'apps.slug', 'v.app_slug')
    .select([
      'v.id', 'v.app_slug', 'v.version', 'c.name as channel', 'p.name as platform', 'a.name as arch',
      'v.changelog', 'v.published', 'v.critical', 'v.intermediate', 'v.rollout_percentage',
      'v.created_at', 'v.published_at', 'v.minimum_system_version', 'v.seq', 'apps.private as app_private',
      'v.ramp_steps', 'v.ramp_started_at', 'v.ramp_paused_seconds', 'v.paused_at', 'v.pause_reason', 'v.pause_automatic',
      'v.pulled_at', 'v.pull_reason', 'v.health_max_failure_ratio', 'v.health_min_reports', 'v.health_min_addresses', 'v.health_max_reports_per_address',
      'v.health_since',
    ])
}

/** Version rows → API versions with their artifacts (one query for all artifacts). */
export async function toVersions(s: Services, base: string, rows: VersionRow[]): Promise<Schemas['Version'][]> {
  if (rows.length === 0) return []
  const artifacts = await s.db.selectFrom('artifacts').selectAll()
    .where('version_id', 'in', rows.map((r) => r.id)).orderBy('position').orderBy('id').execute()
  const byVersion = new Map<string, ArtifactRow[]>()
  for (const a of artifacts) byVersion.set(a.version_id, [...(byVersion.get(a.version_id) ?? []), a])
  const health = await reportsByAddress(s.db, rows.map((r) => r.id))
  const now = s.now().getTime()
  return Promise.all(rows.map(async (r) => ({
    id: r.id,
    app: r.app_slug,
    version: r.version,
    channel: r.channel,
    platform: r.platform,
    arch: r.arch,
    changelog: r.changelog,
    published: r.published === 1,
    critical: r.critical === 1,
    intermediate: r.intermediate === 1,
    rolloutPercentage: rolloutAt(r, now).percentage,
    rollout: toRollout(s, r, now, health.get(r.id) ?? []),
    createdAt: r.created_at,
    publishedAt: r.published_at,
    ...(r.minimum_system_version !== null ? { minimumSystemVersion: r.minimum_system_version } : {}),
    artifacts: await Promise.all((byVersion.get(r.id) ?? []).map((a) =>
      toArtifact(s, base, { slug: r.app_slug, private: r.app_private }, a, r.published === 0))),
  })))
}

const hold = (at: string | null, reason: string | null, automatic: boolean): Schemas['RolloutHold'] | null =>
  at === null ? null : { at, reason: reason ?? '', automatic }

/** A version's `rollout` member at `now` (epoch ms). */
export function toRollout(s: Services, r: VersionRow, now: number, reports: AddressOutcomes[]): Schemas['Rollout'] {
  const steps = parseSteps(r.ramp_steps)
  const position = rolloutAt(r, now)
  const { policy, isDefault } = policyOf(r, s.config.healthPolicy)
  const health: HealthTally = tallyReports(reports, policy)
  return {
    ramp: steps && r.ramp_started_at !== null ? {
      steps, startedAt: r.ramp_started_at, currentStep: position.step,
      nextStepAt: position.nextStepAt === null ? null : timestamp(new Date(position.nextStepAt)),
    } : null,
    paused: hold(r.paused_at, r.pause_reason, r.pause_automatic === 1),
    pulled: hold(r.pulled_at, r.pull_reason, false),
    health: { ...health, policy, defaultPolicy: isDefault },
  }
}

/** Base of absolute URLs: the configured public URL or the request's origin. */
export function baseUrl(s: Services, requestUrl: string): string {
  if (s.config.publicUrl) return s.config.publicUrl.replace(/\/+$/, '')
  // The origin is everything before the first '/' after "scheme://" (cheaper than new URL()).
  const slash = requestUrl.indexOf('/', requestUrl.indexOf('//') + 2)
  return slash === -1 ? requestUrl : requestUrl.slice(0, slash)
}

/**
 * A constraint failure, by the codes each driver gives: PostgreSQL's SQLSTATE (`23505`, `23503`),
 * better-sqlite3's extended codes; sql.js gives only the message.
 */
function violates(error: unknown, pgCode: string, sqliteCodes: string[], message: RegExp): boolean {
  if (!(error instanceof Error)) return false
  const code = errorCode(error)
  if (code !== undefined) return code === pgCode || sqliteCodes.includes(code)
  return message.test(error.message)
}

export const isUniqueViolation = (error: unknown) =>
  violates(error, '23505', ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'], /UNIQUE constraint failed/)

/** A catalog entry or app deleted while a version was being recorded. */
export const isForeignKeyViolation = (error: unknown) =>
  violates(error, '23503', ['SQLITE_CONSTRAINT_FOREIGNKEY'], /FOREIGN KEY constraint failed/)

export function currentUser(user: AuthUser | undefined): AuthUser {
  if (!user) throw new Error('operation reached its handler without an authenticated user')
  return user
}
