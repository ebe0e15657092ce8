/** @module Versions: upload (multipart), list, search, edit, delete. */
import { noteAudit } from '../http/writes/audit-hook.ts'
import { commitWrite } from '../http/writes/write-unit.ts'
import { removedChanges } from '../audit/entry.ts'
import {
  feedNameProblem,
  fileNameProblem,
  squirrelNameProblem,
  packageTypeOf,
  signedFileOf,
  uploadSetProblems,
} from '../../contract/artifact-files.ts'
import { noContent, type Handlers } from '../http/respond.ts'
import { timestamp } from '../core/time.ts'
import type { AuthUser } from '../auth/auth-user.ts'
import type { Ctx } from '../http/context.ts'
import type { Schemas } from '../http/spec.ts'
import type { Services } from '../http/services.ts'
import { randomId } from '../core/crypto.ts'
import { baseUrl } from '../http/base-url.ts'
import { currentUser } from '../auth/auth-user.ts'
import { findTeamApp, oneVersion, toVersions } from './api-objects.ts'
import { isForeignKeyViolation, isUniqueViolation } from '../storage/dialect.ts'
import {
  appVersionsPage,
  deleteAppVersionListingFiles,
  insertVersion,
  storedAppVersion,
  teamVersionsPage,
  updateAppVersion,
} from '../storage/releases/versions.ts'
import { insertArtifacts } from '../storage/releases/artifacts.ts'
import { catalogIdByName, platformUpdater } from '../storage/releases/catalogs.ts'
import { msixUploadProblems } from '../transfer/signers/msix-manifest.ts'
import { decodeCursor, hasNumber, hasString, page } from '../http/pagination.ts'
import { visibleApps } from '../auth/permissions.ts'
import { conflict, notFound, validationProblem, type FieldError } from '../core/problem.ts'
import { discardUpload, receiveMultipart, type ReceivedUpload } from '../transfer/multipart-upload.ts'
import { operationById } from '../http/spec.ts'
import { bodyErrors, compileSchema, unstorableTextErrors } from '../http/validation.ts'
import type { Insertable, Selectable } from 'kysely'
import { removeUnreferencedBlobs } from '../storage/blobs/blob-removal.ts'
import { versionInput } from '../http/version-input.ts'
import { versionKeyOf } from '../storage/releases/version-key.ts'
import { DEFAULT_RAMP_GATE, rolloutAt, stepProblems } from '../updates/rollout.ts'
import { announceGateChange } from './rollouts.ts'
import { announceHealthPause, pauseIfPastPolicy } from './health-pause.ts'
import { reviewGate } from '../updates/ramp-gate.ts'
import {
  edSignatureProblem,
  minisignProblem,
  parseMinisignPublicKey,
  parseSparklePublicKey,
} from '../transfer/signatures.ts'
import { publishSignerColumns, readUploadSigner, uploadSignerColumns } from '../transfer/signers/signer-continuity.ts'
import { acceptedKeys, appKeys, trustedKeysOfUpload } from '../transfer/updater-keys.ts'
import type { AppsTable, ArtifactsTable, VersionsTable } from '../core/storage.ts'
import { readLinuxPackages } from './linux-package-upload.ts'
import { insertLinuxPackages } from '../storage/releases/linux-repositories.ts'

/** The upload's form fields, with file parts listed by name. */
const checkUpload = compileSchema<Schemas['VersionUpload']>(operationById('uploadVersion').body?.schema ?? {})
const BOOLEAN_FIELDS = new Set(['published', 'critical', 'intermediate', 'signerChange'])

type Respond201 = (status: 201, body: Schemas['Version'], headers: Record<string, string>) => Response

/**
 * What a version update may change, as the API names it, before the change (ramp, gate and
 * health policy included). A running ramp's percentage is where the ramp stands at `now`.
 */
