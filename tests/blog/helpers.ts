/** @module Shared paths for the blog tests. */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
export const FIXTURES = 'tests/blog/fixtures'

export function readFixture(name: string): { file: string; source: string } {
  const file = `${FIXTURES}/${name}`
  return { file, source: readFileSync(path.join(REPO_ROOT, file), 'utf8') }
}
