/** @module Rows → the API's objects, and the app lookup several routes share. */
import { storedSigner } from '../transfer/signers/signer-continuity.ts'
import { appKeys } from '../transfer/updater-keys.ts'
import { timestamp } from '../core/time.ts'
import type { AuthUser } from '../auth/auth-user.ts'
import type { Schemas } from '../http/spec.ts'
import type { Services } from '../http/services.ts'
import { notFound } from '../core/problem.ts'
import { normalizePermissions } from '../auth/permissions.ts'
import {
  gateOpenAt,
  gateProgress,
  lapsedReason,
  parseGate,
  parseSteps,
  policyOf,
  rolloutAt,
  tallyReports,
  type HealthTally,
} from '../updates/rollout.ts'
import { stepEvidence } from '../updates/ramp-gate.ts'
import { reportsByAddress, type AddressOutcomes } from '../storage/telemetry/health-evidence.ts'
import { downloadUrl } from '../transfer/download-links.ts'
import { appVersionRows, type VersionRow } from '../storage/releases/versions.ts'
import { baseUrl } from '../http/base-url.ts'
import { teamApp } from '../storage/releases/apps.ts'
import { artifactsOf } from '../storage/releases/releases.ts'
import type { AppsTable, ArtifactRow, TeamsTable, UsersTable } from '../core/storage.ts'

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
  const tauriKeys = appKeys(row.tauri_public_key, row.tauri_extra_keys)
  const sparkleKeys = appKeys(row.sparkle_public_key, row.sparkle_extra_keys)
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    private: row.private === 1,
    // Present only when set, so apps without keys read as before.
    ...(row.tauri_public_key !== null ? { tauriPublicKey: row.tauri_public_key } : {}),
    ...(row.sparkle_public_key !== null ? { sparklePublicKey: row.sparkle_public_key } : {}),
    ...(tauriKeys.length ? { tauriPublicKeys: tauriKeys } : {}),
    ...(sparkleKeys.length ? { sparklePublicKeys: sparkleKeys } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/** The app with this slug in the caller's team; another team's app is "not found". */
export async function findTeamApp(s: Services, user: AuthUser, slug: string): Promise<AppsTable> {
  const app = await teamApp(s.db, user.teamId, slug)
  if (!app) throw notFound(`No app with slug ${slug}.`)
  return app
}

export async function toArtifact(
  s: Services,
  base: string,
  app: Pick<AppsTable, 'slug' | 'private'>,
  row: ArtifactRow,
  draft = false,
): Promise<Schemas['Artifact']> {
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

/** Version rows → API versions with their artifacts (one query for all artifacts). */
export async function toVersions(s: Services, base: string, rows: VersionRow[]): Promise<Schemas['Version'][]> {
  if (rows.length === 0) return []
  const byVersion = await artifactsOf(
    s.db,
    rows.map((r) => r.id),
  )
  const health = await reportsByAddress(
    s.db,
    rows.map((r) => r.id),
  )
  const now = s.now().getTime()
  const evidence = await stepEvidence(s.db, rows, now)
  return Promise.all(
    rows.map(async (r) => {
      const position = rolloutAt(r, now)
      return {
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
        rolloutPercentage: position.percentage,
        rollout: toRollout(s, r, now, health.get(r.id) ?? [], evidence.get(r.id) ?? [], position),
        createdAt: r.created_at,
        publishedAt: r.published_at,
        ...(r.minimum_system_version !== null ? { minimumSystemVersion: r.minimum_system_version } : {}),
        ...(r.signer_read === 1 ? { signer: storedSigner(r.signer) } : {}),
        ...(r.signer_change_note !== null
          ? { signerChange: { note: r.signer_change_note, previous: storedSigner(r.signer_previous) } }
          : {}),
        artifacts: await Promise.all(
          (byVersion.get(r.id) ?? []).map((a) =>
            toArtifact(s, base, { slug: r.app_slug, private: r.app_private }, a, r.published === 0),
          ),
        ),
      }
    }),
  )
}

/** The app's version with this id as the API shows it (URLs from `requestUrl`); 404 without it. */
export async function oneVersion(
  s: Services,
  requestUrl: string,
  slug: string,
  id: string,
): Promise<Schemas['Version']> {
  const [version] = await toVersions(s, baseUrl(s, requestUrl), await appVersionRows(s.db, slug, id))
  if (!version) throw notFound(`No version ${id} of app ${slug}.`)
  return version
}

const stop = (at: string | null, reason: string | null, automatic: boolean): Schemas['RolloutHold'] | null =>
  at === null ? null : { at, reason: reason ?? '', automatic }

/**
 * A version's `rollout` member at `now` (epoch ms); `stepReports`: a gated ramp's evidence for its
 * step in force; `position`: `rolloutAt(r, now)`, when the caller has it.
 */
export function toRollout(
  s: Services,
  r: VersionRow,
  now: number,
  reports: AddressOutcomes[],
  stepReports: AddressOutcomes[],
  position = rolloutAt(r, now),
): Schemas['Rollout'] {
  const steps = parseSteps(r.ramp_steps)
  const { policy, isDefault } = policyOf(r, s.config.healthPolicy)
  const health: HealthTally = tallyReports(reports, policy)
  const evidence = tallyReports(stepReports, policy)
  const gate = parseGate(r.ramp_gate)
  const { hold } = position
  const iso = (at: number) => timestamp(new Date(at))
  // A hold past its deadline reads as an automatic pause, though no write made it one.
  const expired =
    hold?.expired && gate && r.paused_at === null
      ? { at: iso(hold.deadline), reason: lapsedReason(gate, hold, evidence), automatic: true }
      : null
  return {
    ramp:
      steps && r.ramp_started_at !== null
        ? {
            steps,
            startedAt: r.ramp_started_at,
            currentStep: position.step,
            nextStepAt: position.nextStepAt === null ? null : iso(position.nextStepAt),
            ...(gate
              ? {
                  gate: {
                    ...gate,
                    met: gateOpenAt(r, now),
                    installs: evidence.reports - evidence.failed,
                    holding: hold
                      ? {
                          step: hold.step,
                          since: iso(hold.since),
                          deadline: iso(hold.deadline),
                          expired: hold.expired,
                          reason: gateProgress(evidence, gate),
                        }
                      : null,
                  },
                }
              : {}),
          }
        : null,
    paused: stop(r.paused_at, r.pause_reason, r.pause_automatic === 1) ?? expired,
    pulled: stop(r.pulled_at, r.pull_reason, false),
    health: { ...health, policy, defaultPolicy: isDefault },
  }
}
