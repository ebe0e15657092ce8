/** @module Where an artifact is downloaded: its API path, and the absolute URL (signed when not public). */
import { signedQuery } from '../auth/signed-links.ts'
import type { AppsTable } from '../core/storage.ts'

export function downloadPath(slug: string, versionId: string, artifactId: string): string {
  return `/v1/apps/${slug}/versions/${versionId}/artifacts/${artifactId}/download`
}

/**
 * Absolute download URL; a signed link (valid 15 min) for private apps and for drafts
 * (whose files are not public either).
 */
export async function downloadUrl(
  s: { now: () => Date; config: { jwtSecret: string } },
  base: string,
  app: Pick<AppsTable, 'slug' | 'private'>,
  versionId: string,
  artifactId: string,
  draft = false,
): Promise<string> {
  const path = downloadPath(app.slug, versionId, artifactId)
  if (app.private !== 1 && !draft) return base + path
  return `${base}${path}?${await signedQuery(s.config.jwtSecret, path, s.now())}`
}
