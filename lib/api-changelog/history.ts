/**
 * @module The contract's releases: each frozen docs version (versions.json) with the API contract
 * `npm run docs:version` copied to openapi/versions/<id>.yaml, newest first.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { DocsVersion } from '../docs-versions.ts'
import { loadSpec, type LoadedSpec } from '../codegen/load.ts'

export interface FrozenRelease {
  id: string
  label: string
  /** YYYY-MM-DD, the day the version was frozen. */
  frozen: string
  /** Relative to the repository root. */
  file: string
  spec: LoadedSpec
}

/** Where a frozen version keeps its contract (scripts/docs-version.ts writes it). */
export const snapshotFile = (id: string): string => `openapi/versions/${id}.yaml`

/** Reads versions.json and every snapshot under `root`; a version without one is an error naming the file. */
export async function loadHistory(root: string): Promise<FrozenRelease[]> {
  const versionsFile = join(root, 'versions.json')
  const { versions } = JSON.parse(readFileSync(versionsFile, 'utf8')) as { versions: DocsVersion[] }
  const releases: FrozenRelease[] = []
  for (const [index, version] of versions.entries()) {
    const file = snapshotFile(version.id)
    const where = `${versionsFile} at /versions/${index}`
    if (!version.frozen || !/^\d{4}-\d{2}-\d{2}$/.test(version.frozen))
      throw new Error(`${where}: version ${version.id} has no "frozen" day (YYYY-MM-DD)`)
    if (!existsSync(join(root, file)))
      throw new Error(
        `${where}: version ${version.id} has no API contract snapshot ${file} (npm run docs:version writes it)`,
      )
    releases.push({
      id: version.id,
      label: version.label,
      frozen: version.frozen,
      file,
      spec: await loadSpec(join(root, file)),
    })
  }
  return releases.sort((a, b) => b.frozen.localeCompare(a.frozen))
}
