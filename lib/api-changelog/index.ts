/** @module The API changelog from a checkout: the current contract, its frozen releases and the reference's routes. */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { createContext } from '../codegen/context.ts'
import { loadSpec } from '../codegen/load.ts'
import { transformTags } from '../codegen/transform/operation.ts'
import { loadHistory } from './history.ts'
import { buildChangelog, routeTable, type ReleaseNotes } from './releases.ts'

export const SPEC_FILE = 'openapi/openapi.yaml'

export async function loadChangelog(root: string): Promise<ReleaseNotes[]> {
  const ctx = createContext(await loadSpec(join(root, SPEC_FILE)))
  const routes = routeTable(transformTags(ctx).flatMap((tag) => tag.operations))
  return buildChangelog(ctx.doc, await loadHistory(root), routes)
}

/** The day the contract last changed in git, for the unreleased entry; `fallback` outside a git checkout. */
export function lastContractChange(root: string, fallback: string): string {
  try {
    const day = execFileSync('git', ['log', '-1', '--format=%cs', '--', SPEC_FILE], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim()
    return /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : fallback
  } catch {
    return fallback
  }
}
