/**
 * @module The MCP library made from a checkout's sources: the Markdown twins the build writes next
 * to each page (lib/markdown-twins), made on first use, and the operations' texts from
 * openapi/openapi.yaml; `packLibrary` puts them all in one object for PACKED_LIBRARY.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { operations } from '../contract/generated/operations.ts'
import { apiReferencePages } from '../lib/markdown-twins/api-reference.ts'
import { buildTwins } from '../lib/markdown-twins/twins.ts'
import { siteConfig } from '../site.config.ts'
import {
  SPEC_FILE,
  type LibraryPage,
  type LibrarySource,
  type OperationTexts,
  type PackedLibrary,
} from './library-shape.ts'

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '')

export function sourceLibrary(root: string): LibrarySource {
  const specPath = path.join(root, SPEC_FILE)
  const paths = record(record(parse(readFileSync(specPath, 'utf8'))).paths)
  const texts: Record<string, OperationTexts> = {}
  for (const spec of operations) {
    const raw = record(record(paths[spec.path])[spec.method])
    const tags = Array.isArray(raw.tags) ? raw.tags.filter((t): t is string => typeof t === 'string') : []
    texts[spec.operationId] = { summary: text(raw.summary), description: text(raw.description), tags }
  }
  let pages: Promise<LibraryPage[]> | undefined
  let references: Promise<Record<string, string>> | undefined
  return {
    siteUrl: siteConfig.url,
    operations: texts,
    pages: () =>
      (pages ??= buildTwins({ root, siteUrl: siteConfig.url }).then((twins) =>
        twins.map(({ route, title, section, markdown, file }) => ({ route, title, section, markdown, file })),
      )),
    references: () =>
      (references ??= apiReferencePages(specPath).then((found) => {
        const byPointer = new Map(found.map((p) => [p.pointer, p.route]))
        const routes: Record<string, string> = {}
        for (const spec of operations) {
          const route = byPointer.get(spec.pointer)
          if (route) routes[spec.operationId] = route
        }
        return routes
      })),
  }
}

export async function packLibrary(root: string): Promise<PackedLibrary> {
  const source = sourceLibrary(root)
  return {
    siteUrl: source.siteUrl,
    operations: source.operations,
    pages: await source.pages(),
    references: await source.references(),
  }
}
