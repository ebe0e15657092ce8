/** @module The public endpoints installed apps call: update check, latest build, Squirrel RELEASES and packages. */
import semver, { SemVer } from 'semver'
import { sql } from 'kysely'
import { json, type Handlers, type Services } from '../context.ts'
import { baseUrl, downloadUrl, toArtifact, versionQuery, type VersionRow } from '../model.ts'
import { notFound } from '../problem.ts'
import type { ArtifactsTable } from '../storage/types.ts'
import { bucketsFor, planUpdate } from '../update-logic.ts'

interface Target {
  app: { slug: string; private: number }
  versions: Array<{ row: VersionRow; version: string; parsed: SemVer; critical: boolean; intermediate: boolean; rolloutPercentage: number }>
  artifacts: Map<string, ArtifactsTable[]>
  /** Whole 200 bodies of public apps per (offered version, critical, client version, base URL). */
  publicBodies: Map<string, string>
}

const MAX_PER_TARGET = 200

const MAX_CACHED = 5000
const NO_STORE = { 'cache-control': 'no-store' }

export function updateHandlers(s: Services): Pick<Handlers, 'checkForUpdate' | 'getLatestBuild' | 'getSquirrelReleases' | 'getSquirrelPackage'> {
  const findApp = async (slug: string) => {
    const app = await s.db.selectFrom('apps').select(['slug', 'private', 'team_id']).where('slug', '=', slug).executeTakeFirst()
    if (!app) throw notFound(`No app with slug ${slug}.`)
    return app
  }
  const published = (slug: string, channel: string, platform: string, arch: string) =>
    versionQuery(s).where('v.app_slug', '=', slug).where('v.published', '=', 1)
      .where('c.name', '=', channel).where('p.name', '=', platform).where('a.name', '=', arch)

  /**
   * The published versions (with artifacts) of one app/channel/platform/arch. Update checks
   * are the hot path, so this is cached until the next write request (see `generation`).
   */
  const cache = new Map<string, { generation: number; target: Target | null }>()
  /** The cached target, or `undefined` when it must be (re)loaded; synchronous on purpose. */
  function cachedTarget(key: string): Target | null | undefined {
    const hit = cache.get(key)
    return hit && hit.generation === s.generation.value ? hit.target : undefined
  }
  async function loadTarget(key: string, slug: string, channel: string, platform: string, arch: string): Promise<Target | null> {
    const generation = s.generation.value
    const app = await s.db.selectFrom('apps').select(['slug', 'private']).where('slug', '=', slug).executeTakeFirst()
    let target: Target | null = null
    if (app) {
      const rows = await published(slug, channel, platform, arch).execute()
      const artifacts = new Map<string, ArtifactsTable[]>()
      if (rows.length) {
        const list = await s.db.selectFrom('artifacts').selectAll().where('version_id', 'in', rows.map((r) => r.id)).orderBy(sql`rowid`).execute()
        for (const a of list) artifacts.set(a.version_id, [...(artifacts.get(a.version_id) ?? []), a])
      }
      target = {
        app,
        versions: rows.map((row) => ({
          row, version: row.version, parsed: new SemVer(row.version), critical: row.critical === 1,
          intermediate: row.intermediate === 1, rolloutPercentage: row.rollout_percentage,
        })),
        artifacts,
        publicBodies: new Map(),
      }
    }
    if (cache.size >= MAX_CACHED) cache.clear()
    cache.set(key, { generation, target })
    return target
  }

  return {
    async checkForUpdate(c, input) {
      const slug = input.path.app as string
      const q = input.query as { version: string; channel: string; platform: string; arch: string }
      const key = `${slug}\n${q.channel}\n${q.platform}\n${q.arch}`
      const hit = cachedTarget(key)
      const target = hit === undefined ? await loadTarget(key, slug, q.channel, q.platform, q.arch) : hit
      if (!target) throw notFound(`No app with slug ${slug}.`)
      const current = new SemVer(q.version)
      const above = target.versions.filter((v) => v.parsed.compare(current) > 0)
      const needsBucket = above.some((v) => v.rolloutPercentage > 0 && v.rolloutPercentage < 100)
      const deviceKey = input.header['x-ferry-device-id'] ?? `ip:${s.clientIp(c) ?? 'unknown'}`
      const buckets = needsBucket ? await bucketsFor(deviceKey, above) : new Map<string, number>()
      const plan = planUpdate(current, above, (v) => buckets.get(v.version) ?? 0)
      if (!plan) return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } })
      const row = plan.target.row
      const base = baseUrl(s, c.req.url)
      const bodyKey = `${row.id} ${plan.critical} ${current.raw} ${base}`
      const cached = target.app.private === 1 ? undefined : target.publicBodies.get(bodyKey)
      if (cached) return json(cached, 200, NO_STORE, true)
      const artifacts = await Promise.all((target.artifacts.get(row.id) ?? []).map((a) => toArtifact(s, base, target.app, a)))
      const body = JSON.stringify({
        version: row.version,
        currentVersion: q.version,
        channel: row.channel,
        critical: plan.critical,
        intermediate: row.intermediate === 1,
        changelog: row.changelog,
        publishedAt: row.published_at,
        artifacts,
      })
      // Public bodies carry no time-limited signature: reuse them until the next write.
      if (target.app.private !== 1 && target.publicBodies.size < MAX_PER_TARGET) target.publicBodies.set(bodyKey, body)
      return json(body, 200, NO_STORE, true)
    },

    async getLatestBuild(c, input) {
      const slug = input.path.app as string
      const q = input.query as { packageType: string; channel: string; platform: string; arch: string }
      const app = await findApp(slug)
      const rows = await published(slug, q.channel, q.platform, q.arch)
        .innerJoin('artifacts as art', 'art.version_id', 'v.id')
        .where('art.package_type', '=', q.packageType)
        .select(['art.id as artifact_id'])
        .execute()
      const newest = rows.sort((a, b) => semver.compare(b.version, a.version) || b.seq - a.seq)[0]
      if (!newest) throw notFound(`No published ${q.packageType} build of ${slug} for ${q.channel}/${q.platform}/${q.arch}.`)
      const location = await downloadUrl(s, baseUrl(s, c.req.url), app, newest.id, newest.artifact_id)
      return new Response(null, { status: 302, headers: { location, 'cache-control': 'no-store' } })
    },

    async getSquirrelReleases(_c, input) {
      const slug = input.path.app as string
      await findApp(slug)
      const rows = await published(slug, input.path.channel as string, 'windows', input.path.arch as string)
        .innerJoin('artifacts as art', 'art.version_id', 'v.id')
        .where('art.package_type', '=', 'nupkg')
        .select(['art.sha1', 'art.file_name', 'art.size'])
        .execute()
      rows.sort((a, b) => semver.compare(a.version, b.version) || a.seq - b.seq || a.file_name.localeCompare(b.file_name))
      const text = rows.map((r) => `${r.sha1.toUpperCase()} ${r.file_name} ${r.size}`).join('\n')
      return new Response(text ? `${text}\n` : '', { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } })
    },
    /** Squirrel.Windows fetches packages relative to RELEASES: redirect to the artifact, signed for private apps. */
    async getSquirrelPackage(c, input) {
      const [slug, channel, arch, file] = [input.path.app, input.path.channel, input.path.arch, input.path.file] as string[]
      const app = await findApp(slug!)
      const row = await published(slug!, channel!, 'windows', arch!)
        .innerJoin('artifacts as art', 'art.version_id', 'v.id')
        .where('art.package_type', '=', 'nupkg').where('art.file_name', '=', file!)
        .select(['art.id as artifact_id']).executeTakeFirst()
      if (!row) throw notFound(`No published package ${file} in the ${channel}/${arch} feed of ${slug}.`)
      const location = await downloadUrl(s, baseUrl(s, c.req.url), app, row.id, row.artifact_id)
      return new Response(null, { status: 302, headers: { location, 'cache-control': 'no-store' } })
    },
  }
}
