/** @module The public endpoints installed apps call: update check, latest build, Squirrel RELEASES. */
import semver from 'semver'
import { json, type Handlers, type Services } from '../context.ts'
import { baseUrl, downloadUrl, toVersions, versionQuery } from '../model.ts'
import { notFound } from '../problem.ts'
import { bucketsFor, planUpdate } from '../update-logic.ts'

export function updateHandlers(s: Services): Pick<Handlers, 'checkForUpdate' | 'getLatestBuild' | 'getSquirrelReleases'> {
  const findApp = async (slug: string) => {
    const app = await s.db.selectFrom('apps').select(['slug', 'private', 'team_id']).where('slug', '=', slug).executeTakeFirst()
    if (!app) throw notFound(`No app with slug ${slug}.`)
    return app
  }
  const published = (slug: string, channel: string, platform: string, arch: string) =>
    versionQuery(s).where('v.app_slug', '=', slug).where('v.published', '=', 1)
      .where('c.name', '=', channel).where('p.name', '=', platform).where('a.name', '=', arch)

  return {
    async checkForUpdate(c, input) {
      const slug = input.path.app as string
      const q = input.query as { version: string; channel: string; platform: string; arch: string }
      await findApp(slug)
      const rows = (await published(slug, q.channel, q.platform, q.arch).execute())
        .map((row) => ({ row, version: row.version, critical: row.critical === 1, intermediate: row.intermediate === 1, rolloutPercentage: row.rollout_percentage }))
      const deviceKey = input.header['x-ferry-device-id'] ?? `ip:${s.clientIp(c) ?? 'unknown'}`
      const buckets = await bucketsFor(deviceKey, rows.filter((r) => semver.gt(r.version, q.version)))
      const plan = planUpdate(q.version, rows, (r) => buckets.get(r.version) ?? 0)
      if (!plan) return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } })
      const [version] = await toVersions(s, baseUrl(s, c.req.url), [plan.target.row])
      if (!version) throw new Error('offered version vanished')
      return json({
        version: version.version,
        currentVersion: q.version,
        channel: version.channel,
        critical: plan.critical,
        intermediate: version.intermediate,
        changelog: version.changelog,
        publishedAt: version.publishedAt,
        artifacts: version.artifacts,
      }, 200, { 'cache-control': 'no-store' })
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
  }
}
