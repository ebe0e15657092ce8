/**
 * @module What the MCP tools read: the site's pages as Markdown, each operation's texts and
 * reference route, the site's URL. In a checkout they are made from pages/ and openapi/ (on first
 * use; library-sources.ts); an installed Ferry has no sources and reads them from one packed file,
 * PACKED_LIBRARY, that `npm pack` writes (scripts/pack-mcp-library.ts).
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'
import { PACKED_LIBRARY, type LibrarySource, type PackedLibrary } from './library-shape.ts'

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
