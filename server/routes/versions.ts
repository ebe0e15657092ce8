/** @module Versions: upload (multipart), list, search, edit, delete. */
import semver from 'semver'
import { fileNameProblem, packageTypeOf, uploadSetProblems } from '../artifact-files.ts'
import { json, noContent, timestamp, type AuthUser, type Ctx, type Handlers, type Schemas, type Services } from '../context.ts'
import { randomId } from '../crypto.ts'
import { baseUrl, currentUser, findTeamApp, isUniqueViolation, toVersions, versionQuery, type VersionRow } from '../model.ts'
import { decodeCursor, page } from '../pagination.ts'
import { visibleApps } from '../permissions.ts'
import { conflict, notFound, validationProblem, type FieldError } from '../problem.ts'
import { discardUpload, receiveMultipart, type ReceivedUpload } from '../multipart-upload.ts'
import { operationById } from '../spec.ts'
import { bodyErrors, schemaFor } from '../validation.ts'
import { versionInput } from '../version-input.ts'
import type { ArtifactsTable } from '../storage/types.ts'

const uploadSchema = operationById('uploadVersion').body?.schema
const BOOLEAN_FIELDS = ['published', 'critical', 'intermediate'] as const

interface Filters { channel?: string; platform?: string; arch?: string; published?: boolean; critical?: boolean }

function semverDesc(a: VersionRow, b: VersionRow): number {
  return semver.compare(b.version, a.version) || b.seq - a.seq
}