function versionBefore(row: Selectable<VersionsTable>, now: number): Record<string, unknown> {
  const policy = {
    ...(row.health_max_failure_ratio !== null ? { maxFailureRatio: row.health_max_failure_ratio } : {}),
    ...(row.health_min_reports !== null ? { minReports: row.health_min_reports } : {}),
    ...(row.health_min_addresses !== null ? { minAddresses: row.health_min_addresses } : {}),
    ...(row.health_max_reports_per_address !== null
      ? { maxReportsPerAddress: row.health_max_reports_per_address }
      : {}),
  }
  const parse = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text))
  return {
    changelog: row.changelog,
    critical: row.critical === 1,
    intermediate: row.intermediate === 1,
    rolloutPercentage:
      row.ramp_steps === null || row.paused_at !== null || row.pulled_at !== null
        ? row.rollout_percentage
        : rolloutAt(row, now).percentage,
    published: row.published === 1,
    minimumSystemVersion: row.minimum_system_version,
    ramp:
      row.ramp_steps === null
        ? null
        : { steps: parse(row.ramp_steps), ...(row.ramp_gate !== null ? { gate: parse(row.ramp_gate) } : {}) },
    healthPolicy: Object.keys(policy).length ? policy : null,
  }
}

export function versionHandlers(
  s: Services,
): Pick<Handlers, 'listVersions' | 'searchAppVersions' | 'uploadVersion' | 'updateVersion' | 'deleteVersion'> {
  /**
   * Each signature file checked against the key the app holds for its kind (none: not checked),
   * over the file it signs. A 400 names every file whose signature does not verify; otherwise
   * `updateKey` is the key that verified them (key rotation counts devices by it).
   */
  async function signatureProblems(
    app: AppsTable,
    upload: ReceivedUpload,
  ): Promise<{ errors: FieldError[]; updateKey: string | null }> {
    const usable = <T>(keys: string[], parse: (k: string) => T | undefined) =>
      keys.flatMap((text) => {
        const parsed = parse(text)
        return parsed === undefined ? [] : [{ text, parsed }]
      })
    const tauri = usable(acceptedKeys(appKeys(app.tauri_public_key, app.tauri_extra_keys)), parseMinisignPublicKey)
    const sparkle = usable(acceptedKeys(appKeys(app.sparkle_public_key, app.sparkle_extra_keys)), parseSparklePublicKey)
    const byName = new Map(upload.files.map((f) => [f.name, f]))
    const errors: FieldError[] = []
    let updateKey: string | null = null
    for (const sig of upload.files) {
      const signed = byName.get(signedFileOf(sig.name) ?? '')
      if (!signed) continue
      const type = packageTypeOf(sig.name)
      const [keys, check] =
        type === 'sig' && tauri.length
          ? ([
              tauri,
              await minisignProblem(
                s.blobs,
                tauri.map((k) => k.parsed),
                sig.blobKey,
                signed.blobKey,
              ),
            ] as const)
          : type === 'edsig' && sparkle.length
            ? ([
                sparkle,
                await edSignatureProblem(
                  s.blobs,
                  sparkle.map((k) => k.parsed),
                  sig.blobKey,
                  signed.blobKey,
                  signed.size,
                ),
              ] as const)
            : ([[], undefined] as const)
      if (typeof check === 'string')
        errors.push({
          field: 'files',
          message: `signature ${JSON.stringify(sig.name)} of ${JSON.stringify(signed.name)} ${check}`,
        })
      else if (check) updateKey ??= keys[check.key]?.text ?? null
    }
    return { errors, updateKey }
  }

  /** Validates the received fields and signatures, then records the version and its already-stored files. */
  async function storeVersion(
    c: Ctx,
    user: AuthUser,
    app: AppsTable,
    upload: ReceivedUpload,
    respond: Respond201,
  ): Promise<Response> {
    const slug = app.slug
    const errors: FieldError[] = [...upload.errors]
    const fields: Record<string, unknown> = {}
    for (const [name, values] of upload.fields) {
      const [value = ''] = values
      if (values.length > 1) errors.push({ field: name, message: `is sent ${values.length} times; send it once` })
      if (BOOLEAN_FIELDS.has(name)) fields[name] = value === 'true' ? true : value === 'false' ? false : value
      else if (name === 'rolloutPercentage') fields[name] = /^\d+$/.test(value) ? Number(value) : value
      else fields[name] = value
    }
    for (const message of uploadSetProblems(upload.files.map((f) => f.name))) errors.push({ field: 'files', message })
    const body = { ...fields, files: upload.files.map((f) => f.name) }
    const valid = checkUpload(body)
    const fieldOf = (e: FieldError) => (e.pointer ?? '/').slice(1).split('/')[0] || 'body'
    for (const e of valid ? unstorableTextErrors(body) : bodyErrors(checkUpload.errors))
      errors.push({ field: fieldOf(e), message: e.message })
    if (errors.length || !valid) throw validationProblem(errors)
    const parsed = versionInput('version', body.version)
    const badNames = upload.files.flatMap((f) => feedNameProblem(f.name, parsed.version) ?? [])
    if (badNames.length) throw validationProblem(badNames.map((message) => ({ field: 'files', message })))
    const signatures = await signatureProblems(app, upload)
    if (signatures.errors.length) throw validationProblem(signatures.errors)
    const msixProblems = await msixUploadProblems(s.blobs, upload.files)
    if (msixProblems.length) throw validationProblem(msixProblems.map((message) => ({ field: 'files', message })))
    const everyKey = [
      ...appKeys(app.tauri_public_key, app.tauri_extra_keys),
      ...appKeys(app.sparkle_public_key, app.sparkle_extra_keys),
    ].map((k) => k.key)
    const trusted = trustedKeysOfUpload(body.trustsKeys, everyKey, signatures.updateKey)
    if (trusted.errors.length)
      throw validationProblem(trusted.errors.map((message) => ({ field: 'trustsKeys', message })))

    const catalogErrors: FieldError[] = []
    const lookup = async (table: 'channels' | 'platforms' | 'archs', field: 'channel' | 'platform' | 'arch') => {
      const id = await catalogIdByName(s.db, table, user.teamId, body[field])
      if (id === undefined) catalogErrors.push({ field, message: `no ${field} named ${body[field]} in this team` })
      return id ?? ''
    }
    const channelId = await lookup('channels', 'channel')
    const platformId = await lookup('platforms', 'platform')
    const archId = await lookup('archs', 'arch')
    if (catalogErrors.length) throw validationProblem(catalogErrors)
    if ((await platformUpdater(s.db, platformId)) === 'squirrel-windows') {
      const unread = upload.files.flatMap((f) => squirrelNameProblem(f.name, parsed.version) ?? [])
      if (unread.length) throw validationProblem(unread.map((message) => ({ field: 'files', message })))
    }

    const signer = await readUploadSigner(s.blobs, upload.files)

    const conflictProblem = () =>
      conflict(`Version ${body.version} of ${slug} already exists for ${body.channel}/${body.platform}/${body.arch}.`)
    const now = timestamp(s.now())
    const versionId = randomId('ver')
    const linuxPackages = await readLinuxPackages(s, slug, versionId, upload.files)
    const artifacts: Insertable<ArtifactsTable>[] = upload.files.map((f, position) => ({
      id: f.blobKey,
      version_id: versionId,
      file_name: f.name,
      package_type: packageTypeOf(f.name) ?? 'zip',
      size: f.size,
      sha1: f.sha1,
      sha256: f.sha256,
      sha512: f.sha512,
      blob_key: f.blobKey,
      created_at: now,
      position,
    }))
    try {
      await commitWrite(s, c, async (trx) => {
        // A form, not JSON: its fields and file names are the entry's changes.
        noteAudit(c, {
          created: { id: versionId },
          changes: Object.fromEntries(Object.entries(body).map(([name, to]) => [name, { to }])),
        })
        const signerColumns = await uploadSignerColumns(trx, signer, {
          app: slug,
          version: body.version,
          channelId,
          platformId,
          published: body.published === true,
          declared: body.signerChange === true,
          note: body.signerChangeNote,
        })
        await insertVersion(trx, {
          id: versionId,
          app_slug: slug,
          version: body.version,
          version_key: versionKeyOf(parsed),
          channel_id: channelId,
          platform_id: platformId,
          arch_id: archId,
          changelog: body.changelog ?? '',
          published: body.published ? 1 : 0,
          critical: body.critical ? 1 : 0,
          intermediate: body.intermediate ? 1 : 0,
          rollout_percentage: body.rolloutPercentage ?? 100,
          minimum_system_version: body.minimumSystemVersion ?? null,
          created_at: now,
          published_at: body.published ? now : null,
          ...signerColumns,
          update_key: signatures.updateKey,
          trusted_keys: trusted.keys === null ? null : JSON.stringify(trusted.keys),
        })
        await insertArtifacts(trx, artifacts)
        await insertLinuxPackages(trx, linuxPackages)
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw conflictProblem()
      if (isForeignKeyViolation(error))
        throw conflict(
          `The app ${slug} or the ${body.channel}/${body.platform}/${body.arch} catalog entries were deleted while this upload ran.`,
        )
      throw error
    }
    return respond(201, await oneVersion(s, c.req.url, slug, versionId), {
      location: `/v1/apps/${slug}/versions/${versionId}`,
    })
  }

  return {
    async listVersions(c, { query }, respond) {
      const user = currentUser(c.get('user'))
      const cursor = decodeCursor(query.cursor, hasNumber('s'))
      const apps = visibleApps(user)
      const rows = await teamVersionsPage(s.db, user.teamId, { ...query, apps }, cursor?.s, query.limit + 1)
      const result = page(
        rows,
        query.limit,
        (r) => r,
        (r) => ({ s: r.seq }),
      )
      return respond(200, {
        items: await toVersions(s, baseUrl(s, c.req.url), result.items),
        nextCursor: result.nextCursor,
      })
    },

    async searchAppVersions(c, { path, query }, respond) {
      const user = currentUser(c.get('user'))
      const visible = visibleApps(user)
      if (visible && !visible.has(path.app)) throw notFound(`No app with slug ${path.app}.`)
      const app = await findTeamApp(s, user, path.app)
      const cursor = decodeCursor(
        query.cursor,
        (v): v is { v: string; s: number } => hasString('v')(v) && hasNumber('s')(v),
      )
      // Newest first by semver precedence.
      const rows = await appVersionsPage(s.db, user.teamId, app.slug, query, cursor, query.limit + 1)
      const result = page(
        rows,
        query.limit,
        (r) => r,
        (r) => ({ v: r.version, s: r.seq }),
      )
      return respond(200, {
        items: await toVersions(s, baseUrl(s, c.req.url), result.items),
        nextCursor: result.nextCursor,
      })
    },

    async uploadVersion(c, { path }, respond) {
      const user = currentUser(c.get('user'))
      const app = await findTeamApp(s, user, path.app)
      const upload = await receiveMultipart(c.req.raw, {
        maxBytes: s.config.maxUploadBytes,
        fileField: 'files',
        blobs: s.blobs,
        digestStream: s.digestStream,
        newBlobKey: () => randomId('art'),
        fileNameProblem,
      })
      try {
        const stored = await storeVersion(c, user, app, upload, respond)
        s.observer.uploaded(upload.files.reduce((bytes, file) => bytes + file.size, 0))
        return stored
      } catch (error) {
        await discardUpload(s.blobs, upload)
        throw error
      }
    },

    async updateVersion(c, { path, body }, respond) {
      const user = currentUser(c.get('user'))
      const app = await findTeamApp(s, user, path.app)
      // Only the members sent are written; a first publish stamps published_at in SQL, so two
      // concurrent publishes keep the first time and an unpublish clears it.
      const now = timestamp(s.now())
      const sent = [
        'changelog',
        'critical',
        'intermediate',
        'rolloutPercentage',
        'published',
        'ramp',
        'healthPolicy',
        'minimumSystemVersion',
      ] as const
      if (!sent.some((name) => body[name] !== undefined))
        return respond(200, await oneVersion(s, c.req.url, app.slug, path.version))
      const { ramp, healthPolicy } = body
      if (ramp && body.rolloutPercentage !== undefined) {
        throw validationProblem([
          { pointer: '/ramp', message: 'must not be sent with rolloutPercentage: a ramp sets the percentage' },
        ])
      }
      if (ramp) {
        const problems = stepProblems(ramp.steps)
        if (problems.length) throw validationProblem(problems)
      }
      // A ramp's clock starts now; a hand-set percentage (or `ramp: null`) ends the ramp.
      // A gate starts closed and is checked against the reports already counted just below.
      const rampColumns = ramp
        ? {
            ramp_steps: JSON.stringify(ramp.steps),
            ramp_started_at: now,
            ramp_paused_seconds: 0,
            ramp_gate: ramp.gate ? JSON.stringify({ ...DEFAULT_RAMP_GATE, ...ramp.gate }) : null,
            gate_open: 0,
            gate_closed_seconds: 0,
          }
        : ramp === null || body.rolloutPercentage !== undefined
          ? {
              ramp_steps: null,
              ramp_started_at: null,
              ramp_paused_seconds: 0,
              ramp_gate: null,
              gate_open: 0,
              gate_closed_seconds: 0,
            }
          : {}
      const policyColumns =
        healthPolicy === undefined
          ? {}
          : {
              health_max_failure_ratio: healthPolicy?.maxFailureRatio ?? null,
              health_min_reports: healthPolicy?.minReports ?? null,
              health_min_addresses: healthPolicy?.minAddresses ?? null,
              health_max_reports_per_address: healthPolicy?.maxReportsPerAddress ?? null,
            }
      const judged = await commitWrite(s, c, async (trx) => {
        const old = await storedAppVersion(trx, app.slug, path.version)
        if (!old) throw notFound(`No version ${path.version} of app ${app.slug}.`)
        const was = versionBefore(old, s.now().getTime())
        noteAudit(c, { before: was })
        // A hand-set percentage ends a ramp: the entry says so.
        if (rampColumns.ramp_steps === null && old.ramp_steps !== null && ramp === undefined)
          noteAudit(c, { changes: { ramp: { from: was.ramp, to: null } } })
        const signerColumns = body.published === true ? await publishSignerColumns(trx, app.slug, path.version) : {}
        const changes = {
          ...rampColumns,
          ...signerColumns,
          ...policyColumns,
          ...(body.changelog !== undefined ? { changelog: body.changelog } : {}),
          ...(body.critical !== undefined ? { critical: body.critical ? 1 : 0 } : {}),
          ...(body.intermediate !== undefined ? { intermediate: body.intermediate ? 1 : 0 } : {}),
          ...(body.rolloutPercentage !== undefined ? { rollout_percentage: body.rolloutPercentage } : {}),
          ...(body.minimumSystemVersion !== undefined ? { minimum_system_version: body.minimumSystemVersion } : {}),
        }
        if (!(await updateAppVersion(trx, app.slug, path.version, changes, body.published, now)))
          throw notFound(`No version ${path.version} of app ${app.slug}.`)
        // A new gate or policy is checked against the reports already counted, in the same transaction.
        const gate =
          ramp?.gate || healthPolicy !== undefined
            ? await reviewGate(trx, path.version, s.config.healthPolicy, s.now())
            : null
        // A stricter policy pauses a published version already past it, as the next report would.
        const edited = healthPolicy === undefined ? undefined : await storedAppVersion(trx, app.slug, path.version)
        const paused =
          edited && edited.published === 1 && edited.pulled_at === null
            ? await pauseIfPastPolicy(trx, s.now(), s.config.healthPolicy, app, edited)
            : null
        return { gate, paused }
      })
      await announceGateChange(s, judged.gate, c.get('reqId'))
      await announceHealthPause(s, judged.paused, c.get('reqId'))
      return respond(200, await oneVersion(s, c.req.url, app.slug, path.version))
    },

    async deleteVersion(c, { path }) {
      const user = currentUser(c.get('user'))
      const app = await findTeamApp(s, user, path.app)
      const keys = await commitWrite(s, c, async (trx) => {
        const removed = await deleteAppVersionListingFiles(trx, app.slug, path.version)
        if (!removed) throw notFound(`No version ${path.version} of app ${app.slug}.`)
        if (removed.version !== undefined) noteAudit(c, { changes: removedChanges({ version: removed.version }) })
        return removed.blobKeys
      })
      await removeUnreferencedBlobs(s.blobs, keys, s.logger)
      return noContent()
    },
  }
}
