/** @module The MCP library's shape: the pages, operation texts and reference routes the tools read, and the files they come from. */

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
