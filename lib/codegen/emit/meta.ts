/** @module Stage: sidebar order → `_meta.ts` for pages/docs/api and each tag folder. */
import { BANNER } from '../context.ts'
import type { TagModel } from '../model.ts'

function printMeta(source: string, entries: [string, string][]): string {
  const body = entries
    .map(([key, title]) => `  ${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${JSON.stringify(title)},`)
    .join('\n')
  return `// ${BANNER}\n// Source: ${source}\nexport default {\n${body}\n}\n`
}

/**
 * The API root: the overview page first, then `pages` (the changelog), then one folder per tag
 * in declaration order, then `after` (the webhook events).
 */
export function renderRootMeta(
  tags: TagModel[],
  pages: [string, string][] = [],
  after: [string, string][] = [],
): string {
  return printMeta('#/tags', [
    ['index', 'Overview'],
    ...pages,
    ...tags.map((t): [string, string] => [t.name, t.displayName]),
    ...after,
  ])
}

/** A tag folder: its intro page first, then its operations in spec order. */
export function renderTagMeta(tag: TagModel): string {
  return printMeta(tag.pointer, [
    [tag.slug, 'Introduction'],
    ...tag.operations.map((op): [string, string] => [op.slug, op.summary]),
  ])
}
