/**
 * `npm pack`'s prepack (`write`) and postpack (`remove`): the MCP docs library packed into
 * mcp/docs-library.json.gz, so an installed Ferry serves the docs at /mcp and in `ferry mcp`
 * without a checkout's pages/ and openapi/ (mcp/library.ts). Prints its size.
 */
import { rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { PACKED_LIBRARY } from '../mcp/library-shape.ts'
import { packLibrary } from '../mcp/library-sources.ts'

const root = path.join(import.meta.dirname, '..')
const command = process.argv[2]
/** Where to write it: PACKED_LIBRARY unless a path is given. */
const file = process.argv[3] ?? path.join(root, PACKED_LIBRARY)
if (command === 'write') {
  const library = await packLibrary(root)
  const json = JSON.stringify(library)
  const packed = gzipSync(json, { level: 9 })
  writeFileSync(file, packed)
  console.error(
    `pack-mcp-library: wrote ${path.relative(root, file)}: ${library.pages.length} pages, ${Object.keys(library.operations).length} operations, ${(json.length / 1024).toFixed(0)} KiB of JSON in ${(packed.length / 1024).toFixed(0)} KiB`,
  )
} else if (command === 'remove') {
  rmSync(file, { force: true })
} else {
  console.error('usage: tsx scripts/pack-mcp-library.ts write [file] | remove')
  process.exit(2)
}
