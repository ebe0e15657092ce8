/** @module Ferry's own JSON answer (`UpdateInfo` in the spec), or 204. */
import { jsonAnswer, noUpdate } from './answer.ts'
import type { Renderer } from './render.ts'

export const renderFerry: Renderer = async ({ files, current, offer }) => {
  if (!offer || !current) return noUpdate()
  const { row, artifacts } = offer.release
  return jsonAnswer({
    version: row.version,
    currentVersion: current.raw,
    channel: row.channel,
    critical: offer.critical,
    intermediate: row.intermediate === 1,
    ...(offer.downgrade ? { downgrade: true } : {}),
    changelog: row.changelog,
    publishedAt: row.published_at,
    artifacts: await Promise.all(artifacts.map((a) => files.artifact(a))),
  })
}
