/** @module Writes generated files, or compares them with what is on disk (`--check`). */
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'

export const PAGES_DIR = 'pages/docs/api'
/** The contract's types (openapi-typescript) and operation table, written by gen-api. */
export const TYPES_FILE = 'contract/generated/api.ts'
export const OPERATIONS_FILE = 'contract/generated/operations.ts'
/** The hand-written type of one row of the table, which the table imports. */
export const OPERATION_SPEC_FILE = 'contract/operation-spec.ts'

/** Files gen-api owns outside PAGES_DIR (inside it, it owns every file). */
export const OWNED_FILES = [
  TYPES_FILE,
  OPERATIONS_FILE,
  'public/openapi.yaml',
  'public/openapi.json',
  'public/ferry.postman_collection.json',
]

export interface Drift {
  stale: string[]
  missing: string[]
  extra: string[]
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
}

/** Files gen-api owns that exist on disk, relative to `root`. */
async function ownedOnDisk(root: string): Promise<string[]> {
  const pages = (await listFiles(join(root, PAGES_DIR))).map((f) => relative(root, f).split('\\').join('/'))
  return [...pages, ...OWNED_FILES]
}

export async function checkFiles(root: string, files: Map<string, string>): Promise<Drift> {
  const drift: Drift = { stale: [], missing: [], extra: [] }
  for (const [path, content] of files) {
    const current = await readFile(join(root, path), 'utf8').catch(() => null)
    if (current === null) drift.missing.push(path)
    else if (current !== content) drift.stale.push(path)
  }
  for (const path of await ownedOnDisk(root)) {
    if (files.has(path)) continue
    const exists = await readFile(join(root, path)).then(
      () => true,
      () => false,
    )
    if (exists) drift.extra.push(path)
  }
  return drift
}

/** Writes every file whose content changed and deletes owned files that are no longer generated. */
export async function writeFiles(
  root: string,
  files: Map<string, string>,
): Promise<{ written: string[]; removed: string[] }> {
  const drift = await checkFiles(root, files)
  for (const path of [...drift.stale, ...drift.missing]) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), files.get(path)!)
  }
  for (const path of drift.extra) await rm(join(root, path))
  return { written: [...drift.stale, ...drift.missing].sort(), removed: drift.extra.sort() }
}
