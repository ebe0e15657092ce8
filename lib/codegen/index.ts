/** @module Runs the codegen stages and returns every generated file as path → content. */
import { createContext, type GenOptions } from './context.ts'
import { renderPostman, renderJson, renderYaml } from './emit/artifacts.ts'
import { renderIndex, renderOperationPage, renderTagIntro } from './emit/mdx.ts'
import { CHANGELOG_PAGE, renderChangelogPage } from './emit/changelog.ts'
import type { FrozenRelease } from '../api-changelog/history.ts'
import { buildChangelog, routeTable } from '../api-changelog/releases.ts'
import { renderRootMeta, renderTagMeta } from './emit/meta.ts'
import { renderOperations } from './emit/operations.ts'
import { renderTypes } from './emit/types.ts'
import { loadSpec } from './load.ts'
import { buildHar, renderSamples } from './samples.ts'
import { transformTags } from './transform/operation.ts'

export const PAGES_DIR = 'pages/docs/api'

/** Files gen-api owns outside PAGES_DIR (inside it, it owns every file). */
export const OWNED_FILES = ['server/generated/api.ts', 'server/generated/operations.ts', 'public/openapi.yaml', 'public/openapi.json', 'public/ferry.postman_collection.json']

export interface GenResult {
  files: Map<string, string>
  warnings: string[]
}

/** With `history` (lib/api-changelog/history.ts), the changelog page is generated too. */
export async function generate(specPath: string, options: Partial<GenOptions> = {}, history?: readonly FrozenRelease[]): Promise<GenResult> {
  const ctx = createContext(await loadSpec(specPath), options)
  const tags = transformTags(ctx)
  const files = new Map<string, string>()
  files.set(`${PAGES_DIR}/index.mdx`, renderIndex(ctx, tags))
  files.set(`${PAGES_DIR}/_meta.ts`, renderRootMeta(tags, history ? [[CHANGELOG_PAGE, 'Changelog']] : []))
  if (history) {
    const releases = buildChangelog(ctx.doc, history, routeTable(tags.flatMap((tag) => tag.operations)))
    files.set(`${PAGES_DIR}/${CHANGELOG_PAGE}.mdx`, renderChangelogPage(releases, ctx.options.docsBase))
  }
  for (const tag of tags) {
    files.set(`${PAGES_DIR}/${tag.name}/_meta.ts`, renderTagMeta(tag))
    files.set(`${PAGES_DIR}/${tag.name}/${tag.slug}.mdx`, renderTagIntro(tag, ctx.options.docsBase))
    for (const op of tag.operations) {
      files.set(`${PAGES_DIR}/${tag.name}/${op.slug}.mdx`, renderOperationPage(op, renderSamples(buildHar(op, ctx.serverUrl))))
    }
  }
  files.set('server/generated/api.ts', await renderTypes(ctx))
  files.set('server/generated/operations.ts', renderOperations(ctx))
  files.set('public/openapi.yaml', renderYaml(ctx))
  files.set('public/openapi.json', renderJson(ctx))
  files.set('public/ferry.postman_collection.json', await renderPostman(ctx))
  return { files, warnings: ctx.warnings }
}
