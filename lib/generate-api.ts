/** @module Runs the codegen stages, and the changelog page's, and returns every generated file as path → content. */
import { createContext, type GenOptions } from './codegen/context.ts'
import { renderPostman, renderJson, renderYaml } from './codegen/emit/artifacts.ts'
import { renderIndex, renderOperationPage, renderTagIntro } from './codegen/emit/mdx.ts'
import { CHANGELOG_PAGE, renderChangelogPage } from './api-changelog/page.ts'
import type { FrozenRelease } from './api-changelog/history.ts'
import { buildChangelog, routeTable } from './api-changelog/releases.ts'
import { renderRootMeta, renderTagMeta } from './codegen/emit/meta.ts'
import { renderEventPage, renderEventsIntro, renderEventsMeta } from './codegen/emit/webhook-pages.ts'
import { renderOperations } from './codegen/emit/operations.ts'
import { renderTypes } from './codegen/emit/types.ts'
import type { LoadedSpec } from './codegen/load.ts'
import { operationSamples } from './codegen/samples.ts'
import { transformSpec } from './codegen/transform/operation.ts'
import { EVENTS_FOLDER, EVENTS_INTRO } from './codegen/transform/webhook.ts'
import { OPERATIONS_FILE, PAGES_DIR, TYPES_FILE } from './codegen/files.ts'

export { PAGES_DIR }

export interface GenResult {
  files: Map<string, string>
  warnings: string[]
}

/**
 * Load once (the caller), transform once, print many: every emitter prints the one model.
 * With `history` (lib/api-changelog/history.ts), the changelog page is generated too.
 */
export async function generate(
  spec: LoadedSpec,
  options: Partial<GenOptions> = {},
  history?: readonly FrozenRelease[],
): Promise<GenResult> {
  const ctx = createContext(spec, options)
  const model = transformSpec(ctx)
  const { tags, webhooks } = model
  const files = new Map<string, string>()
  files.set(`${PAGES_DIR}/index.mdx`, renderIndex(ctx, tags))
  const events: [string, string][] = webhooks.length ? [[EVENTS_FOLDER, 'Webhook events']] : []
  files.set(`${PAGES_DIR}/_meta.ts`, renderRootMeta(tags, history ? [[CHANGELOG_PAGE, 'Changelog']] : [], events))
  if (history) {
    const releases = buildChangelog(ctx.doc, history, routeTable(tags.flatMap((tag) => tag.operations)))
    files.set(`${PAGES_DIR}/${CHANGELOG_PAGE}.mdx`, renderChangelogPage(releases, ctx.options.docsBase))
  }
  for (const tag of tags) {
    files.set(`${PAGES_DIR}/${tag.name}/_meta.ts`, renderTagMeta(tag))
    files.set(`${PAGES_DIR}/${tag.name}/${tag.slug}.mdx`, renderTagIntro(tag, ctx.options.docsBase))
    for (const op of tag.operations) {
      files.set(`${PAGES_DIR}/${tag.name}/${op.slug}.mdx`, renderOperationPage(op, operationSamples(op, ctx.serverUrl)))
    }
  }
  if (webhooks.length) {
    files.set(`${PAGES_DIR}/${EVENTS_FOLDER}/_meta.ts`, renderEventsMeta(webhooks))
    files.set(`${PAGES_DIR}/${EVENTS_FOLDER}/${EVENTS_INTRO}.mdx`, renderEventsIntro(webhooks, ctx.options.docsBase))
    for (const hook of webhooks)
      files.set(`${PAGES_DIR}/${EVENTS_FOLDER}/${hook.slug}.mdx`, renderEventPage(hook, ctx.options.docsBase))
  }
  files.set(TYPES_FILE, await renderTypes(ctx))
  files.set(OPERATIONS_FILE, renderOperations(model))
  files.set('public/openapi.yaml', renderYaml(ctx))
  files.set('public/openapi.json', renderJson(ctx))
  files.set('public/ferry.postman_collection.json', await renderPostman(ctx))
  return { files, warnings: ctx.warnings }
}
