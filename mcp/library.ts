/**
 * @module What the MCP tools read: the site's pages as Markdown, each operation's texts and
 * reference route, the site's URL. In a checkout they are made from pages/ and openapi/ (on first
 * use; library-sources.ts); an installed Ferry has no sources and reads them from one packed file,
 * PACKED_LIBRARY, that `npm pack` writes (`npm run pack:mcp-library`).
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'

export const PACKED_LIBRARY = 'mcp/docs-library.json.gz'
export const SPEC_FILE = 'openapi/openapi.yaml'

/** A page's Markdown twin, as search_docs and read_page use it. */
export interface LibraryPage {
  route: string
  title: string
  section: 'docs' | 'api' | 'blog' | 'frozen'
  markdown: string
  /** What the page is written from, relative to the repository root. */
  file: string
}

export interface OperationTexts {
  summary: string
  description: string
  tags: string[]
}

export interface LibrarySource {
  siteUrl: string
  /** By operationId. */
  operations: Record<string, OperationTexts>
  pages(): Promise<LibraryPage[]>
  /** The route of each operation's API reference page, by operationId. */
  references(): Promise<Record<string, string>>
}

/** The packed file's content. */
export interface PackedLibrary {
  siteUrl: string
  operations: Record<string, OperationTexts>
  pages: LibraryPage[]
  references: Record<string, string>
}

/** The packed library under `root`, when there is one (an installed Ferry). */
export function packedLibrary(root: string): LibrarySource | undefined {
  const file = path.join(root, PACKED_LIBRARY)
  if (!existsSync(file)) return undefined
  const packed = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as PackedLibrary
  return {
    siteUrl: packed.siteUrl,
    operations: packed.operations,
    pages: async () => packed.pages,
    references: async () => packed.references,
  }
}

/** The packed library, or else the sources of a checkout. */
export async function librarySource(root: string): Promise<LibrarySource> {
  return packedLibrary(root) ?? (await import('./library-sources.ts')).sourceLibrary(root)
}
