/** Shared setup: the real contract, its frozen releases, and the reference's routes. */
import { rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stringify } from 'yaml'
import { loadSpec, type LoadedSpec } from '../../lib/codegen/load.ts'
import { routeTable, type RouteTable } from '../../lib/api-changelog/releases.ts'
import { loadReal } from '../codegen/helpers.ts'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export async function loadCurrent(): Promise<{ spec: LoadedSpec; routes: RouteTable }> {
  const { ctx, tags } = await loadReal()
  return { spec: ctx.spec, routes: routeTable(tags.flatMap((t) => t.operations)) }
}

/** The parts of a contract the fixtures edit. */
export interface EditableSpec {
  info: { version: string }
  paths: Record<string, Record<string, { parameters?: unknown[] } | undefined>>
}

/** The current contract changed by `edit`, written to a temporary file and loaded like any spec. */
export async function fixtureSpec(name: string, edit: (doc: EditableSpec) => void): Promise<LoadedSpec> {
  const doc = structuredClone((await loadSpec(`${ROOT}openapi/openapi.yaml`)).raw) as unknown as EditableSpec
  edit(doc)
  const file = join(tmpdir(), `ferry-api-changelog-${process.pid}-${name}.yaml`)
  await writeFile(file, stringify(doc))
  try {
    return await loadSpec(file)
  } finally {
    await rm(file)
  }
}
