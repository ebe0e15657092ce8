/** @module `ferry rollout`, `ferry promote` and `ferry status`: edits and views of versions already uploaded. */
import semver from 'semver'
import type { FerryClient, VersionFilters } from './api.ts'
import { refused, usageError } from './errors.ts'
import { table, type Io } from './output.ts'
import type { Version } from './api.ts'

const where = (v: Version) => `${v.platform}/${v.arch} on ${v.channel}`

/** Every upload of `version` (one per channel/platform/arch) the filters leave; an error when there is none. */
async function matching(
  client: FerryClient,
  app: string,
  version: string,
  filters: VersionFilters,
): Promise<Version[]> {
  if (!semver.valid(version))
    throw usageError(`<version> must be a semantic version like 1.2.0, not ${JSON.stringify(version)}`)
  const found = (await client.versions(app, filters, { downTo: version })).filter((v) => v.version === version)
  if (found.length === 0) {
    const scope = Object.entries(filters)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')
    throw refused(
      `app ${app} has no version ${version}${scope ? ` (${scope})` : ''}; ferry status ${app} lists what it has`,
    )
  }
  return found
}

export async function rollout(
  client: FerryClient,
  app: string,
  version: string,
  percent: number,
  filters: VersionFilters,
  io: Io,
): Promise<void> {
  for (const v of await matching(client, app, version, filters)) {
    if (!v.published)
      io.err(`${where(v)}: ${version} is a draft; the rollout applies once it is published (ferry promote)`)
    const updated = await client.updateVersion(app, v.id, { rolloutPercentage: percent })
    io.out(`${where(v)}: ${version} rollout ${v.rolloutPercentage} % → ${updated.rolloutPercentage} %`)
  }
}

/**
 * Sets a ramp on every upload of `version`: `percentages` in order, each `everyMinutes` after the
 * previous one (the first at once). Its clock starts now, on the server.
 */
export async function ramp(
  client: FerryClient,
  app: string,
  version: string,
  percentages: number[],
  everyMinutes: number,
  filters: VersionFilters,
  io: Io,
): Promise<void> {
  const steps = percentages.map((percentage, i) => ({ percentage, afterMinutes: i === 0 ? 0 : everyMinutes }))
  for (const v of await matching(client, app, version, filters)) {
    if (!v.published)
      io.err(
        `${where(v)}: ${version} is a draft; its ramp runs from now, but devices get it only once it is published (ferry promote)`,
      )
    const updated = await client.updateVersion(app, v.id, { ramp: { steps } })
    const every = everyMinutes % 60 === 0 ? `${everyMinutes / 60} h` : `${everyMinutes} min`
    io.out(
      `${where(v)}: ${version} ramp ${percentages.map((p) => `${p} %`).join(' → ')}, a step every ${every}; now ${updated.rolloutPercentage} %`,
    )
  }
}

/** Publishes the drafts of `version`; with `percent`, sets their rollout in the same request. */
export async function promote(
  client: FerryClient,
  app: string,
  version: string,
  percent: number | undefined,
  filters: VersionFilters,
  io: Io,
): Promise<void> {
  for (const v of await matching(client, app, version, filters)) {
    if (v.published && (percent === undefined || percent === v.rolloutPercentage)) {
      io.out(`${where(v)}: ${version} is already published (rollout ${v.rolloutPercentage} %)`)
      continue
    }
    const updated = await client.updateVersion(app, v.id, {
      published: true,
      ...(percent !== undefined ? { rolloutPercentage: percent } : {}),
    })
    io.out(
      `${where(v)}: ${version} ${v.published ? 'was already published' : 'published'}, rollout ${updated.rolloutPercentage} %`,
    )
  }
}

/** What `--json` prints per version: stable member names for scripts, without download links. */
function summary(v: Version) {
  return {
    id: v.id,
    version: v.version,
    channel: v.channel,
    platform: v.platform,
    arch: v.arch,
    published: v.published,
    rolloutPercentage: v.rolloutPercentage,
    rollout: { ramp: v.rollout.ramp, paused: v.rollout.paused, pulled: v.rollout.pulled },
    critical: v.critical,
    intermediate: v.intermediate,
    createdAt: v.createdAt,
    publishedAt: v.publishedAt,
    files: v.artifacts.map((a) => ({ name: a.fileName, size: a.size, sha256: a.sha256 })),
  }
}

/** Pulled, paused (and why), or where a ramp stands; empty for a hand-set percentage. */
function rolloutState(v: Version): string {
  const { ramp, paused, pulled } = v.rollout
  if (pulled) return `pulled: ${pulled.reason}`
  if (paused) return `paused${paused.automatic ? ' by health reports' : ''}: ${paused.reason}`
  if (!ramp) return ''
  const at = ramp.currentStep === null ? 'not started' : `ramp step ${ramp.currentStep + 1}/${ramp.steps.length}`
  return ramp.nextStepAt ? `${at}, next ${ramp.nextStepAt}` : at
}

export async function status(
  client: FerryClient,
  app: string,
  filters: VersionFilters,
  limit: number,
  json: boolean,
  io: Io,
): Promise<void> {
  const versions = await client.versions(app, filters, { limit })
  if (json) {
    io.out(JSON.stringify(versions.map(summary), null, 2))
    return
  }
  if (versions.length === 0) {
    io.out(`app ${app} has no versions${filters.channel ? ` on ${filters.channel}` : ''}`)
    return
  }
  const rows = [['VERSION', 'CHANNEL', 'PLATFORM/ARCH', 'PUBLISHED', 'ROLLOUT', 'CRITICAL', 'CREATED', 'STATE']]
  for (const v of versions) {
    rows.push([
      v.version,
      v.channel,
      `${v.platform}/${v.arch}`,
      v.published ? 'yes' : 'draft',
      `${v.rolloutPercentage} %`,
      v.critical ? 'yes' : 'no',
      v.createdAt,
      rolloutState(v),
    ])
  }
  for (const line of table(rows)) io.out(line)
}
