/** Shared setup for the codegen tests: the real spec, loaded and transformed once per file. */
import { fileURLToPath } from 'node:url'
import { createContext, type Context } from '../../lib/codegen/context.ts'
import { loadSpec } from '../../lib/codegen/load.ts'
import type { TagModel } from '../../lib/codegen/model.ts'
import { transformTags } from '../../lib/codegen/transform/operation.ts'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const SPEC = `${ROOT}openapi/openapi.yaml`
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url))

export async function loadReal(): Promise<{ ctx: Context; tags: TagModel[] }> {
  const ctx = createContext(await loadSpec(SPEC))
  return { ctx, tags: transformTags(ctx) }
}