export function versionHandlers(s: Services): Pick<Handlers, 'listVersions' | 'searchAppVersions' | 'uploadVersion' | 'updateVersion' | 'deleteVersion'> {
  function filtered(teamId: string, f: Filters) {
    let q = versionQuery(s).where('apps.team_id', '=', teamId)
    if (f.channel !== undefined) q = q.where('c.name', '=', f.channel)
    if (f.platform !== undefined) q = q.where('p.name', '=', f.platform)
    if (f.arch !== undefined) q = q.where('a.name', '=', f.arch)
    if (f.published !== undefined) q = q.where('v.published', '=', f.published ? 1 : 0)
    if (f.critical !== undefined) q = q.where('v.critical', '=', f.critical ? 1 : 0)
    return q
  }

  async function oneVersion(c: Ctx, slug: string, id: string) {
    const rows = await versionQuery(s).where('v.id', '=', id).where('v.app_slug', '=', slug).execute()
    const [version] = await toVersions(s, baseUrl(s, c.req.url), rows)
    if (!version) throw notFound(`No version ${id} of app ${slug}.`)
    return version
  }

  /** Validates the received fields, then records the version and its already-stored files. */
  async function storeVersion(c: Ctx, user: AuthUser, slug: string, upload: ReceivedUpload): Promise<Response> {
    const errors: FieldError[] = [...upload.errors]
    const fields: Record<string, unknown> = {}
    for (const [name, values] of upload.fields) {
      const value = values[0]!
      if (values.length > 1) errors.push({ field: name, message: `is sent ${values.length} times; send it once` })
      if ((BOOLEAN_FIELDS as readonly string[]).includes(name)) fields[name] = value === 'true' ? true : value === 'false' ? false : value
      else if (name === 'rolloutPercentage') fields[name] = /^\d+$/.test(value) ? Number(value) : value
      else fields[name] = value
    }
    for (const message of uploadSetProblems(upload.files.map((f) => f.name))) errors.push({ field: 'files', message })
    const check = schemaFor(uploadSchema ?? {})
    const candidate = { ...fields, files: upload.files.map((f) => f.name) }
    if (!check(candidate)) {
      for (const e of bodyErrors(check.errors)) errors.push({ field: (e.pointer ?? '/').slice(1).split('/')[0] || 'body', message: e.message })
    }
    if (errors.length) throw validationProblem(errors)
    const body = candidate as unknown as Required<Omit<Schemas['VersionUpload'], 'files'>>
    versionInput('version', body.version)

    const catalogErrors: FieldError[] = []
    const lookup = async (table: 'channels' | 'platforms' | 'archs', field: 'channel' | 'platform' | 'arch') => {
      const row = await s.db.selectFrom(table).select('id').where('team_id', '=', user.teamId).where('name', '=', body[field]).executeTakeFirst()
      if (!row) catalogErrors.push({ field, message: `no ${field} named ${body[field]} in this team` })
      return row?.id ?? ''
    }
    const channelId = await lookup('channels', 'channel')
    const platformId = await lookup('platforms', 'platform')
    const archId = await lookup('archs', 'arch')
    if (catalogErrors.length) throw validationProblem(catalogErrors)

    const conflictProblem = () => conflict(`Version ${body.version} of ${slug} already exists for ${body.channel}/${body.platform}/${body.arch}.`)
    const now = timestamp(s.now())
    const versionId = randomId('ver')
    const artifacts: ArtifactsTable[] = upload.files.map((f) => ({
      id: f.blobKey, version_id: versionId, file_name: f.name, package_type: packageTypeOf(f.name) ?? 'zip',
      size: f.size, sha1: f.sha1, sha256: f.sha256, sha512: f.sha512, blob_key: f.blobKey, created_at: now,
    }))
    try {
      await s.db.transaction().execute(async (trx) => {
        await trx.insertInto('versions').values({
          id: versionId, app_slug: slug, version: body.version, channel_id: channelId, platform_id: platformId, arch_id: archId,
          changelog: body.changelog ?? '', published: body.published ? 1 : 0, critical: body.critical ? 1 : 0,
          intermediate: body.intermediate ? 1 : 0, rollout_percentage: body.rolloutPercentage ?? 100,
          created_at: now, published_at: body.published ? now : null,
        }).execute()
        await trx.insertInto('artifacts').values(artifacts).execute()
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw conflictProblem()
      throw error
    }
    return json(await oneVersion(c, slug, versionId), 201, { location: `/v1/apps/${slug}/versions/${versionId}` })
  }

  return {
    async listVersions(c, input) {
      const user = currentUser(c.get('user'))
      const q = input.query as unknown as Filters & { app?: string; limit: number; cursor?: string }
      const cursor = decodeCursor<{ s: number }>(q.cursor, (v) => typeof v.s === 'number')
      let query = filtered(user.teamId, q)
      const visible = visibleApps(user)
      if (visible) query = query.where('v.app_slug', 'in', visible.size ? [...visible] : [''])
      if (q.app !== undefined) query = query.where('v.app_slug', '=', q.app)
      if (cursor) query = query.where('v.seq', '<', cursor.s)
      const rows = await query.orderBy('v.seq', 'desc').limit(q.limit + 1).execute()
      const result = page(rows, q.limit, (r) => r, (r) => ({ s: r.seq }))
      return json({ items: await toVersions(s, baseUrl(s, c.req.url), result.items), nextCursor: result.nextCursor })
    },

    async searchAppVersions(c, input) {
      const user = currentUser(c.get('user'))
      const slug = input.path.app as string
      const visible = visibleApps(user)
      if (visible && !visible.has(slug)) throw notFound(`No app with slug ${slug}.`)
      await findTeamApp(s, user, slug)
      const q = input.query as unknown as Filters & { limit: number; cursor?: string }
      const cursor = decodeCursor<{ v: string; s: number }>(q.cursor, (v) => typeof v.v === 'string' && semver.valid(v.v) !== null && typeof v.s === 'number')
      // Semver precedence is not SQL-sortable: sort one app's versions in memory.
      let rows = (await filtered(user.teamId, q).where('v.app_slug', '=', slug).execute()).sort(semverDesc)
      if (cursor) rows = rows.filter((r) => semverDesc(r, { version: cursor.v, seq: cursor.s } as VersionRow) > 0)
      const result = page(rows.slice(0, q.limit + 1), q.limit, (r) => r, (r) => ({ v: r.version, s: r.seq }))
      return json({ items: await toVersions(s, baseUrl(s, c.req.url), result.items), nextCursor: result.nextCursor })
    },

    async uploadVersion(c, input) {
      const user = currentUser(c.get('user'))
      const app = await findTeamApp(s, user, input.path.app as string)
      const upload = await receiveMultipart(c.req.raw, {
        maxBytes: s.config.maxUploadBytes, fileField: 'files', blobs: s.blobs, digestStream: s.digestStream,
        newBlobKey: () => randomId('art'), fileNameProblem,
      })
      try {
        return await storeVersion(c, user, app.slug, upload)
      } catch (error) {
        await discardUpload(s.blobs, upload)
        throw error
      }
    },

    async updateVersion(c, input) {
      const user = currentUser(c.get('user'))
      const app = await findTeamApp(s, user, input.path.app as string)
      const id = input.path.version as string
      const row = await s.db.selectFrom('versions').selectAll().where('id', '=', id).where('app_slug', '=', app.slug).executeTakeFirst()
      if (!row) throw notFound(`No version ${id} of app ${app.slug}.`)
      const body = input.body as Schemas['VersionUpdate']
      const patch: Partial<typeof row> = {}
      if (body.changelog !== undefined) patch.changelog = body.changelog
      if (body.critical !== undefined) patch.critical = body.critical ? 1 : 0
      if (body.intermediate !== undefined) patch.intermediate = body.intermediate ? 1 : 0
      if (body.rolloutPercentage !== undefined) patch.rollout_percentage = body.rolloutPercentage
      if (body.published !== undefined) {
        patch.published = body.published ? 1 : 0
        patch.published_at = body.published ? row.published_at ?? timestamp(s.now()) : null
      }
      if (Object.keys(patch).length) await s.db.updateTable('versions').set(patch).where('id', '=', id).execute()
      return json(await oneVersion(c, app.slug, id))
    },

    async deleteVersion(c, input) {
      const user = currentUser(c.get('user'))
      const app = await findTeamApp(s, user, input.path.app as string)
      const id = input.path.version as string
      const keys = await s.db.selectFrom('artifacts').select('blob_key').where('version_id', '=', id).execute()
      const deleted = await s.db.deleteFrom('versions').where('id', '=', id).where('app_slug', '=', app.slug).executeTakeFirst()
      if (Number(deleted.numDeletedRows) === 0) throw notFound(`No version ${id} of app ${app.slug}.`)
      for (const { blob_key } of keys) await s.blobs.delete(blob_key)
      return noContent()
    },
  }
}
